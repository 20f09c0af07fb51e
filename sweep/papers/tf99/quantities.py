"""Quantities of Talby & Feitelson 1999 (TF99) §3.2–3.3: relative changes of yearly and monthly waits.

The TF99 presets replay the KTH log once (the paper's design), which has no
confidence interval. The tolerance is the noise floor that ``tf99_noise``
measures: the log replayed with every submit time moved by −1, 0 or +1 s, ten
times; a difference between two single replays is read as real when it
exceeds twice its standard deviation, ``2·√2·s`` with ``s`` the largest
relative standard deviation of a yearly wait over those replays (0.30%, so
0.9%; :func:`noise_floor`). A quantity here returns a relative change with
``low``/``high`` at ± that floor, so every claim that reads one lists
``tf99_noise`` among its presets.

A wait is named by a spec ``{preset:, variable:, minus:, <axis>: <label(s)>}``:
the ``variable`` (``mean_wait`` by default: total wait / total jobs, each month
from an empty machine) of ``preset`` (the claim's first by default), minus the
variable ``minus`` if given (the Lo − Hi gap of Tables 3–5), at the labels
(a list keeps the axis).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.analysis.compare import with_interval
from sweep.papers.tf99.figures import measured
from sweep.reproduce.quantities import quantity

Datasets = Mapping[str, xr.Dataset]
Spec = Mapping[str, Any]

#: The preset whose jittered replays give the noise floor.
NOISE = "tf99_noise"
#: Level of the floor's interval: two standard deviations of a difference, about 95%.
LEVEL = 0.95


def noise_floor(noise: xr.Dataset) -> float:
    """Relative noise floor of a difference between two single replays of the log: ``2·√2·s``, ``s`` the
    largest relative standard deviation of ``mean_wait`` over the jittered replays of ``noise``."""
    wait = noise["mean_wait"]
    if wait.sizes.get("replication", 1) < 2:
        raise ValueError(f"{NOISE}: the noise floor needs at least two replications")
    relative = wait.std("replication", ddof=1) / wait.mean("replication")
    return float(2 * np.sqrt(2) * relative.max())


def _wait(datasets: Datasets, presets: Sequence[str], spec: Spec) -> xr.DataArray:
    """The wait that ``spec`` names (module docstring), replications averaged, one-value axes dropped."""
    spec = dict(spec)
    ds = datasets[spec.pop("preset", presets[0])]
    variable, minus = spec.pop("variable", "mean_wait"), spec.pop("minus", None)
    ds = ds.sel(spec)
    da = measured(ds, variable)
    return da - measured(ds, minus) if minus else da


def _floor(datasets: Datasets, presets: Sequence[str]) -> float:
    if NOISE not in presets:
        raise ValueError(f"a TF99 claim's presets must include {NOISE} (its noise floor); "
                         f"got {list(presets)}")
    return noise_floor(datasets[NOISE])


def _with_floor(value: xr.DataArray, floor: float) -> xr.DataArray:
    return with_interval(value, xr.full_like(value, floor), LEVEL)


@quantity
def wait_change(datasets: Datasets, presets: list[str], of: Spec,
                over: Spec) -> xr.DataArray:
    """``of``'s wait over ``over``'s, minus 1 (−0.165: 16.5% less wait), ± the noise floor (TF99
    Tables 1–5 and §3.2–3.3 state their comparisons as such percentages)."""
    value = _wait(datasets, presets, of) / _wait(datasets, presets, over) - 1
    return _with_floor(value, _floor(datasets, presets))


@quantity
def wait_change_steps(datasets: Datasets, presets: list[str], of: Spec,
                      over: Spec, along: str) -> xr.DataArray:
    """The successive differences of :func:`wait_change` along the axis ``along`` (positive: it grows
    from one label to the next; TF99 §3.3: a smaller gap, a smaller difference), ± the floor."""
    value = (_wait(datasets, presets, of) / _wait(datasets, presets, over) - 1).diff(along)
    return _with_floor(value, _floor(datasets, presets))


@quantity
def yearly_wait(datasets: Datasets, presets: list[str], of: Spec) -> xr.DataArray:
    """A wait in seconds, ± the noise floor times it (TF99 §3.1's absolute values)."""
    value = _wait(datasets, presets, of)
    return with_interval(value, value * _floor(datasets, presets), LEVEL)


@quantity
def wait_spread(datasets: Datasets, presets: list[str], of: Spec) -> xr.DataArray:
    """The largest of ``of``'s waits over the smallest, minus 1, ± the floor (TF99 §3.3: "all within
    2.5%")."""
    value = _wait(datasets, presets, of)
    return _with_floor(value.max() / value.min() - 1, _floor(datasets, presets))


@quantity
def months_below(datasets: Datasets, presets: list[str], of: Spec,
                 over: Spec) -> xr.DataArray:
    """In how many months ``of``'s monthly wait is below ``over``'s (TF99 Table 3: Hi-Pri below Lo-Pri)."""
    return (_wait(datasets, presets, of) < _wait(datasets, presets, over)).sum().astype(float)


@quantity
def monthly_awt_change(datasets: Datasets, presets: list[str],
                       tolerance: float = 0.1) -> xr.DataArray:
    """TF99 §3.2 "a monthly instead of the yearly AWT": slack's yearly wait when each month runs with
    its own AWT (conservative's wait that month, at least 1 s) over its yearly wait with the yearly
    AWT (conservative's yearly wait), minus 1, ± the floor. Each month is simulated from an empty
    machine, so month k of the run at AWT a_k is month k of the monthly-AWT run; ``presets[0]``
    (``tf99_awt``) must hold every a_k on its ``awt`` axis, to ``tolerance`` seconds."""
    ds = datasets[presets[0]].sel(awt_estimate="fixed")
    conservative = ds.sel(policy="conservative").isel(awt=0)
    slack = ds.sel(policy="slack")
    awts = slack["awt"].values.astype(float)

    def nearest(target: float) -> float:
        best = awts[np.argmin(np.abs(awts - target))]
        if abs(best - target) > tolerance:
            raise ValueError(f"{presets[0]}: no policy.awt within {tolerance} s of conservative's "
                             f"{target:.1f} s; grid: {sorted(awts.tolist())}")
        return float(best)

    monthly = measured(conservative, "monthly_mean_wait").clip(min=1.0)
    jobs = measured(conservative, "monthly_jobs")
    months = measured(slack, "monthly_mean_wait")
    per_month = xr.concat([months.sel(awt=nearest(float(monthly.sel(month=m))), month=m, drop=True)
                           for m in monthly["month"].values], dim="month")
    yearly_monthly_awt = float((per_month.values * jobs.values).sum() / jobs.values.sum())
    yearly = float(measured(slack.sel(awt=nearest(float(measured(conservative, "mean_wait")))), "mean_wait"))
    return _with_floor(xr.DataArray(yearly_monthly_awt / yearly - 1), _floor(datasets, presets))
