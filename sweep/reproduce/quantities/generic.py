"""Quantities most claims are made of: a metric's mean, a ratio between two labels, a difference."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import xarray as xr

from sweep.analysis import confidence_interval
from sweep.analysis import ratio as label_ratio
from sweep.analysis.compare import with_interval
from sweep.reproduce.quantities import quantity


def _selected(da: xr.DataArray, select: Mapping[str, Any] | None) -> xr.DataArray:
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
    """``variable``'s replication mean with its 90% Student-t interval, at ``select``."""
    return _selected(confidence_interval(datasets[preset][variable]), select)


@quantity
def ratio(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str,
          variable: str = "mean_slowdown", dim: str = "policy",
          select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``policy``'s ``variable`` over ``baseline``'s (ratio of replication means, delta-method 90%
    interval with common random numbers: :func:`sweep.analysis.ratio`), at ``select``."""
    return _selected(label_ratio(datasets[preset], baseline, dim=dim, var=variable).sel({dim: policy}),
                     select)


@quantity
def difference(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str,
               variable: str, dim: str = "policy", select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``policy``'s ``variable`` minus ``baseline``'s, paired by replication, with its 90% interval."""
    da = datasets[preset][variable]
    paired = da.sel({dim: policy}, drop=True) - da.sel({dim: baseline}, drop=True)
    out = confidence_interval(paired) if "replication" in paired.dims else \
        with_interval(paired, xr.zeros_like(paired), 0.90)
    return _selected(out, select)
