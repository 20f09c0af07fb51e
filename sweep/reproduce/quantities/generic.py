"""Quantities most claims are made of: a metric's mean, a ratio between two labels, a difference,
one quantity over another, a spread across presets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.analysis import confidence_interval
from sweep.analysis import ratio as label_ratio
from sweep.analysis.compare import with_interval, without_interval
from sweep.reproduce.quantities import quantity
from sweep.stats.intervals import single_run_halfwidth


def selected(da: xr.DataArray, select: Mapping[str, Any] | None) -> xr.DataArray:
    """``da`` at the labels of ``select`` (a list keeps the dimension), length-one dims dropped; the
    interval (``low``/``high``/``halfwidth``) kept also where no dimension remains."""
    for dim, value in (select or {}).items():
        da = da.sel({dim: value})
    da = da.squeeze()
    return da.drop_vars([name for name, coord in da.coords.items()
                         if coord.ndim == 0 and name not in ("low", "high", "halfwidth")])


@quantity
def mean(datasets: Mapping[str, xr.Dataset], preset: str, variable: str,
         select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``variable``'s replication mean with its 90% Student-t interval, at ``select``. Where a point
    ran once, the interval is the 90% batch-means half-width its family reports beside the
    variable (``<variable>_hw90``, docs/design.md §5), if it does: one run's value is never judged
    as exact when the run measured its own spread."""
    ds = datasets[preset]
    estimate = confidence_interval(ds[variable])
    own = f"{variable}_hw90"
    if own in ds and "replication" in ds[own].dims:
        estimate = single_run_halfwidth(estimate, ds[variable], ds[own])
    return selected(estimate, select)


@quantity
def ratio(datasets: Mapping[str, xr.Dataset], preset: str, policy: str | Sequence[str],
          baseline: str | Sequence[str], variable: str = "mean_slowdown", dim: str = "policy",
          select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``policy``'s ``variable`` over ``baseline``'s (ratio of replication means, delta-method 90%
    interval with common random numbers: :func:`sweep.analysis.ratio`), at ``select``. A list of
    baselines gives one ratio per baseline, on a ``baseline`` dimension."""
    if not isinstance(baseline, str):
        return xr.concat([ratio(datasets, preset, policy, one, variable, dim, select) for one in baseline],
                         "baseline", coords="all").assign_coords(baseline=list(baseline))
    return selected(label_ratio(datasets[preset], baseline, dim=dim, var=variable).sel({dim: policy}),
                     select)


@quantity
def difference(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str,
               variable: str, dim: str = "policy", select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``policy``'s ``variable`` minus ``baseline``'s, paired by replication, with its 90% interval."""
    da = datasets[preset][variable]
    paired = da.sel({dim: policy}, drop=True) - da.sel({dim: baseline}, drop=True)
    out = confidence_interval(paired) if "replication" in paired.dims else \
        with_interval(paired, xr.zeros_like(paired), 0.90)
    return selected(out, select)


def _relative_halfwidth(da: xr.DataArray) -> xr.DataArray:
    """Half-width over |value|; 0 where the interval is unknown (judged as exact, as :func:`judge`)."""
    if "halfwidth" not in da.coords:
        return xr.zeros_like(without_interval(da))
    return (without_interval(da["halfwidth"]) / abs(without_interval(da))).fillna(0.0)


@quantity
def quotient(datasets: Mapping[str, xr.Dataset], numerator: Mapping[str, Any],
             denominator: Mapping[str, Any]) -> xr.DataArray:
    """One quantity over another, each given as ``{quantity: <name>, <its args>}`` (e.g. a policy's mean
    slowdown on 4 hosts over its mean on 2 hosts, or the analysis over the simulation), aligned on
    their common labels. The two are taken as independent (different presets): the relative
    half-widths add in quadrature (delta method, 90%)."""
    from sweep.reproduce.quantities import QUANTITIES

    top, bottom = (QUANTITIES[spec["quantity"]](datasets, **{k: v for k, v in spec.items()
                                                            if k != "quantity"})
                   for spec in (numerator, denominator))
    value = without_interval(top) / without_interval(bottom)
    relative = np.sqrt(_relative_halfwidth(top) ** 2 + _relative_halfwidth(bottom) ** 2)
    return with_interval(value, abs(value) * relative, 0.90)


@quantity
def spread(datasets: Mapping[str, xr.Dataset], presets: Sequence[str], variable: str,
           select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """Largest minus smallest replication mean of ``variable`` across ``presets`` (e.g. one policy's
    host-1 share on three workloads), at ``select``; no interval (judged on the value)."""
    means = [without_interval(mean(datasets, preset, variable, select)) for preset in presets]
    stacked = xr.concat(xr.align(*means, join="inner"), "preset")
    return stacked.max("preset") - stacked.min("preset")


@quantity
def saturated_fraction(datasets: Mapping[str, xr.Dataset], preset: str,
                       select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """The fraction of runs (points × replications) marked ``saturated``, at ``select``."""
    saturated = selected(datasets[preset]["saturated"], select).astype(np.float64)
    return saturated.mean()
