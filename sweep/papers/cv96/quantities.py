"""Quantities of Chiang & Vernon 1996 (CV96) §4–§5: response-time ratios and saturation order.

Every CV96 claim compares mean response times of policies on the same jobs
(common random numbers), as the paper's Figures 5–11 plot them over EQS's.
On one replication the ratio's 90% interval combines the two means' batch-means
intervals as if independent, as :func:`sweep.papers.cv96.figures.ratio_interval` does
for the figures. On several independent replications (``sweep-reproduce`` adds
them to undecided claims) it is the delta-method interval of the ratio of
replication means, paired by replication (:func:`sweep.analysis.ratio`), which
covers the spread between runs. A point's saturation is read by the sign test of
:func:`sweep.papers.cv96.figures.saturation_test` over its replications: a saturated point has no
finite mean response, its ratio is ``inf`` where the baseline is stable, ``0`` where only the
baseline is saturated, NaN where both are; a point the test cannot call (one run flagged, or 2 to
6 of 8) is undecided (NaN), and the reading asks for :data:`SATURATION_REPLICATIONS`
(``replications_needed``). Whether a policy saturates is read only on at least
:data:`SATURATION_REPLICATIONS` independent replications; on fewer, or where a point is undecided
by the test, the saturation quantities return the uninformative interval [0, 1] (undecided).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import xarray as xr

from sweep.analysis import ratio
from sweep.analysis.compare import with_interval, without_interval
from sweep.papers.cv96 import figures as cv96
from sweep.reproduce.claims import MARGIN
from sweep.reproduce.quantities import quantity

#: The two highest loads of the paper's grid, where "saturates before" is read (``saturates_before``).
TOP, BELOW = 0.95, 0.9
#: Independent replications a saturation claim is judged on, at least (one run near saturation
#: is one draw of a heavy-tailed quantity).
SATURATION_REPLICATIONS = 8


def _one(da: xr.DataArray) -> xr.DataArray:
    """``da`` at the first replication and workload, length-one dimensions dropped."""
    for dim in ("replication", "workload"):
        if dim in da.dims:
            da = da.isel({dim: 0})
    return da.squeeze(drop=True)


def _ratio(ds: xr.Dataset, policy: str, baseline: str, strict: bool = False
           ) -> tuple[xr.DataArray, xr.DataArray, xr.DataArray]:
    """``policy``'s mean response over ``baseline``'s at the same labels of every other axis, its 90%
    half-width (module docstring: batch means on one replication, paired replications on several),
    and where the sign test cannot call a point of either policy saturated or stable (``strict``:
    or could not, one flagged replication the other way)."""
    response, half, saturated = cv96.replication_means(ds)
    top, bottom = response.sel(policy=policy, drop=True), response.sel(policy=baseline, drop=True)
    relative = np.hypot(half.sel(policy=policy, drop=True) / top,
                        half.sel(policy=baseline, drop=True) / bottom)
    value = top / bottom
    half = value * relative
    if _replications(ds) >= 2:
        runs = ds["mean_response"].where(~ds["saturated"].astype(bool))
        paired = ratio(runs, baseline).sel(policy=policy, drop=True)
        several = _counts(ds).sel(policy=[policy, baseline]).min("policy") >= 2
        value = xr.where(several, without_interval(paired), value)
        half = xr.where(several, without_interval(paired["halfwidth"]), half)
    flagged, base_flagged = saturated.sel(policy=policy, drop=True), saturated.sel(policy=baseline, drop=True)
    value = xr.where(flagged & ~base_flagged, np.inf,
                     xr.where(base_flagged & ~flagged, 0.0, xr.where(flagged, np.nan, value)))
    undecided = cv96.saturation_test(ds, _slack(strict))[1].sel(policy=[policy, baseline]).any("policy")
    return value, half.where(np.isfinite(value) & (value > 0), 0.0), undecided


def _slack(strict: bool) -> int:
    """Flagged replications a sign-test call must survive the other way: one in a strict reading
    (:attr:`sweep.reproduce.claims.Judgement.strict`)."""
    return 1 if strict else 0


def _widening(strict: bool) -> float:
    """How many times as wide the intervals a quantity's own calls are made on: MARGIN when strict."""
    return MARGIN if strict else 1.0


def _counts(ds: xr.Dataset) -> xr.DataArray:
    """Replications run at each point (rounds of ``sweep-reproduce`` may extend only some)."""
    response = ds["mean_response"]
    if "replication" not in response.dims:
        return xr.ones_like(response, dtype=np.int64)
    return response.notnull().sum("replication")


def _replications(ds: xr.Dataset) -> int:
    """The most replications run at any point."""
    return int(_counts(ds).max())


def _undecided() -> xr.DataArray:
    """A 0/1 reading on too few replications: the value 0.5 with the interval [0, 1], and the
    replications it needs (``replications_needed``: rounds go there whatever the interval)."""
    out = with_interval(xr.DataArray(0.5), xr.DataArray(0.5), cv96.LEVEL)
    out.attrs["replications_needed"] = SATURATION_REPLICATIONS
    return out


@quantity
def response_ratio(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str = "eqs",
                   select: Mapping[str, Any] | None = None, strict: bool = False) -> xr.DataArray:
    """``policy``'s mean response time over ``baseline``'s, same jobs, with its 90% interval (CV96
    Figures 5–11), at the same labels of every other axis (so with the same repartitioning
    overhead: §4.3's "with or without repartitioning overhead"), at ``select``. A point whose
    saturation the sign test cannot call is NaN (undecided) and asks for
    :data:`SATURATION_REPLICATIONS` replications; ``strict``, also a point whose call one flagged
    replication the other way would undo (the interval is widened by the verdict's own rule)."""
    ratio_at = _ratio(datasets[preset], policy, baseline, strict)
    value, half, undecided = (_one(a.sel(dict(select or {}))) for a in ratio_at)
    out = with_interval(value.where(~undecided), half, cv96.LEVEL)
    if bool(undecided.any()):
        out.attrs["replications_needed"] = SATURATION_REPLICATIONS
    return out


@quantity
def ratio_change(datasets: Mapping[str, xr.Dataset], presets: list[str], policy: str, baseline: str = "eqs",
                 select: Mapping[str, Any] | None = None, strict: bool = False) -> xr.DataArray:
    """``policy``'s ratio to ``baseline`` on ``presets[0]`` over its ratio on ``presets[1]`` (a workload
    variant against the figure's own: §4.1, "Figure 6(a) and (b) are largely the same if ...
    C_{W|n} = 2"), the two relative half-widths combined in quadrature."""
    first, second = (response_ratio(datasets, p, policy, baseline, select=select, strict=strict)
                     for p in presets)
    relative = np.hypot(first["halfwidth"] / first, second["halfwidth"] / second)
    needed = max(int(x.attrs.get("replications_needed", 0)) for x in (first, second))
    first, second, relative = (x.drop_vars(["low", "high", "halfwidth"], errors="ignore")
                               for x in (first, second, relative))
    out = with_interval(first / second, first / second * relative, cv96.LEVEL)
    if needed:
        out.attrs["replications_needed"] = needed
    return out


def _flags(ds: xr.Dataset, strict: bool = False) -> tuple[xr.DataArray, xr.DataArray]:
    """Per point: saturated beyond doubt, and undecided (:func:`.figures.saturation_test`)."""
    saturated, undecided = cv96.saturation_test(ds, _slack(strict))
    return _one(saturated), _one(undecided)


def _saturates_before(ds: xr.Dataset, x: str, y: str, strict: bool = False) -> bool | None:
    """The reading of "``x`` saturates before ``y``" on the loads of ``ds`` (the records select the
    top of the paper's grid, ρ = 0.9 and 0.95: saturation grows with the load, so a policy
    saturated lower down is saturated there too, and eight replications are spent only where
    saturation is in question): ``x`` is saturated at a load where ``y`` is not; or, neither
    saturated, ``x``'s response grows faster at the top of the grid: ``x / y`` above 1 at ρ = 0.95
    and above its value at 0.9, both beyond their 90% intervals (below either beyond them: it does
    not). None where the intervals cannot tell, or a point of either policy is undecided by the
    sign test (:func:`_flags`); ``strict``, on the strict sign test and intervals MARGIN times as wide."""
    flagged, undecided = _flags(ds, strict)
    if bool(undecided.sel(policy=[x, y]).any()):
        return None
    fx, fy = flagged.sel(policy=x).values, flagged.sel(policy=y).values
    if (fx & ~fy).any():
        return True
    if fy.any() or fx.any():
        return False
    value, half, _ = (_one(a) for a in _ratio(ds, x, y))
    top, below = float(value.sel(load=TOP)), float(value.sel(load=BELOW))
    top_half, below_half = (_widening(strict) * float(half.sel(load=load)) for load in (TOP, BELOW))
    if top - top_half > 1.0 and top - top_half > below + below_half:
        return True
    if top + top_half < 1.0 or top + top_half < below - below_half:
        return False
    return None  # the intervals cannot tell


@quantity
def saturates_before(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str,
                     select: Mapping[str, Any] | None = None, strict: bool = False) -> xr.DataArray:
    """1 if ``policy`` saturates before ``baseline`` on the preset's load grid, else 0
    (:func:`_saturates_before`; CV96 §4.1, §5 "X saturates before Y"); ``strict``, its strict
    reading (:attr:`sweep.reproduce.claims.Judgement.strict`)."""
    ds = datasets[preset].sel(dict(select or {}))
    if int(_counts(ds).sel(policy=[policy, baseline]).min()) < SATURATION_REPLICATIONS:
        return _undecided()
    before = _saturates_before(ds, policy, baseline, strict)
    return _undecided() if before is None else xr.DataArray(float(before))


@quantity
def avoids_saturation(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str = "eqs",
                      select: Mapping[str, Any] | None = None, strict: bool = False) -> xr.DataArray:
    """Per load of ρ ≥ 0.9: 1 where ``policy`` avoids ``baseline``'s saturation, else 0 (CV96 §5,
    "EQS-PWS avoids the early saturation of EQS"): where the baseline is flagged the policy is
    not; where it is not, the policy's ratio to it is below 1 beyond the 90% interval (``strict``:
    the strict sign test, and beyond the interval MARGIN times as wide)."""
    ds = datasets[preset].sel(dict(select or {}))
    top = ds.sel(load=ds["load"] >= BELOW, policy=[policy, baseline])
    if int(_counts(top).min()) < SATURATION_REPLICATIONS:
        return _undecided()
    flagged, undecided = _flags(top, strict)
    if bool(undecided.any()):
        return _undecided()
    flagged = flagged.reindex(load=ds["load"], fill_value=False)
    value, half, _ = (_one(a) for a in _ratio(ds, policy, baseline))
    avoided = xr.where(flagged.sel(policy=baseline), ~flagged.sel(policy=policy),
                       value + _widening(strict) * half < 1.0)
    return avoided.sel(load=avoided["load"] >= BELOW).astype(float).drop_vars("policy", errors="ignore")


@quantity
def same_order(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str = "eqs",
               dim: str = "repartition_overhead", select: Mapping[str, Any] | None = None,
               strict: bool = False) -> xr.DataArray:
    """1 if ``policy`` stands the same way against ``baseline`` (behind, tied or ahead, by the 90%
    interval of their ratio) at every value of ``dim``, else 0 (CV96 §4.3: relative performance
    "unchanged ... with or without repartitioning overhead"); undecided where a point's saturation
    is (:func:`response_ratio`); ``strict``, on its strict reading and intervals MARGIN times as wide."""
    ds = datasets[preset].sel(dict(select or {}))
    orders = set()
    for value in ds[dim].values:
        ratio = response_ratio({preset: ds.sel({dim: value})}, preset, policy, baseline, strict=strict)
        if "replications_needed" in ratio.attrs:
            return _undecided()
        half = _widening(strict) * float(ratio["halfwidth"])
        low, high = float(ratio) - half, float(ratio) + half
        orders.add("behind" if low > 1 else "ahead" if high < 1 else "tied")
    return xr.DataArray(float(len(orders) == 1))
