"""CSSE00 Tables 2–4 as figures: normalized performance per topology and policy.

Campos, Silva, Scherson & Eshaghian (2000), §2.2: NP of the gradient model,
sender-initiated diffusion, the central job dispatcher and Rate of Change on
four topologies, in three scenarios. One drawing function per preset
(``conf/experiment/ipg00_table*.yaml``, ``ipg00_roc_sensitivity.yaml``, ``ipg00_sampling.yaml``),
registered with :func:`~sweep.analysis.figures.figure`. Measured NP (mean over
replications, 90% Student-t interval) as solid bars, the paper's printed
values (:data:`PAPER`) as hatched bars beside them.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib.figure import Figure

from sweep.analysis.compare import confidence_interval
from sweep.analysis.figures import figure

TOPOLOGIES = ("mesh", "hypercube", "fully_connected", "workstations")
POLICIES = ("gradient", "sender_diffusion", "central_dispatcher", "rate_of_change")
LABELS = {"gradient": "Gradient Model", "sender_diffusion": "Sender Initiated Diffusion",
          "central_dispatcher": "Central Job Dispatcher", "rate_of_change": "Rate of Change",
          "mesh": "Mesh", "hypercube": "Hypercube", "fully_connected": "Fully Connected",
          "workstations": "Network of Workstations"}

#: NP printed in CSSE00, by table, policy, then topology in :data:`TOPOLOGIES` order.
PAPER: dict[str, dict[str, tuple[float, ...]]] = {
    "table2": {"gradient": (0.66, 0.69, 0.73, 0.52), "sender_diffusion": (0.70, 0.71, 0.74, 0.59),
               "central_dispatcher": (0.59, 0.62, 0.63, 0.37),
               "rate_of_change": (0.79, 0.79, 0.87, 0.61)},
    "table3": {"gradient": (0.72, 0.74, 0.76, 0.54), "sender_diffusion": (0.65, 0.65, 0.68, 0.52),
               "central_dispatcher": (0.65, 0.66, 0.65, 0.45),
               "rate_of_change": (0.74, 0.75, 0.81, 0.60)},
    "table4": {"gradient": (0.70, 0.77, 0.81, 0.54), "sender_diffusion": (0.73, 0.76, 0.81, 0.58),
               "central_dispatcher": (0.52, 0.53, 0.53, 0.42),
               "rate_of_change": (0.82, 0.82, 0.88, 0.62)},
}
_TITLES = {"table2": "Table 2: stable situation (symmetric)",
           "table3": "Table 3: unstable situation (asymmetric)",
           "table4": "Table 4: arbitrary arrival times"}
_COLORS = ("tab:blue", "tab:green", "tab:gray", "tab:red")


def _first_of_others(da: xr.DataArray, *kept: str) -> xr.DataArray:
    """``da`` over ``kept`` and ``replication``, every other dimension at its first label (the unused
    ``load`` and ``workload`` axes of these presets)."""
    for dim in [d for d in da.dims if d not in (*kept, "replication")]:
        da = da.isel({dim: 0}, drop=True)
    return da


def np_table(ds: xr.Dataset, level: float = 0.90) -> xr.DataArray:
    """NP by policy and topology with its confidence interval (coords ``low``/``high``)."""
    da = _first_of_others(ds["normalized_performance"], "policy", "topology")
    return confidence_interval(da, "replication", level).transpose("policy", "topology")


def _draw_table(ds: xr.Dataset, table: str) -> dict[str, Figure]:
    est = np_table(ds)
    fig = Figure(figsize=(9, 4.2))
    ax = fig.subplots()
    policies = [p for p in POLICIES if p in est["policy"].values]
    topologies = [t for t in TOPOLOGIES if t in est["topology"].values]
    width = 0.8 / max(len(policies), 1)
    x = np.arange(len(topologies))
    for k, policy in enumerate(policies):
        row = est.sel(policy=policy, topology=topologies)
        err = np.nan_to_num((row["high"] - row).values)
        offset = x - 0.4 + width * (k + 0.5)
        ax.bar(offset - width / 4, row.values, width / 2, yerr=err, capsize=2, color=_COLORS[k],
               label=f"{LABELS[policy]} (model)")
        paper = [PAPER[table][policy][TOPOLOGIES.index(t)] for t in topologies]
        ax.bar(offset + width / 4, paper, width / 2, color="white", edgecolor=_COLORS[k], hatch="//",
               label=f"{LABELS[policy]} (CSSE00)")
    ax.set_xticks(x, [LABELS[t] for t in topologies])
    ax.set_ylabel("normalized performance NP")
    ax.set_ylim(min(0.0, float(np.nanmin(est.values)) - 0.05), 1.05)
    ax.set_title(_TITLES[table])
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    return {f"ipg00_{table}_np": fig}


@figure("ipg00_table2")
def table2(ds: xr.Dataset) -> dict[str, Figure]:
    """CSSE00 Table 2 beside the model."""
    return _draw_table(ds, "table2")


@figure("ipg00_table3")
def table3(ds: xr.Dataset) -> dict[str, Figure]:
    """CSSE00 Table 3 beside the model."""
    return _draw_table(ds, "table3")


@figure("ipg00_table4")
def table4(ds: xr.Dataset) -> dict[str, Figure]:
    """CSSE00 Table 4 beside the model."""
    return _draw_table(ds, "table4")


@figure("ipg00_roc_sensitivity")
def roc_sensitivity(ds: xr.Dataset) -> dict[str, Figure]:
    """RoC's NP against a fixed ND, one curve per HT (90% intervals)."""
    da = _first_of_others(ds["normalized_performance"], "nd", "high_threshold")
    est = confidence_interval(da, "replication").transpose("high_threshold", "nd")
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    for ht in est["high_threshold"].values:
        row = est.sel(high_threshold=ht)
        ax.errorbar(row["nd"].values, row.values, yerr=np.nan_to_num((row["high"] - row).values),
                    marker="o", ms=4, capsize=2, label=f"HT = {ht}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("network delay ND (slices, fixed)")
    ax.set_ylabel("normalized performance NP")
    ax.set_title("Rate of Change: sensitivity to ND and HT (stable scenario, mesh)")
    ax.legend(fontsize=8)
    return {"ipg00_roc_sensitivity": fig}


#: The sampling preset's panels: variable, axis label.
_SAMPLING_PANELS = (("normalized_performance", "normalized performance NP"),
                    ("mean_idle_fraction", "PE-time idle"),
                    ("messages", "control messages per run"))


@figure("ipg00_sampling")
def sampling(ds: xr.Dataset) -> dict[str, Figure]:
    """CSSE00 §3.2.1's trade-off: RoC's NP, idle PE-time and messages against its sample interval
    (means over replications, 90% intervals)."""
    fig = Figure(figsize=(11, 3.4))
    for ax, (variable, label) in zip(fig.subplots(1, 3), _SAMPLING_PANELS, strict=True):
        est = confidence_interval(_first_of_others(ds[variable], "interval").astype(float), "replication")
        ax.errorbar(est["interval"].values, est.values, yerr=np.nan_to_num((est["high"] - est).values),
                    marker="o", ms=4, capsize=2, color=_COLORS[3])
        ax.set_xscale("log", base=2)
        ax.set_xticks(est["interval"].values, [str(v) for v in est["interval"].values])
        ax.set_xlabel("sample interval (slices)")
        ax.set_ylabel(label)
    fig.suptitle("Rate of Change: finer sampling against its overhead (unstable scenario, mesh)")
    fig.tight_layout()
    return {"ipg00_sampling": fig}
