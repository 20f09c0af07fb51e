"""Saturation points: the largest load at which a system is stable (docs/design.md §6).

Two ways to ask "where does each policy saturate?":

:func:`saturation`
    From a sweep already run over a load grid. A replication is stable at a
    load when the point is not ``saturated`` (a host's offered load ≥ 1, or
    the in-system cap passed), its metric is finite and, with ``blowup``, the
    metric is at most ``blowup`` times its value at the smallest load. Its
    saturation load is the largest grid load below which every load is stable;
    the estimate is the mean over replications with a Student-t interval
    (:func:`sweep.analysis.compare.confidence_interval`). The grid's spacing
    bounds the resolution.
:func:`saturation_search`
    Adaptive: for each point of the other axes, bisection on the load, every
    point's bisection advancing together in rounds, one round one batch of
    short sweeps on one pool. A load is unstable when at least half of the
    replications are: flagged ``saturated``, or their response times grow
    with run length (one-sided Mann–Kendall test on batch means of the
    response times, :func:`sweep.stats.trend_pvalue`). The answer is the
    final bracket's midpoint, and the bracket as its interval.

SH00 §3.2 plots loads only up to 0.8 "because otherwise they become
unreadable"; every policy it studies saturates at ρ = 1 for stable
cutoffs, and a SITA split with a fixed, wrong share saturates earlier
(``tests/analysis/test_saturation.py``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import xarray as xr

from sweep.analysis.compare import confidence_interval, job_quantity, with_interval
from sweep.stats import batch_means, growing


def saturation(ds: xr.Dataset, metric: str = "mean_response", dim: str = "load", *,
               blowup: float | None = None, level: float = 0.90,
               replication: str = "replication") -> xr.DataArray:
    """Largest stable ``dim`` value per point of the other dimensions, with a ``level`` CI.

    A replication is stable at a value of ``dim`` where ``metric`` is finite, the run is not
    flagged ``saturated`` and, with ``blowup``, ``metric`` is at most ``blowup`` times its value at
    the smallest one; its estimate is the largest value stable with every smaller one.

    Parameters
    ----------
    ds
        A sweep's Dataset over ``dim`` with its ``saturated`` flags.
    metric
        The scalar variable read (finite, and with ``blowup`` bounded).
    dim
        The swept dimension, the load by default.
    blowup
        Also unstable where ``metric`` exceeds this multiple of its value at the smallest load.
    level
        The confidence level of the interval over replications.
    replication
        The dimension of the replications.

    Returns
    -------
    xarray.DataArray
        Over the remaining dimensions (not ``dim``, not ``replication``), with coordinates
        ``low``/``high``/``halfwidth`` and a boolean coordinate ``censored``: True where every
        grid load was stable, so the estimate is only a lower bound. NaN where even the smallest
        load is unstable in every replication (a replication unstable there is left out of the
        mean).

    Raises
    ------
    ValueError
        No dimension ``dim``, no variable ``metric``, or a ``metric`` with dimensions of its own.
    """
    if dim not in ds.dims:
        raise ValueError(f"the Dataset has no dimension {dim!r}; dims: {list(ds.dims)}")
    if metric not in ds:
        raise ValueError(f"no variable {metric!r} in the Dataset")
    values = ds[metric].astype(np.float64)
    extra = [d for d in values.dims if d not in ds["saturated"].dims]
    if extra:
        raise ValueError(f"{metric} has dimensions {extra} beyond the point's: pick a scalar metric")
    order = np.argsort(ds[dim].values)
    values = values.isel({dim: order})
    stable = np.isfinite(values) & ~ds["saturated"].isel({dim: order}).astype(bool)
    if blowup is not None:
        stable = stable & (values <= blowup * values.isel({dim: 0}))
    prefix = stable.astype(int).cumprod(dim).astype(bool)  # stable at this load and every smaller one
    loads = xr.DataArray(ds[dim].values[order].astype(np.float64), dims=dim)
    per_replication = loads.where(prefix).max(dim)
    out = confidence_interval(per_replication, replication, level) if replication in per_replication.dims \
        else with_interval(per_replication, xr.full_like(per_replication, np.nan), level)
    last = prefix.isel({dim: -1}, drop=True)
    out = out.assign_coords(censored=last.all(replication) if replication in last.dims else last)
    out.name = f"saturation_{dim}"
    out.attrs.update(units="1", long_name=f"largest stable {dim} ({metric})", metric=metric)
    return out


def unstable(ds: xr.Dataset, batches: int = 20, alpha: float = 0.001) -> xr.DataArray:
    """Per replication: ``saturated``, or response times trending up (Mann–Kendall, level ``alpha``).

    Reads the family's per-batch mean response times (``batch_mean_response``,
    recorded by the dispatch family) when the Dataset has them, else per-job
    arrays (``record_jobs=true``) cut into ``batches`` batches. The first batch
    is dropped as warm-up on top of the run's own; a run with fewer batches
    than that (it stopped early: the in-system cap) is not stable.
    """
    if "batch_mean_response" in ds:
        def trend(row: np.ndarray) -> bool:
            return growing(row, alpha, ds.sizes["batch"])

        means, core = ds["batch_mean_response"], "batch"
    else:
        def trend(row: np.ndarray) -> bool:
            row = row[np.isfinite(row)]
            return len(row) < 2 * batches or growing(batch_means(row, batches), alpha, batches)

        means, core = job_quantity(ds, "response"), "job"
    trending = xr.apply_ufunc(np.vectorize(trend, signature="(n)->()"), means, input_core_dims=[[core]])
    return trending | ds["saturated"].astype(bool)


def saturation_search(overrides: Sequence[str], over: Mapping[str, Sequence] | None = None, *,
                      lo: float = 0.05, hi: float = 2.0, tol: float = 0.01, jobs: int = 100_000,
                      replications: int = 3, alpha: float = 0.001, engine: Sequence[str] = (),
                      output: str | Path | None = None) -> xr.DataArray:
    """Bisect the load for each point of ``over`` (config key -> values); return the saturation loads.

    The Python face of ``sweep ... saturation.search=true`` (:mod:`sweep.engine.adaptive`):
    every bisection advances together in rounds on one pool.

    Parameters
    ----------
    overrides
        Everything but the searched load: workload, system, policy options (as ``sweep.run``).
    over
        Config key -> values: the grid axes, one search per point (``{"policy": ["random", "lwl"]}``).
    lo
        A load every point is stable at (checked).
    hi
        A load every point is unstable at (checked).
    tol
        The bracket's width at which a search stops.
    jobs
        Measured jobs of each probe (``stop.jobs``; a fifth more as warm-up).
    replications
        Replications of each probe; half of them unstable make it unstable.
    alpha
        The level of the trend test that calls a probe unstable (``saturation.alpha``).
    engine
        Overrides choosing the pool: ``["engine.backend=serial"]``, ``["engine.address=auto"]``.
    output
        Where the result file goes; a temporary folder, removed afterwards, without it.

    Returns
    -------
    xarray.DataArray
        One dimension per key of ``over`` (its last dotted component): the final bracket's
        midpoint, the bracket as the coordinates ``low``/``high``/``halfwidth``.
    """
    from sweep.engine.runner import run

    grid = [f"grid.{key}=[{','.join(str(v) for v in values)}]" for key, values in (over or {}).items()]
    with tempfile.TemporaryDirectory(prefix="sweep-saturation-") as scratch:
        ds = run([*overrides, *grid, *engine, "saturation.search=true", f"saturation.low={lo}",
                        f"saturation.high={hi}", f"saturation.tol={tol}", f"saturation.alpha={alpha}",
                        f"replications={replications}", f"stop.jobs={jobs}", f"stop.warmup={jobs // 5}",
                        "progress=false", "plots=false", f"output={output or Path(scratch) / 'search.nc'}"])
    dims = [key.rsplit(".", 1)[-1] for key in (over or {})]
    out = ds["saturation_load"].squeeze([d for d in ds["saturation_load"].dims if d not in dims], drop=True)
    low, high = ds["saturation_low"].reindex_like(out), ds["saturation_high"].reindex_like(out)
    out = out.assign_coords(low=low.squeeze(drop=True), high=high.squeeze(drop=True),
                            halfwidth=0.5 * (high - low).squeeze(drop=True))
    out.attrs.update(rounds=int(ds.attrs["saturation_rounds"]))
    return out
