"""Reading a claim's numbers off a reduced run: ratios between policies at one load."""

from __future__ import annotations

import numpy as np
import xarray as xr

from sweep.analysis import confidence_interval, ratio


def rel(ds: xr.Dataset, policy: str, baseline: str, var: str = "mean_slowdown") -> xr.DataArray:
    """``policy``'s ``var`` over ``baseline``'s on every load (ratio of replication means, 90% CI)."""
    return ratio(ds, baseline, var=var).sel(policy=policy).squeeze(drop=True)


def mean(ds: xr.Dataset, var: str = "mean_slowdown") -> xr.DataArray:
    """Replication mean of ``var`` with its 90% CI, point dimensions of length one dropped."""
    return confidence_interval(ds[var]).squeeze(drop=True)


def at(da: xr.DataArray, load: float) -> float:
    return float(da.sel(load=load))


def values(da: xr.DataArray, loads) -> np.ndarray:
    return da.sel(load=list(loads)).values
