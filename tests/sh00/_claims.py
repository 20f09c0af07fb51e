"""Reading a claim's numbers off a reduced run, and asserting the paper's claim against its CI.

SH00 prints its factors to one significant figure ("a factor of 10", "3–4",
"4–10", "25 times"), so a claimed range ``[lo, hi]`` is read as the values that
round into it at one significant figure: 3–4 is [2.5, 4.5), 10 is [9.5, 15),
4–10 is [3.5, 15), 25 is [20, 30). "Similar" is a ratio whose value and
inverse both round to 1: [0.95, 1/0.95].
:func:`claim_holds` asks whether the run's 90% confidence interval meets that
range at every load, so a claim fails only when the measurement is clearly
outside it; where it does, the test is a strict expected failure stating the
measured value and the cause.
"""

from __future__ import annotations

import math

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


def _unit(x: float, figures: int) -> float:
    return 10.0 ** (math.floor(math.log10(abs(x))) - figures + 1)


def printed_range(lo: float, hi: float, figures: int = 1) -> tuple[float, float]:
    """The values that round, to ``figures`` significant figures, into the printed ``[lo, hi]``.

    Below a power of ten the unit is ten times smaller (0.96 rounds to 1, 0.9 does not).
    """
    below = _unit(lo, figures) / (10.0 if _unit(lo, figures) == lo else 1.0)
    return lo - below / 2, hi + _unit(hi, figures) / 2


#: A ratio "similar" to 1: it and its inverse both round to 1 at one significant figure.
SIMILAR = (0.95, 1 / 0.95)


def claim_holds(da: xr.DataArray, lo: float, hi: float = math.inf, loads=None,
                figures: int = 1) -> bool:
    """Whether the 90% CI of ``da`` (with ``low``/``high``) meets the printed range at every load."""
    if loads is not None:
        da = da.sel(load=list(loads))
    low, high = printed_range(lo, hi if math.isfinite(hi) else lo, figures)
    if not math.isfinite(hi):
        high = math.inf
    return within(da, low, high)


def within(da: xr.DataArray, low: float, high: float) -> bool:
    """Whether the 90% CI of ``da`` meets ``[low, high)`` at every load (the value itself when the
    CI is unknown: a single replication, or the analysis)."""
    lower = np.where(np.isnan(da["low"].values), da.values, da["low"].values)
    upper = np.where(np.isnan(da["high"].values), da.values, da["high"].values)
    return bool(np.all((upper >= low) & (lower < high)))


def shown(da: xr.DataArray, loads=None) -> str:
    """The measured values and their CIs, for assertion messages."""
    if loads is not None:
        da = da.sel(load=list(loads))
    return ", ".join(f"ρ={load:g}: {v:.3g} [{lo:.3g}, {hi:.3g}]" for load, v, lo, hi in
                     zip(da["load"].values, da.values, da["low"].values, da["high"].values, strict=True))
