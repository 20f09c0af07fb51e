"""Quantities of the CSSE00 claims (Campos, Silva, Scherson & Eshaghian 2000; paper key ``ipg00``).

Table 1 (§2.1) compares how mapping time grows with the number of tasks M
(:func:`growth_exponent`) and how much cheaper Cluster-M is than MH in every
case (:func:`smallest_ratio`); Tables 2–7 order policies and topologies
(:func:`versus_others`, :func:`share_ahead`) and compare gains between
workloads (:func:`gain_lead`). Each selects from the presets' Datasets and
calls analysis code; the claims are in ``sweep/papers/ipg00/claims.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.analysis.compare import with_interval, without_interval
from sweep.papers.ipg00.mapping import growth_exponent as fitted_growth_exponent
from sweep.reproduce.quantities import quantity
from sweep.reproduce.quantities.generic import difference, selected


@quantity
def growth_exponent(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, variable: str,
                    center: str = "median", relative_to: str | None = None, along: str = "size",
                    select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """b of ``variable ∝ along^b`` for ``policy`` (CSSE00 §2.1: Table 1's T_c against the tasks M,
    ``size``; or against the processors N, ``processors``), or its ratio to ``relative_to``'s b,
    with a 90% bootstrap interval (:func:`sweep.papers.ipg00.mapping.growth_exponent`). (Not
    ``dim``: a claim's ``dim`` names the axis its ``policy`` labels lie on.)"""
    da = selected(datasets[preset][variable], select)
    fitted = fitted_growth_exponent(da, dim=along, center=center, relative_to=relative_to)
    return fitted.sel(policy=policy)


@quantity
def smallest_ratio(datasets: Mapping[str, xr.Dataset], preset: str, policy: str, baseline: str,
                   variable: str, baseline_plus: str | None = None,
                   select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """The least, over replications, of ``policy``'s ``variable`` over ``baseline``'s on the same
    replication (common random numbers: the same task graph): "in all cases" (CSSE00 §2.1). With
    ``baseline_plus``, that variable of the baseline is added to its ``variable`` (Table 1's T_cm:
    Cluster-M's mapping and its clustering of the system graph). The extreme of the sample itself,
    so no interval."""
    da = selected(datasets[preset][variable], select)
    bottom = da.sel(policy=baseline, drop=True)
    if baseline_plus is not None:
        bottom = bottom + selected(datasets[preset][baseline_plus], select).sel(policy=baseline, drop=True)
    least = (da.sel(policy=policy, drop=True) / bottom).min("replication")
    return least.rename(f"{variable}_smallest_ratio")


@quantity
def versus_others(datasets: Mapping[str, xr.Dataset], preset: str, label: str, variable: str,
                  dim: str = "policy", others: Sequence[str] | None = None,
                  select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """``label``'s ``variable`` minus each other label's along ``dim`` (dimension ``other``), paired by
    replication, with its 90% interval (:func:`~sweep.reproduce.quantities.generic.difference`).
    "RoC has the best NP on every topology" is every value above 0 (CSSE00 Tables 2–4)."""
    names = [str(v) for v in datasets[preset][dim].values] if others is None else list(others)
    names = [name for name in names if name != label]
    parts = [difference(datasets, preset, label, name, variable, dim=dim, select=select) for name in names]
    return xr.concat(parts, xr.DataArray(names, dims="other", name="other"), coords="all")


@quantity
def share_ahead(datasets: Mapping[str, xr.Dataset], preset: str, label: str, variable: str, over: str,
                dim: str = "policy", ahead: str = "higher", others: Sequence[str] | None = None,
                select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """The share of ``over``'s labels at which ``label`` is ``ahead`` (``higher`` or ``lower``) of
    every other label along ``dim``: "in most cases" (CSSE00 §2.1), "in most columns" (Tables 2–4).

    The value counts the means; the interval runs from the share where every paired 90% interval
    of the difference (:func:`versus_others`) lies on the claimed side of 0 (ahead beyond doubt)
    to the share where none lies on the other side (ahead unless the run says otherwise)."""
    gaps = versus_others(datasets, preset, label, variable, dim=dim, others=others, select=select)
    if ahead not in ("higher", "lower"):
        raise ValueError(f"ahead must be 'higher' or 'lower', got {ahead!r}")
    if ahead == "higher":
        value, beyond_doubt, not_contradicted = gaps > 0, gaps["low"] > 0, gaps["high"] > 0
    else:
        value, beyond_doubt, not_contradicted = gaps < 0, gaps["high"] < 0, gaps["low"] < 0
    share = value.all("other").mean(over)
    return share.assign_coords(low=beyond_doubt.all("other").mean(over),
                               high=not_contradicted.all("other").mean(over))


@quantity
def gain_lead(datasets: Mapping[str, xr.Dataset], presets: Sequence[str], policy: str, baseline: str,
              variable: str, dim: str = "policy", select: Mapping[str, Any] | None = None) -> xr.DataArray:
    """How far the gain ``baseline − policy`` in ``variable`` on the first preset exceeds the same gain
    on each other preset (dimension ``preset``): "the I/O-intensive workload has the largest idle-time
    gain" (CSSE00 Tables 5–7). The presets' runs are independent, so the 90% half-width is the root
    of the sum of the squared half-widths of the two paired gains."""
    gains = [difference(datasets, name, baseline, policy, variable, dim=dim, select=select)
             for name in presets]
    others = xr.DataArray(list(presets[1:]), dims="preset", name="preset")
    lead = xr.concat([without_interval(gains[0]) - without_interval(gain) for gain in gains[1:]], others)
    halfwidth = xr.concat([np.hypot(gains[0]["halfwidth"], gain["halfwidth"]) for gain in gains[1:]], others)
    return with_interval(lead, without_interval(halfwidth), 0.90)
