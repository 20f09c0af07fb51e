"""Confidence intervals, ratios to a baseline policy, means by job-size class (docs/design.md §1, §5).

Every function takes a sweep Dataset (or one of its variables) and returns a
DataArray labeled by the dimensions that remain. An estimate carries its
confidence interval as the non-dimension coordinates ``low``, ``high`` and
``halfwidth`` on its own dimensions (``est.low``, ``est.high``), so it stays one
DataArray that plots and compares like any other.

SH00 (Schroeder & Harchol-Balter) compares policies by ratios of mean
slowdown ("Random's slowdown exceeds SITA-E's by a factor of 10", §3.2) and
judges fairness by the mean slowdown of short against long jobs (§4.1): these
are :func:`ratio` and :func:`size_class_means`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import xarray as xr

from sweep.stats.intervals import confidence_interval, t_quantiles, with_interval, without_interval

__all__ = ["JOB_QUANTITIES", "confidence_interval", "job_quantity", "ratio", "size_class_means",
           "with_interval", "without_interval"]

#: Summary the per-job quantities :func:`size_class_means` can average.
JOB_QUANTITIES = ("slowdown", "response", "wait")


def ratio(ds: xr.Dataset | xr.DataArray, baseline: str, dim: str = "policy", var: str = "mean_slowdown",
          level: float = 0.90, method: str = "delta", replication: str = "replication") -> xr.DataArray:
    """Each label's ``var`` over the ``baseline`` label's, with a ``level`` confidence interval.

    The estimate is the ratio of replication means ``R = x̄ / ȳ`` (x: the label,
    y: the baseline, paired by replication). Interval:

    - ``method="delta"``: ``R ± t · sqrt(Var(x − R y) / n) / ȳ``, the delta method
      for a ratio of means (Fieller's interval to first order); the covariance of
      x and y enters, and common random numbers (docs/design.md §4) make it strongly
      positive, so the interval is far tighter than the two means' own;
    - ``method="paired"``: the Student-t interval of the per-replication ratios
      ``x_r / y_r`` (centred on their mean, not on ``R``).

    SH00 §3.2 and §4.2 state their comparisons as such ratios.

    Parameters
    ----------
    ds
        A sweep's Dataset, or one variable of it (``var`` is then ignored).
    baseline
        The label of ``dim`` every other label is divided by (``"sita_e"``).
    dim
        The dimension whose labels are compared.
    var
        The variable compared, when ``ds`` is a Dataset.
    level
        The confidence level of the interval.
    method
        ``"delta"`` or ``"paired"`` (above).
    replication
        The dimension of the paired replications.

    Returns
    -------
    xarray.DataArray
        The ratios, without ``replication``, with the coordinates ``low``, ``high`` and ``halfwidth``.

    Raises
    ------
    ValueError
        An unknown ``method``, no dimension ``dim``, or a ``baseline`` that is not one of its labels.
    """
    if method not in ("delta", "paired"):
        raise ValueError(f"method must be 'delta' or 'paired', got {method!r}")
    da = ds if isinstance(ds, xr.DataArray) else ds[var]
    if dim not in da.dims:
        raise ValueError(f"{da.name} has no dimension {dim!r}; dims: {da.dims}")
    if baseline not in da[dim].values:
        raise ValueError(f"baseline {baseline!r} not among {dim} {list(da[dim].values)}")
    da = without_interval(da).astype(np.float64)
    base = da.sel({dim: baseline}, drop=True)
    if method == "paired":
        out = confidence_interval(da / base, replication, level)
    else:
        paired = da.notnull() & base.notnull()  # replications run at both labels (rounds may differ)
        da, base = da.where(paired), base.where(paired)
        x_mean, y_mean = da.mean(replication), base.mean(replication)
        estimate = x_mean / y_mean
        n = paired.sum(replication)
        residual = da - estimate * base
        several = da.sizes[replication] > 1
        sd = residual.std(replication, ddof=1) if several else xr.full_like(estimate, np.nan)
        half = xr.where(n >= 2, t_quantiles(n, level) * sd / np.sqrt(n.clip(min=1)), np.nan) / np.abs(y_mean)
        out = with_interval(estimate, half, level)
    out.name = f"{da.name}_ratio"
    out.attrs.update(units="1", long_name=f"{da.attrs.get('long_name', da.name)}, over {baseline}'s",
                     baseline=baseline, method=method)
    return out


def job_quantity(ds: xr.Dataset, quantity: str = "slowdown") -> xr.DataArray:
    """A per-job quantity from the per-job arrays (``record_jobs=true``), NaN past each run's end.

    ``slowdown = (end − arrival) / size`` (SH00 §1.2: response time over
    service requirement), ``response = end − arrival``, ``wait = start − arrival``.
    """
    if quantity not in JOB_QUANTITIES:
        raise ValueError(f"quantity must be one of {', '.join(JOB_QUANTITIES)}, got {quantity!r}")
    needed = {"slowdown": ("arrival", "end", "size"), "response": ("arrival", "end"),
              "wait": ("arrival", "start")}[quantity]
    missing = [v for v in needed if v not in ds]
    if missing:
        raise ValueError(f"per-job arrays {missing} missing: run with record_jobs=true")
    if quantity == "wait":
        out = ds["start"] - ds["arrival"]
    elif quantity == "response":
        out = ds["end"] - ds["arrival"]
    else:
        out = (ds["end"] - ds["arrival"]) / ds["size"]
    out.name = quantity
    return out


def size_class_means(ds: xr.Dataset, edges: Sequence[float], quantity: str = "slowdown") -> xr.DataArray:
    """Mean of a per-job quantity over the jobs in each size class, per replication.

    Classes are ``(edges[k], edges[k+1]]`` in the units of ``size`` (seconds),
    with ``-inf`` and ``+inf`` added at the ends: ``edges=[c]`` splits the jobs
    into short (``size <= c``) and long. Returns the grid's dimensions plus
    ``replication`` and ``size_class`` (labeled by the upper edge; NaN for an
    empty class), ready for :func:`confidence_interval`. SH00 §4.1's
    fairness criterion: under SITA-U-fair the short and the long jobs (split at
    its cutoff) have the same mean slowdown.
    """
    values = job_quantity(ds, quantity)
    bounds = np.concatenate([[-np.inf], np.asarray(edges, dtype=np.float64), [np.inf]])
    if np.any(np.diff(bounds) <= 0):
        raise ValueError(f"edges must be increasing, got {list(edges)}")
    means = []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        inside = (ds["size"] > lo) & (ds["size"] <= hi)
        means.append(values.where(inside).mean("job"))
    out = xr.concat(means, "size_class").assign_coords(size_class=bounds[1:])
    out.name = f"mean_{quantity}"
    out.attrs.update(units="1" if quantity == "slowdown" else "s",
                     long_name=f"mean {quantity} of the jobs in each size class (upper edge, s)")
    return out
