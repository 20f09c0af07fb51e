"""Figures of the integrated tool, IPG-SaLaD (CSSE00 §3, Fig. 1; §4; ``docs/ipg00-salad.md``).

One drawing function per preset (``conf/experiment/ipg00_salad*.yaml``),
registered with :func:`~sweep.analysis.figures.figure`. The paper prints no
results for the whole tool: every figure shows the model alone.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import xarray as xr
from matplotlib.animation import FuncAnimation
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from sweep.analysis.compare import ratio
from sweep.analysis.figures import figure
from sweep.analysis.plotting import curves

#: The tool (CSSE00 §3) and each one-stage substitution: label -> the slots it sets.
VARIANTS = {
    "IPG-SaLaD (Cluster-M, RoC, Concurrent Gang)": {},
    "no load balancer": {"balancer": "no_balancing"},
    "Gang instead of Concurrent Gang": {"scheduler": "gang"},
    "MH instead of Cluster-M": {"mapper": "mh"},
    "random mapping instead of Cluster-M": {"mapper": "map_random"},
}
TOOL = {"mapper": "cluster_m", "balancer": "rate_of_change", "scheduler": "concurrent_gang"}


#: The suggestion preset's curves (CSSE00 §3): label -> the mapper and balancer slots.
SUGGESTION = {
    "Cluster-M, Rate of Change": {"mapper": "cluster_m", "balancer": "rate_of_change"},
    "random mapping, Rate of Change": {"mapper": "map_random", "balancer": "rate_of_change"},
    "Cluster-M, no balancer": {"mapper": "cluster_m", "balancer": "no_balancing"},
    "random mapping, no balancer": {"mapper": "map_random", "balancer": "no_balancing"},
}


def labelled(da: xr.DataArray, rows: dict[str, dict[str, str]], base: dict[str, str] | None = None
             ) -> xr.DataArray:
    """``da`` of a factorial preset as one ``policy`` dimension: a label per row of slot values
    (each on top of ``base``)."""
    picked = [da.sel({**(base or {}), **change}, drop=True) for change in rows.values()]
    return xr.concat(picked, dim=xr.IndexVariable("policy", list(rows)))


def variants(da: xr.DataArray) -> xr.DataArray:
    """``da`` of the full-factorial preset as one ``policy`` dimension of :data:`VARIANTS`."""
    return labelled(da, VARIANTS, TOOL)


def _as_curves(da: xr.DataArray, curve: str, x: str) -> xr.DataArray:
    """``da`` with ``curve`` as the ``policy`` and ``x`` as the ``load`` dimension of
    :func:`~sweep.analysis.plotting.curves` (the preset's own one-value load dropped first)."""
    return da.squeeze(drop=True).drop_vars(["policy", "load"], errors="ignore").rename(
        {curve: "policy", x: "load"})


@figure("ipg00_salad")
def substitutions(ds: xr.Dataset) -> dict[str, Figure]:
    """Mean response time and idle PE-time with work waiting against load: the tool and each
    substitution (means over replications, 90% intervals; crosses: saturated points)."""
    fig = Figure(figsize=(12, 4.4))
    left, right = fig.subplots(1, 2)
    saturated = variants(ds["saturated"])
    curves(left, variants(ds["mean_response_time"]), "mean response time (slices)", log=True,
           saturated=saturated)
    curves(right, variants(ds["idle_with_work_fraction"]), "PE-time idle while a task waited",
           saturated=saturated)
    fig.suptitle("IPG-SaLaD against one-stage substitutions (8x8 mesh, 20-task graphs; reconstructed)")
    fig.tight_layout()
    return {"ipg00_salad": fig}


@figure("ipg00_salad_suggestion")
def suggestion(ds: xr.Dataset) -> dict[str, Figure]:
    """Mean response time against load, Cluster-M and a random matching, the balancer on and off
    (left); Cluster-M's over the random matching's, paired by replication, 90% delta-method
    interval, each balancer at the loads where none of the two mappers' runs saturated (right)."""
    fig = Figure(figsize=(12, 4.4))
    left, right = fig.subplots(1, 2)
    curves(left, labelled(ds["mean_response_time"], SUGGESTION), "mean response time (slices)", log=True,
           saturated=labelled(ds["saturated"], SUGGESTION))
    response = ds["mean_response_time"].squeeze(drop=True)
    unsaturated = ~ds["saturated"].squeeze(drop=True).any(["replication", "mapper"])
    over = ratio(response, "map_random", dim="mapper").sel(mapper="cluster_m", drop=True)
    for balancer, label in (("rate_of_change", "Rate of Change"), ("no_balancing", "no balancer")):
        one = over.sel(balancer=balancer).where(unsaturated.sel(balancer=balancer))
        right.errorbar(one["load"].values, one.values, yerr=np.nan_to_num(one["halfwidth"].values),
                       marker="o", ms=4, capsize=2,
                       label=label if one.notnull().any() else f"{label}: a run saturated at every load")
    right.axhline(1.0, color="grey", lw=0.8)
    right.set_xlabel("System load ρ")
    right.set_ylabel("response time, Cluster-M over random mapping")
    right.legend(fontsize=8)
    fig.suptitle("The mapping as a suggestion: Cluster-M against a random matching (8x8 mesh; reconstructed)")
    fig.tight_layout()
    return {"ipg00_salad_suggestion": fig}


def _response_against(ds: xr.Dataset, curve: str, x: str, name: str, xlabel: str, title: str,
                      label: Callable[[object], str] = str, panels: int = 1) -> dict[str, Figure]:
    """Mean response time against ``x``, one curve per label of ``curve``, saturated points crossed,
    in the first of ``panels`` axes side by side."""
    fig = Figure(figsize=(6 * panels, 4.2))
    ax = fig.subplots(1, panels)[0] if panels > 1 else fig.subplots()
    da = _as_curves(ds["mean_response_time"], curve, x)
    da = da.assign_coords(policy=[label(v) for v in da["policy"].values])
    sat = _as_curves(ds["saturated"], curve, x).assign_coords(policy=da["policy"])
    curves(ax, da, "mean response time (slices)", log=True, saturated=sat)
    ax.set_xlabel(xlabel)
    fig.suptitle(title)
    fig.tight_layout()
    return {name: fig}


@figure("ipg00_salad_mapping_cost")
def mapping_cost(ds: xr.Dataset) -> dict[str, Figure]:
    """Mean response time of Cluster-M and MH against the time charged per mapper operation."""
    figures = _response_against(ds, "mapper", "op_cost", "ipg00_salad_mapping_cost",
                                "mapping time per counted operation (slices)",
                                "Mapping time charged: Cluster-M against MH (load 0.5)")
    figures["ipg00_salad_mapping_cost"].axes[0].set_xscale("symlog", linthresh=1e-5)
    return figures


@figure("ipg00_salad_feedback")
def feedback(ds: xr.Dataset) -> dict[str, Figure]:
    """Mean response time against Rate of Change's sample interval, with and without the scheduler's
    allocation as the balancer's input; beside it, the share of runs saturated (their response
    times are not finite, so the left panel has no point there)."""
    figures = _response_against(ds, "feedback", "interval", "ipg00_salad_feedback",
                                "Rate of Change's sample interval (slices)",
                                "The scheduler's allocation as the balancer's input (load 0.5)",
                                label=lambda value: f"feedback {value}", panels=2)
    fig = figures["ipg00_salad_feedback"]
    left, right = fig.axes
    shares = _as_curves(ds["saturated"], "feedback", "interval").astype(float).mean("replication")
    for value in shares["policy"].values:
        right.plot(shares["load"].values, shares.sel(policy=value).values, marker="o",
                   label=f"feedback {value}")
    right.set_ylabel("share of runs saturated")
    right.set_ylim(-0.05, 1.05)
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("Rate of Change's sample interval (slices)")
    fig.tight_layout()
    return figures


def _job_colours(jobs: np.ndarray) -> ListedColormap:
    """White for an idle PE (-1), then one fixed random colour per job."""
    palette = np.random.default_rng(0).uniform(0.15, 0.95, size=(max(int(jobs.max()) + 1, 1), 3))
    return ListedColormap(np.vstack([[1.0, 1.0, 1.0], palette]))


def _trace_arrays(ds: xr.Dataset) -> tuple[np.ndarray, np.ndarray]:
    """The job each PE ran (PEs x slices, -1 idle) and the tasks migrated in each slice."""
    jobs = ds["trace_job"].squeeze(drop=True).transpose("pe", "trace_slice").values
    return jobs, ds["trace_migrations"].squeeze(drop=True).values


@figure("ipg00_salad_trace")
def trace(ds: xr.Dataset) -> dict[str, Figure | FuncAnimation]:
    """The trace diagram of one run: which job each PE ran in each slice (white: idle), and the
    tasks migrated in each slice; and the same run animated, the PEs laid out as the mesh."""
    jobs, moved = _trace_arrays(ds)
    colours = _job_colours(jobs)
    fig = Figure(figsize=(12, 5))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [1, 4]})
    top.bar(np.arange(moved.size), moved, width=1.0, color="tab:red")
    top.set_ylabel("tasks\nmigrated")
    bottom.imshow(jobs + 1, aspect="auto", interpolation="nearest", cmap=colours, vmin=0, vmax=colours.N - 1)
    bottom.set_xlabel("slice")
    bottom.set_ylabel("PE")
    fig.suptitle("IPG-SaLaD's execution, PEs x slices coloured by job (white: idle)")
    fig.tight_layout()
    return {"ipg00_salad_trace": fig, "ipg00_salad_trace_animation": animation(jobs, moved)}


def animation(jobs: np.ndarray, moved: np.ndarray, rows: int | None = None) -> FuncAnimation:
    """The run slice by slice: the PEs as a ``rows`` x ``P / rows`` grid (default: the most nearly
    square, as the mesh of ``system.rows``), each coloured by the job it runs, until the last busy slice."""
    import matplotlib.pyplot as plt

    pes, slices = jobs.shape
    rows = rows or max(r for r in range(1, int(np.sqrt(pes)) + 1) if pes % r == 0)
    busy = np.flatnonzero((jobs >= 0).any(axis=0))
    last = int(busy[-1]) + 1 if busy.size else 1
    colours = _job_colours(jobs)
    fig, ax = plt.subplots(figsize=(2.6, 2.8), dpi=72)
    image = ax.imshow(jobs[:, 0].reshape(rows, -1) + 1, cmap=colours, vmin=0, vmax=colours.N - 1)
    ax.set_xticks([])
    ax.set_yticks([])

    def frame(t: int) -> list:
        image.set_data(jobs[:, t].reshape(rows, -1) + 1)
        ax.set_title(f"slice {t}, tasks migrated: {int(moved[t])}", fontsize=9)
        return [image]

    return FuncAnimation(fig, frame, frames=range(min(last, slices)), blit=False)
