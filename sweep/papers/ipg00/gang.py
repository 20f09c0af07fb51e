"""CSSE00 Tables 5–7 and Fig 6 drawn from the gang family's presets (``conf/experiment/ipg00_table*``).

Campos, Silva, Scherson & Eshaghian (2000), §3.3: jobs completed and total
idle time of Gang and Concurrent Gang at 5,000 … 40,000 s of simulated time on
three workloads. Each preset's figure sets the measured means (90% Student t
intervals over replications) beside the paper's printed values (:data:`PAPER`,
dashed); the trace diagram (PEs × ticks, coloured by job, idle cells black,
slice boundaries marked) of replication 0 of each policy is the paper's
Fig 6 drawn from a real run.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib.figure import Figure

from sweep.analysis.compare import confidence_interval
from sweep.analysis.figures import figure

TIMES = (5000, 10000, 20000, 30000, 40000)
#: CSSE00 Tables 5–7: (jobs completed, total idle time %) at :data:`TIMES`, per policy.
PAPER = {
    "ipg00_table5": {"title": "Table 5: I/O-intensive workload",
                     "gang": ((2, 6, 14, 23, 28), (72, 68, 67, 66, 66)),
                     "concurrent_gang": ((5, 10, 19, 34, 45), (43, 26, 14, 10, 7))},
    "ipg00_table6": {"title": "Table 6: computation-intensive workload",
                     "gang": ((5, 11, 23, 35, 44), (24, 17, 12, 11, 9)),
                     "concurrent_gang": ((8, 12, 25, 37, 48), (10, 6, 4, 3, 2))},
    "ipg00_table7": {"title": "Table 7: synchronization-intensive workload",
                     "gang": ((4, 14, 24, 41, 47), (46, 43, 40, 39, 39)),
                     "concurrent_gang": ((3, 16, 31, 54, 75), (10, 6, 4, 3, 2))},
}
#: The preset of each table's workload.
PRESET_OF_WORKLOAD = {"gang_io": "ipg00_table5", "gang_compute": "ipg00_table6", "gang_sync": "ipg00_table7"}
LABELS = {"gang": "Gang", "concurrent_gang": "Concurrent Gang"}
COLORS = {"gang": "tab:blue", "concurrent_gang": "tab:red"}


def _series(ds: xr.Dataset, name: str, policy: str) -> tuple[np.ndarray, np.ndarray]:
    da = ds[name].sel(policy=policy).squeeze(drop=True)
    if "replication" in da.dims and da.sizes["replication"] > 1:
        est = confidence_interval(da, "replication")
        return est.values, np.nan_to_num(est["halfwidth"].values)
    if "replication" in da.dims:
        da = da.isel(replication=0)
    return da.values, np.zeros(da.shape)


def table_figure(ds: xr.Dataset, experiment: str) -> Figure:
    """Jobs completed and idle % against simulated time, both policies, the paper's dashed."""
    import matplotlib.pyplot as plt

    paper = PAPER[experiment]
    fig, (jobs_ax, idle_ax) = plt.subplots(1, 2, figsize=(10.4, 4.0))
    fig.suptitle(f"CSSE00 {paper['title']}: measured (solid, 90% CI) and paper (dashed)", fontsize=10)
    time = ds["time"].values
    for policy in ds["policy"].values:
        policy = str(policy)
        color = COLORS.get(policy)
        mean, half = _series(ds, "jobs_completed", policy)
        jobs_ax.errorbar(time, mean, yerr=half, color=color, marker="o", ms=4, capsize=2,
                         label=LABELS.get(policy, policy))
        mean, half = _series(ds, "idle_fraction", policy)
        idle_ax.errorbar(time, 100 * mean, yerr=100 * half, color=color, marker="o", ms=4,
                         capsize=2, label=f"{LABELS.get(policy, policy)}: total idle time")
        ratio, _ = _series(ds, "idle_ratio", policy)
        idle_ax.plot(time, 100 * ratio, color=color, ls=":", marker=".",
                     label=f"{LABELS.get(policy, policy)}: idle ratio (periods only)")
        if policy in paper:
            jobs_ax.plot(TIMES, paper[policy][0], color=color, ls="--", marker="s", mfc="none",
                         label=f"{LABELS.get(policy, policy)} (paper)")
            idle_ax.plot(TIMES, paper[policy][1], color=color, ls="--", marker="s", mfc="none",
                         label=f"{LABELS.get(policy, policy)} (paper)")
    jobs_ax.set_ylabel("jobs completed")
    idle_ax.set_ylabel("idle time (% of PE-time)")
    for ax in (jobs_ax, idle_ax):
        ax.set_xlabel("simulated time (s)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def trace_figure(ds: xr.Dataset, experiment: str) -> Figure:
    """The trace diagram (Fig 6) of replication 0 of each policy: PEs × ticks, idle cells black."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    policies = [str(p) for p in ds["policy"].values]
    fig, axes = plt.subplots(len(policies), 1, figsize=(10.4, 3.2 * len(policies)), squeeze=False)
    fig.suptitle(f"Trace diagrams (CSSE00 Fig 6) from the {experiment} run: job per PE and tick, "
                 "idle black, slices dotted", fontsize=10)
    ticks = ds["trace_tick"].values
    slices = ds["trace_slice"].values
    palette = plt.get_cmap("tab20")(np.arange(20))
    for ax, policy in zip(axes[:, 0], policies, strict=True):
        trace = ds["trace_job"].sel(policy=policy).squeeze(drop=True)
        if "replication" in trace.dims:
            trace = trace.isel(replication=0)
        job = trace.transpose("pe", "trace_tick").values
        shown = np.where(job >= 0, job % 20 + 1, 0)
        cmap = ListedColormap(np.vstack([[0, 0, 0, 1], palette]))
        step = ticks[1] - ticks[0] if ticks.size > 1 else 1.0
        ax.imshow(shown, aspect="auto", interpolation="nearest", cmap=cmap, vmin=0, vmax=20,
                  extent=(ticks[0], ticks[-1] + step, job.shape[0] - 0.5, -0.5))
        for edge in slices:
            ax.axvline(edge, color="white", lw=0.4, ls=":")
        ax.set_title(f"{LABELS.get(policy, policy)}: idle {100 * np.mean(job < 0):.0f}% of the cells",
                     fontsize=9)
        ax.set_ylabel("PE")
        ax.set_xlabel("simulated time (s)")
    fig.tight_layout()
    return fig


@figure("ipg00_table5", "ipg00_table6", "ipg00_table7")
def draw(ds: xr.Dataset) -> dict[str, Figure]:
    """The preset's table figure, and its trace diagrams when the run kept them."""
    experiment = _experiment(ds)
    figures = {experiment: table_figure(ds, experiment)}
    if "trace_job" in ds:
        figures[f"{experiment}_trace"] = trace_figure(ds, experiment)
    return figures


@figure("ipg00_packing")
def packing(ds: xr.Dataset) -> dict[str, Figure]:
    """Jobs completed against simulated time with first fit (solid) and best fit (dashed), per
    workload and policy (CSSE00 §3.3.3; Silva & Scherson 1999: best fit within 3% of first fit)."""
    import matplotlib.pyplot as plt

    workloads = [str(w) for w in ds["workload"].values]
    fig, axes = plt.subplots(1, len(workloads), figsize=(3.6 * len(workloads), 3.6), squeeze=False)
    fig.suptitle("Packing the trace diagram: first fit (solid) and best fit (dashed), 90% CI", fontsize=10)
    for ax, workload in zip(axes[0], workloads, strict=True):
        for policy in [str(p) for p in ds["policy"].values]:
            for packing, style in (("first_fit", "-"), ("best_fit", "--")):
                mean, half = _series(ds.sel(workload=[workload], packing=[packing]), "jobs_completed", policy)
                label = f"{LABELS.get(policy, policy)}, {packing.replace('_', ' ')}"
                ax.errorbar(ds["time"].values, mean, yerr=half, color=COLORS.get(policy), ls=style,
                            marker="o", ms=3, capsize=2, label=label)
        ax.set_title(PAPER.get(PRESET_OF_WORKLOAD.get(workload, ""), {}).get("title", workload), fontsize=9)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("jobs completed")
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return {"ipg00_packing": fig}


def _experiment(ds: xr.Dataset) -> str:
    """Which table: from the workload of the Dataset."""
    return PRESET_OF_WORKLOAD.get(str(ds["workload"].values[0]), "ipg00_table6")
