"""Replicate until decided (docs/design.md §9): rounds of replications for undecided claims.

A preset's replications may come in *parts*. The first is the preset as it is
(replications ``0 .. R-1``); each later part runs replications
``first .. first+count-1`` (the engine's ``first_replication``: the same
random streams as one longer run) at only the points the undecided claims read.
A claim reads, on a preset's grid, the labels its record names: ``policy`` and
``baseline`` on the policy axis (or the record's ``dim``), and every label of
``select``; an axis it names no label of is read whole. The parts are joined
on the ``replication`` dimension; replications a part did not run at a point
are NaN there (``False`` in flags, counts become floats), and every quantity counts only the
replications present.

Each round doubles the replications of the points still undecided, up to the
preset's budget (its claims file: ``replicate``, and ``quick_replicate`` for
``--quick``); a claim still undecided then is reported so, with the
replications it was judged on.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import xarray as xr

from sweep.reproduce.claims import Claim

#: Axis labels a claim reads on one preset: dimension -> labels; an absent dimension is read whole.
Reading = dict[str, list[Any]]


@dataclass(frozen=True)
class Part:
    """Replications ``first .. first+count-1`` of ``preset``, at the labels of ``restrict``."""

    preset: str
    first: int
    count: int
    restrict: Mapping[str, Sequence[Any]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The file stem of the part's Dataset: the preset's own for the first part."""
        return self.preset if self.first == 0 else f"{self.preset}+r{self.first}"


def readings(claim: Claim, preset: str) -> list[Reading]:
    """What ``claim`` reads of ``preset``: one reading per place its record names the preset. A
    label the record leaves to its quantity's default (CV96's ``response_ratio`` over ``baseline``
    EQS) is read too: the rounds must replicate a ratio's baseline with its policy."""
    return list(_readings(claim.args, preset, claim.quantity))


def _readings(args: Any, preset: str, quantity: str) -> Iterable[Reading]:
    if isinstance(args, Mapping):
        quantity = args.get("quantity", quantity)
        names = list(args.get("presets", [])) + ([args["preset"]] if "preset" in args else [])
        if preset in names:
            yield _labels({**_label_defaults(quantity), **args})
        for key, value in args.items():
            if key not in ("preset", "presets"):
                yield from _readings(value, preset, quantity)
    elif isinstance(args, list | tuple):
        for value in args:
            yield from _readings(value, preset, quantity)


def _label_defaults(quantity: str) -> dict[str, Any]:
    """The defaults of ``quantity``'s ``policy`` and ``baseline`` (what its record may omit). Not its
    ``dim``: that is not always the labels' axis (CV96's ``same_order`` compares across its ``dim``)."""
    from sweep.reproduce.quantities import QUANTITIES

    if not isinstance(quantity, str) or quantity not in QUANTITIES:
        return {}
    parameters = inspect.signature(QUANTITIES[quantity]).parameters
    return {name: parameters[name].default for name in ("policy", "baseline")
            if name in parameters and parameters[name].default is not inspect.Parameter.empty}


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _labels(args: Mapping[str, Any]) -> Reading:
    """The labels one quantity call names: ``policy``/``baseline`` on its ``dim``, and ``select``."""
    reading: Reading = {}
    dim = args.get("dim", "policy")
    named = [label for key in ("policy", "baseline") if key in args for label in _as_list(args[key])]
    if named and all(isinstance(label, str) for label in named):
        reading[dim] = list(dict.fromkeys(named))
    for key, value in (args.get("select") or {}).items():
        reading[key] = list(dict.fromkeys([*reading.get(key, []), *_as_list(value)]))
    return reading


def union(readings_: Iterable[Reading]) -> Reading | None:
    """The smallest grid holding every reading: per dimension the union of the labels, and a
    dimension read whole by one reading is read whole (absent). None when nothing is read."""
    readings_ = list(readings_)
    if not readings_:
        return None
    dims = set.intersection(*(set(r) for r in readings_))
    return {dim: list(dict.fromkeys(label for r in readings_ for label in r[dim])) for dim in sorted(dims)}


def replications_at(dataset: xr.Dataset, reading: Reading) -> int:
    """The fewest replications run at any point of ``reading``: a replication ran at a point where
    the numeric variable with the fewest dimensions (the grid's and ``replication``) is not NaN."""
    numeric = [da for da in dataset.data_vars.values() if "replication" in da.dims and da.dtype.kind == "f"]
    variable = min(numeric, key=lambda da: da.ndim)
    selected = variable.sel({dim: labels for dim, labels in reading.items() if dim in variable.dims})
    return int(selected.notnull().sum("replication").min())


def combine(parts: Sequence[xr.Dataset]) -> xr.Dataset:
    """The parts of one preset joined on ``replication``, each on the first part's labels (NaN, or
    ``False`` for flags, where a part did not run)."""
    first = parts[0]
    if len(parts) == 1:
        return first
    grid = {dim: first[dim] for dim in first.dims if dim not in ("replication", "job")}
    aligned = [first] + [_aligned(part, grid) for part in parts[1:]]
    combined = xr.concat(aligned, "replication", data_vars="minimal", coords="minimal", compat="override",
                         join="outer", combine_attrs="override")
    combined.attrs["replication_rounds"] = ", ".join(
        f"{int(p['replication'][0])}-{int(p['replication'][-1])}" for p in parts)
    return combined


def _aligned(part: xr.Dataset, grid: Mapping[str, xr.DataArray]) -> xr.Dataset:
    """``part`` reindexed onto the first part's grid labels (numbers NaN, flags False)."""
    fill = {name: False if da.dtype.kind == "b" else np.nan for name, da in part.data_vars.items()
            if da.dtype.kind in "biuf"}
    labels = {dim: coord for dim, coord in grid.items() if dim in part.dims}
    return part.reindex(labels, fill_value=fill)
