"""Confidence intervals carried on the estimate (docs/design.md §5, §6).

An estimate carries its interval as the non-dimension coordinates ``low``, ``high`` and
``halfwidth`` on its own dimensions, and its level as the attribute ``level``, so it stays one
DataArray that plots and compares like any other. Shared by the engine's summaries, the analysis
and the reproduction's quantities (:mod:`sweep.analysis.compare` re-exports them).
"""

from __future__ import annotations

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait
import xarray as xr


def t_quantiles(n: xr.DataArray, level: float) -> xr.DataArray:
    """Student's ``t_{n-1, (1+level)/2}`` for each count ``n`` of values (one degree of freedom
    where ``n`` < 2: the caller masks those)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return xr.apply_ufunc(scipy.stats.t.ppf, 0.5 + level / 2.0, (n - 1).clip(min=1))


def with_interval(estimate: xr.DataArray, halfwidth: xr.DataArray, level: float) -> xr.DataArray:
    """``estimate`` with coordinates ``low``, ``high``, ``halfwidth`` and attribute ``level``."""
    halfwidth = halfwidth.broadcast_like(estimate)
    out = estimate.assign_coords(low=estimate - halfwidth, high=estimate + halfwidth,
                                 halfwidth=halfwidth)
    out.attrs = {**estimate.attrs, "level": level}
    return out


def without_interval(da: xr.DataArray) -> xr.DataArray:
    """``da`` without interval coordinates (so arithmetic does not carry stale ones)."""
    return da.drop_vars([c for c in ("low", "high", "halfwidth") if c in da.coords])


def confidence_interval(da: xr.DataArray, dim: str = "replication", level: float = 0.90) -> xr.DataArray:
    """Mean over ``dim`` with its Student-t ``level`` confidence interval.

    ``mean ± t_{n-1,(1+level)/2} · s / sqrt(n)`` over the ``n`` non-NaN values
    along ``dim`` (independent replications, docs/design.md §6). NaN half-width when
    fewer than two values; zero for a deterministic model (``model=analytic``).

    Parameters
    ----------
    da
        Values with a ``dim`` dimension, e.g. ``ds["mean_response"]``.
    dim
        The dimension of the independent values.
    level
        The confidence level of the interval.

    Returns
    -------
    xarray.DataArray
        The means, without ``dim``, with the coordinates ``low``, ``high`` and ``halfwidth``.

    Raises
    ------
    ValueError
        ``da`` has no dimension ``dim``.
    """
    if dim not in da.dims:
        raise ValueError(f"{da.name or 'the array'} has no dimension {dim!r}; dims: {da.dims}")
    da = without_interval(da).astype(np.float64)
    n = da.notnull().sum(dim)
    mean = da.mean(dim)
    sd = da.std(dim, ddof=1) if da.sizes[dim] > 1 else xr.full_like(mean, np.nan)
    half = xr.where(n >= 2, t_quantiles(n, level) * sd / np.sqrt(n.clip(min=1)), np.nan)
    mean.attrs = dict(da.attrs)
    return with_interval(mean, half, level)


def single_run_halfwidth(estimate: xr.DataArray, values: xr.DataArray, halfwidths: xr.DataArray,
                         dim: str = "replication") -> xr.DataArray:
    """``estimate`` with, where one value of ``values`` ran along ``dim``, that run's own
    half-width (``halfwidths``: e.g. its batch-means ``<variable>_hw90``) in place of the
    replications' Student-t one, which one value cannot give."""
    ran = values.notnull()
    once = ran.sum(dim) == 1
    half = xr.where(once, halfwidths.where(ran).max(dim), estimate["halfwidth"])
    return with_interval(without_interval(estimate), half, estimate.attrs["level"])
