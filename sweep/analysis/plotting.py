"""Line plots of a sweep's Dataset: one curve per policy against load, 90% CIs as error bars."""

from __future__ import annotations

import numpy as np
import xarray as xr

from sweep.analysis.compare import confidence_interval

#: The paper's names of the dispatch policies (SH00 §1.2, §4.1, §4.4).
POLICY_LABELS = {
    "random": "Random", "round_robin": "Round-Robin", "shortest_queue": "Shortest-Queue",
    "lwl": "Least-Work-Left", "central_queue": "Central-Queue", "sita_e": "SITA-E",
    "sita_u_opt": "SITA-U-opt", "sita_u_fair": "SITA-U-fair", "sita_u_rule": "SITA-U rule (ρ/2)",
    "power_of_d": "Power of d",
}
MARKERS = "os^vD<>px"


def squeeze_point(da: xr.DataArray,
                  keep: tuple[str, ...] = ("policy", "load", "replication")) -> xr.DataArray:
    """``da`` with every length-one dimension not in ``keep`` dropped; a longer one raises."""
    for dim in [d for d in da.dims if d not in keep]:
        if da.sizes[dim] != 1:
            raise ValueError(f"cannot draw {da.name} with {da.sizes[dim]} values of {dim!r}: select one")
        da = da.isel({dim: 0}, drop=True)
    return da


def curves(ax, da: xr.DataArray, ylabel: str, *, log: bool = False, level: float = 0.90,
           saturated: xr.DataArray | None = None) -> None:
    """One curve per policy of ``da`` (dims policy, load[, replication]) with CI error bars.

    Points where ``saturated`` is true in any replication get a red cross: their
    values are those of a finite run of an unstable system.
    """
    da = squeeze_point(da)
    if "replication" in da.dims:
        est = confidence_interval(da, "replication", level)
        err = np.nan_to_num(est["halfwidth"].transpose("policy", "load").values)
    else:
        est, err = da, None
    est = est.transpose("policy", "load")
    for k, policy in enumerate(est["policy"].values):
        y = est.sel(policy=policy).values
        yerr = None if err is None else err[k]
        ax.errorbar(est["load"].values, y, yerr=yerr, marker=MARKERS[k % len(MARKERS)], ms=4,
                    capsize=2, label=POLICY_LABELS.get(str(policy), str(policy)))
    if saturated is not None:
        flags = squeeze_point(saturated)
        if "replication" in flags.dims:
            flags = flags.any("replication")
        flags = flags.transpose("policy", "load")
        marked = est.where(flags.astype(bool))
        if marked.notnull().any():
            x = np.broadcast_to(est["load"].values, marked.shape)
            ax.plot(x.ravel(), marked.values.ravel(), "x", color="red", ms=9, mew=2, ls="none",
                    label="saturated (a host's load ≥ 1)")
    ax.set_xlabel("System load ρ")
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def panels(count: int, title: str):
    """A figure with ``count`` side-by-side axes and a title."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, count, figsize=(5.2 * count, 4.0), squeeze=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig, list(axes[0])
