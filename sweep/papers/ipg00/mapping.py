"""CSSE00 Table 1 as a figure, and the Gantt (trace) diagram of one recorded schedule.

Campos, Silva, Scherson & Eshaghian (2000), §2.1, Table 1: Cluster-M against
MH on random task graphs of M = 100 … 1000 tasks and one random 100-processor
system. :func:`table1` draws the measured S_m and T_c (mean over graphs, 90%
confidence intervals) of every mapper of the preset against M, with the
paper's printed values (:data:`PAPER`) as hollow markers beside them; T_c on a
log scale (the paper's milliseconds on a SUN UltraSPARC I, converted to
seconds: compare slopes, not heights), and the deterministic operation
counts of the mapping beside it. :func:`gantt` draws the processors × time
diagram of one schedule of a ``record_jobs=true`` run (CSSE00 §4: what the
tool showed its users). :func:`growth_exponent` fits how T_c grows with M
(CSSE00 §2.1: "the running time of MH grows significantly ... Cluster-M
remains relatively stable").
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib.figure import Figure

from sweep.analysis.compare import confidence_interval
from sweep.analysis.figures import figure

#: CSSE00 Table 1: M -> (T_s, Cluster-M T_m, S_m, T_cm ms, T_c ms, MH T_m, S_m, T_c ms).
PAPER: dict[int, tuple[float, ...]] = {
    100: (286, 88.80, 3.22, 831.4, 4.5, 95.80, 2.99, 6064.9),
    200: (630, 133.20, 4.73, 1056.6, 4.5, 231.82, 2.72, 24380.1),
    300: (855, 345.55, 2.47, 1440.6, 4.7, 240.25, 3.56, 55305.5),
    400: (1162, 478.40, 2.43, 1915.9, 4.5, 496.30, 2.34, 98888.8),
    500: (1514, 550.80, 2.75, 2547.9, 4.5, 458.07, 3.31, 153099.0),
    600: (1793, 358.20, 5.01, 3436.1, 4.9, 599.07, 2.99, 222381.1),
    700: (2075, 690.85, 3.00, 4334.0, 4.7, 685.57, 3.03, 299372.2),
    800: (2376, 474.00, 5.01, 5621.3, 4.8, 958.87, 2.48, 391142.3),
    900: (2653, 1113.80, 2.38, 6656.3, 4.7, 1120.17, 2.37, 495050.7),
    1000: (2966, 850.15, 3.49, 8074.3, 4.7, 1087.08, 2.73, 613118.2),
}
LABELS = {"cluster_m": "Cluster-M", "mh": "MH", "heft": "HEFT", "cpop": "CPOP", "etf": "ETF",
          "map_random": "random"}
MARKERS = "os^vD<>"


def paper_column(name: str) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The paper's M and, for ``cluster_m`` and ``mh``, ``speedup`` and ``mapping_seconds``."""
    sizes = np.array(sorted(PAPER))
    rows = np.array([PAPER[m] for m in sizes])
    if name == "cluster_m":
        return sizes, {"speedup": rows[:, 2], "mapping_seconds": rows[:, 4] / 1e3}
    if name == "mh":
        return sizes, {"speedup": rows[:, 6], "mapping_seconds": rows[:, 7] / 1e3}
    return sizes, {}


def growth_exponent(da: xr.DataArray, dim: str = "size", center: str = "median",
                    relative_to: str | None = None, label_dim: str = "policy", level: float = 0.90,
                    resamples: int = 2000, seed: int = 0) -> xr.DataArray:
    """The exponent b of ``da ∝ dim^b``, fitted by least squares to log(``center`` over replications)
    against log(``dim``), with a ``level`` percentile-bootstrap interval (coords ``low``/``high``).

    CSSE00 §2.1 compares how the mapping time T_c of Cluster-M and MH grows with the number of
    tasks M (Table 1: T_c from 6 s to 613 s for MH, b ≈ 2.0; flat at 4.5–4.9 ms for Cluster-M).
    ``center`` is ``median`` for wall-clock times (a run preempted on a shared machine takes ten
    times as long: it moves a mean, not a median) or ``mean``. The bootstrap resamples the
    replications (independent task graphs) of each ``dim`` label anew, ``resamples`` times from
    ``seed``, with the same draws for every label of ``label_dim``, so that with ``relative_to``
    each label's exponent over that label's (e.g. b(Cluster-M) / b(MH)) keeps the pairing of the
    common task graphs. Other dimensions stay; every value of ``da`` must be positive.
    """
    if center not in ("median", "mean"):
        raise ValueError(f"center must be 'median' or 'mean', got {center!r}")
    da = da.drop_vars([c for c in ("low", "high", "halfwidth") if c in da.coords]).astype(np.float64)
    rest = [d for d in da.dims if d not in (dim, "replication")]
    values = da.transpose(*rest, dim, "replication").values
    if not np.all(values > 0):
        raise ValueError(f"{da.name}: a growth exponent needs positive values")
    sizes, reps = values.shape[-2:]
    x = np.log(da[dim].values.astype(np.float64))
    x = x - x.mean()
    summary = np.median if center == "median" else np.mean

    def slope(sample: np.ndarray) -> np.ndarray:  # (..., size, replication) -> (...)
        y = np.log(summary(sample, axis=-1))
        return (y * x).sum(-1) / (x * x).sum()

    draws = np.random.default_rng(seed).integers(0, reps, size=(resamples, sizes, reps))
    resampled = np.take_along_axis(values[..., None, :, :], draws.reshape((1,) * len(rest) + draws.shape), -1)
    boot = slope(resampled)  # (..., resample)
    point = slope(values)
    coords = {d: da[d] for d in rest}
    estimate = xr.DataArray(point, dims=rest, coords=coords, name=f"{da.name}_growth_exponent")
    samples = xr.DataArray(boot, dims=[*rest, "resample"], coords=coords)
    if relative_to is not None:
        estimate = estimate / estimate.sel({label_dim: relative_to})
        samples = samples / samples.sel({label_dim: relative_to})
    tail = (1 - level) / 2
    return estimate.assign_coords(low=samples.quantile(tail, "resample", skipna=False).drop_vars("quantile"),
                                  high=samples.quantile(1 - tail, "resample",
                                                        skipna=False).drop_vars("quantile"))


def _along(da: xr.DataArray, dim: str) -> xr.DataArray:
    """``da`` over (policy, ``dim``, replication): other length-one dimensions dropped."""
    for other in [d for d in da.dims if d not in ("policy", dim, "replication")]:
        if da.sizes[other] != 1:
            raise ValueError(f"cannot draw {da.name} with {da.sizes[other]} values of {other!r}: select one")
        da = da.isel({other: 0}, drop=True)
    return da


def _panel(ax, ds: xr.Dataset, variable: str, ylabel: str, log: bool, dim: str = "size") -> None:
    """``variable`` against ``dim`` (tasks M, or processors N), one line per mapper; against M, Table
    1's printed values beside."""
    est = confidence_interval(_along(ds[variable], dim))
    xs = est[dim].values
    for k, policy in enumerate(est["policy"].values):
        name = str(policy)
        line = est.sel(policy=policy)
        ax.errorbar(xs, line.values, yerr=np.nan_to_num(line["halfwidth"].values), capsize=2,
                    marker=MARKERS[k % len(MARKERS)], ms=4, label=LABELS.get(name, name))
        paper_sizes, values = paper_column(name)
        if dim == "size" and variable in values:
            ax.plot(paper_sizes, values[variable], ls="--", marker=MARKERS[k % len(MARKERS)], mfc="none",
                    color=ax.lines[-1].get_color(), label=f"{LABELS.get(name, name)} (CSSE00 Table 1)")
    ax.set_xlabel({"size": "tasks M", "processors": "processors N"}.get(dim, dim))
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.grid(alpha=0.3)


@figure("ipg00_table1")
def table1(ds: xr.Dataset) -> dict[str, Figure]:
    """S_m, T_c (wall clock, log) and mapping operations (log) against M, paper's values beside."""
    fig = Figure(figsize=(15, 4.5))
    axes = fig.subplots(1, 3)
    _panel(axes[0], ds, "speedup", "speedup S_m = T_s / T_m", log=False)
    _panel(axes[1], ds, "mapping_seconds", "mapping time T_c (s)", log=True)
    _panel(axes[2], ds, "mapping_operations", "mapping operations", log=True)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=7, fontsize=8, bbox_to_anchor=(0.5, -0.06))
    fig.suptitle("CSSE00 Table 1: random DAGs on a random 100-processor system (speeds, bandwidths 1-5)")
    return {"ipg00_table1": fig}


def gantt(ds: xr.Dataset, **select) -> Figure:
    """The trace diagram (processors × time) of one recorded schedule; ``select`` picks the point
    (e.g. ``policy="heft", replication=0``); every other dimension must have length one."""
    point = ds.sel(select) if select else ds
    point = point.squeeze(drop=True)
    if "task_processor" not in point:
        raise ValueError("the Dataset holds no schedule: run with record_jobs=true")
    proc, start, finish = (point[name].values for name in ("task_processor", "task_start", "task_finish"))
    if proc.ndim != 1:
        raise ValueError(f"select one schedule: task_processor has dimensions {point['task_processor'].dims}")
    keep = ~np.isnan(proc)
    proc, start, finish = proc[keep].astype(int), start[keep], finish[keep]
    fig = Figure(figsize=(9, 0.3 * (proc.max() + 1) + 1.5))
    ax = fig.subplots()
    colors = [f"C{t % 10}" for t in range(len(proc))]
    ax.barh(proc, finish - start, left=start, color=colors, edgecolor="black", height=0.8)
    for t in range(len(proc)):
        if finish[t] - start[t] > 0:
            ax.text((start[t] + finish[t]) / 2, proc[t], str(t + 1), ha="center", va="center", fontsize=7)
    ax.set_xlabel("time")
    ax.set_ylabel("processor")
    ax.set_yticks(np.unique(proc))
    ax.invert_yaxis()
    return fig


@figure("ipg00_mapping_n")
def mapping_n(ds: xr.Dataset) -> dict[str, Figure]:
    """Mapping operations and T_c against the system's size N (log-log), M fixed: the growth in N
    that CSSE00 §2.1's O(M²) against MH's O(M²N³) is about."""
    fig = Figure(figsize=(10, 4.2))
    axes = fig.subplots(1, 2)
    _panel(axes[0], ds, "mapping_operations", "mapping operations", log=True, dim="processors")
    _panel(axes[1], ds, "mapping_seconds", "mapping time T_c (s)", log=True, dim="processors")
    processors = ds["processors"].values
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xticks(processors, [str(n) for n in processors])
        ax.minorticks_off()
    axes[0].legend(fontsize=8)
    fig.suptitle("CSSE00 §2.1: mapping cost against the number of processors N (random systems, M fixed)")
    return {"ipg00_mapping_n": fig}
