"""Quantities of SH00's claims (Schroeder & Harchol-Balter 2000) beyond the generic ones.

Each selects from the dispatch family's Dataset and calls :mod:`sweep.analysis`:
a policy order (§2.1, Appendices B–C), the best of a set of policies (§1.4, §3.1),
host 1's share against the ρ/2 rule (§4.4), the fairness of a size split (§4.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.analysis import confidence_interval, ratio, size_class_means
from sweep.analysis.compare import with_interval, without_interval
from sweep.reproduce.quantities import quantity
from sweep.reproduce.quantities.generic import selected


@quantity
def consecutive_ratios(datasets: Mapping[str, xr.Dataset], preset: str, order: Sequence[str],
                       variable: str = "mean_slowdown", select: Mapping[str, Any] | None = None
                       ) -> xr.DataArray:
    """Each policy of ``order`` over the next (paired ratio of replication means, 90% delta-method
    interval), on a ``pair`` dimension labeled ``"random/lwl"``: all above 1 means ``order`` runs from
    worst to best (SH00's "Random > LWL > SITA-E > SITA-U-fair")."""
    ds = datasets[preset]
    pairs = [ratio(ds, after, var=variable).sel(policy=before, drop=True)
             for before, after in zip(order[:-1], order[1:], strict=True)]
    out = xr.concat(pairs, "pair", coords="all").assign_coords(
        pair=[f"{a}/{b}" for a, b in zip(order[:-1], order[1:], strict=True)])
    return selected(out, select)


@quantity
def best_of(datasets: Mapping[str, xr.Dataset], preset: str, among: Sequence[str], over: str | Sequence[str],
            variable: str = "mean_slowdown", select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """The lowest ``variable`` of the policies ``among`` over that of ``over`` (each of ``over`` if a
    list, on the ``policy`` dimension), at every label: min over ``among`` of the paired ratios
    (:func:`sweep.analysis.ratio`) with the interval of the ratio that is lowest. ≤ 1: ``over`` is no
    better than the best of ``among``; ≥ 10: ``over`` is an order of magnitude better."""
    ds = datasets[preset]
    out = []
    for policy in [over] if isinstance(over, str) else list(over):
        ratios = ratio(ds, policy, var=variable).sel(policy=list(among))
        lowest = ratios.isel(policy=without_interval(ratios).argmin("policy"))
        out.append(lowest.drop_vars("policy").assign_coords(policy=policy))
    return selected(xr.concat(out, "policy", coords="all") if len(out) > 1 else out[0], select)


@quantity
def host_1_share_minus_half_load(datasets: Mapping[str, xr.Dataset], preset: str,
                                 select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """Host 1's share of the work minus ρ/2, the share the rule of thumb gives it (SH00 §4.4), with the
    share's 90% interval: within ±0.1 means the rule roughly fits the curve of Figure 5."""
    share = confidence_interval(datasets[preset]["host_load_fraction"].sel(host=0, drop=True))
    half_load = share["load"] / 2
    return selected(with_interval(without_interval(share) - half_load, share["halfwidth"], 0.90), select)


@quantity
def short_over_long_slowdown(datasets: Mapping[str, xr.Dataset], preset: str, policy: str,
                             select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """Mean slowdown of the short jobs over that of the long jobs, split at the policy's cutoff (the
    largest size it sent to host 1), from per-job arrays (``record_jobs=true``), paired by
    replication with its 90% delta-method interval. SH00 §4.1: 1 under SITA-U-fair ("the mean
    slowdown of short jobs is equal to the mean slowdown of long jobs")."""
    ds = selected(datasets[preset].sel(policy=policy, drop=True), select)
    if set(ds["size"].dims) != {"replication", "job"}:
        raise ValueError(f"short_over_long_slowdown needs one point of {preset}; select one load "
                         f"(dims {dict(ds.sizes)})")
    cutoff = float(ds["size"].where(ds["job_host"] == 0).max())
    classes = size_class_means(ds, [cutoff])
    return ratio(classes, float(np.inf), dim="size_class").isel(size_class=0).drop_vars("size_class")
