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
    Adaptive: for each point of the other axes, bisection on the load, one
    short serial ``sweep.run`` per step. A load is unstable when at least half
    of the replications are: flagged ``saturated``, or their response times
    grow with run length (one-sided Mann–Kendall test on batch means of the
    per-job response times, :func:`sweep.stats.trend_pvalue`). The answer is
    the final bracket's midpoint, and the bracket as its interval.

SH00 §3.2 plots loads only up to 0.8 "because otherwise they become
unreadable"; every policy it studies saturates at ρ = 1 for stable
cutoffs, and a SITA split with a fixed, wrong share saturates earlier
(``tests/analysis/test_saturation.py``).
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import xarray as xr

from sweep.analysis.compare import confidence_interval, job_quantity, with_interval
from sweep.stats import batch_means, trend_pvalue


def saturation(ds: xr.Dataset, metric: str = "mean_response", dim: str = "load", *,
               blowup: float | None = None, level: float = 0.90,
               replication: str = "replication") -> xr.DataArray:
    """Largest stable ``dim`` value per point of the other dimensions, with a ``level`` CI.

    Returns a DataArray over the remaining dimensions (not ``dim``, not
    ``replication``) with coordinates ``low``/``high``/``halfwidth`` and a
    boolean coordinate ``censored``: True where every grid load was stable, so
    the estimate is only a lower bound. NaN where even the smallest load is
    unstable in every replication (a replication unstable there is left out of
    the mean).
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

    Needs per-job arrays (``record_jobs=true``); the first batch is dropped as
    warm-up on top of the run's own.
    """
    response = job_quantity(ds, "response")

    def trend(row: np.ndarray) -> bool:
        row = row[np.isfinite(row)]
        if len(row) < 2 * batches:
            return True  # the run stopped early (the in-system cap): not stable
        return trend_pvalue(batch_means(row, batches)[1:]) < alpha

    growing = xr.apply_ufunc(np.vectorize(trend, signature="(n)->()"), response,
                             input_core_dims=[["job"]])
    return growing | ds["saturated"].astype(bool)


def saturation_search(overrides: Sequence[str], over: Mapping[str, Sequence] | None = None, *,
                      lo: float = 0.05, hi: float = 2.0, tol: float = 0.01, jobs: int = 100_000,
                      replications: int = 3, batches: int = 20, alpha: float = 0.001) -> xr.DataArray:
    """Bisect the load for each point of ``over`` (config key -> values); return the saturation loads.

    ``overrides`` fix everything else (workload, system, policy options);
    each step runs ``sweep.run`` with the serial backend at one load,
    ``stop.jobs=jobs`` (plus a fifth as warm-up) and ``replications``, until the
    bracket is narrower than ``tol``. ``lo`` must be stable and ``hi`` unstable
    (checked). Returns a DataArray with one dimension per key of ``over``
    (its last dotted component), the bracket as ``low``/``high``.
    """
    import sweep

    scratch = Path(tempfile.mkdtemp(prefix="sweep-saturation-")) / "step.nc"
    over = dict(over or {})
    base = [*overrides, "engine.backend=serial", "progress=false", "plots=false", "record_jobs=true",
            f"replications={replications}", f"stop.jobs={jobs}", f"stop.warmup={jobs // 5}"]

    def is_unstable(point: list[str], load: float) -> bool:
        ds = sweep.run([*base, *point, f"load={load!r}", f"output={scratch}"])
        return bool(unstable(ds, batches, alpha).mean() >= 0.5)

    keys = list(over)
    shape = tuple(len(over[k]) for k in keys)
    estimate, low, high = np.empty(shape), np.empty(shape), np.empty(shape)
    for index in itertools.product(*(range(n) for n in shape)):
        point = [f"{k}={over[k][i]}" for k, i in zip(keys, index, strict=True)]
        a, b = lo, hi
        if is_unstable(point, a) or not is_unstable(point, b):
            raise ValueError(f"load {lo} must be stable and {hi} unstable at {point or 'the point'}")
        while b - a > tol:
            mid = round(0.5 * (a + b), 10)
            a, b = (a, mid) if is_unstable(point, mid) else (mid, b)
        estimate[index], low[index], high[index] = 0.5 * (a + b), a, b
    scratch.unlink(missing_ok=True)
    scratch.parent.rmdir()
    dims = [k.rsplit(".", 1)[-1] for k in keys]
    coords = {d: list(over[k]) for d, k in zip(dims, keys, strict=True)}
    out = xr.DataArray(estimate, dims=dims, coords=coords, name="saturation_load",
                       attrs={"units": "1", "long_name": "largest stable load (bisection bracket)"})
    return out.assign_coords(low=(dims, low), high=(dims, high), halfwidth=(dims, 0.5 * (high - low)))
