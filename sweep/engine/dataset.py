"""Records -> one labeled Dataset -> netCDF, written atomically (docs/design.md §5, a contract).

Each declared variable becomes an array over the grid's dimensions, then
``replication``, then the variable's own extra dimensions (``host``, ...),
filled in one pass from the records. Per-job arrays go on a ``job`` dimension.
Variables and coordinates carry ``units`` and ``long_name`` (CF conventions);
``saturated`` carries CF flag attributes; the Dataset's attributes carry the
resolved config as YAML text, the package and library versions, the root seed,
the command line (``history``) and the creation time (netCDF attributes cannot
hold dicts, None or bools). A sample design's parameters are coordinates on
``sample``, and the design itself is the attribute ``design`` (JSON text,
:mod:`sweep.engine.design`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from sweep.engine.design import ATTRIBUTE, SAMPLE_DIM, Design, to_json
from sweep.engine.grid import Axis, Grid
from sweep.engine.tasks import Record
from sweep.families import Family, Variable


def _fill_value(dtype: np.dtype) -> Any:
    if dtype.kind == "b":
        return False
    if dtype.kind in "iu":
        return 0
    return np.nan


def _declared_variables(families: Sequence[Family]) -> dict[str, tuple[Variable, Family]]:
    declared: dict[str, tuple[Variable, Family]] = {}
    for family in families:
        for variable in family.variables:
            if variable.name in declared and declared[variable.name][0].dims != variable.dims:
                other = declared[variable.name][1].name
                raise ValueError(f"variable {variable.name!r} has different dimensions in "
                                 f"families {other!r} and {family.name!r}")
            declared.setdefault(variable.name, (variable, family))
    return declared


def _extra_coord(dim: str, family: Family, grid: Grid, records: Sequence[Record],
                 name: str) -> np.ndarray:
    """Labels of an extra dimension: the family's, from the point with the longest value."""
    longest = max(records, key=lambda r: np.size(r.summary.get(name, ())))
    size = np.size(longest.summary.get(name, ()))
    labeller = family.extra_coords.get(dim)
    if labeller is None:
        return np.arange(size)
    return np.asarray(labeller(grid.points[longest.index].point))[:size]


def _variable_array(variable: Variable, family: Family, grid: Grid, records: Sequence[Record],
                    replications: int, coords: dict[str, Any]) -> np.ndarray:
    dtype = np.dtype(variable.dtype)
    extra_shape = []
    for dim in variable.dims:
        if dim not in coords:
            coords[dim] = _extra_coord(dim, family, grid, records, variable.name)
        extra_shape.append(len(coords[dim]))
    values = np.full((*grid.shape, replications, *extra_shape), _fill_value(dtype), dtype=dtype)
    for record in records:
        if variable.name not in record.summary:
            continue
        value = np.asarray(record.summary[variable.name], dtype=dtype)
        target = (*grid.points[record.index].position, record.replication)
        values[target + tuple(slice(0, n) for n in value.shape)] = value
    return values


def _job_arrays(grid: Grid, records: Sequence[Record], replications: int,
                dims: list[str]) -> dict[str, tuple[list[str], np.ndarray]]:
    with_jobs = [r for r in records if r.jobs]
    if not with_jobs:
        return {}
    names = sorted({name for r in with_jobs for name in r.jobs})
    length = max(len(array) for r in with_jobs for array in r.jobs.values())
    arrays = {}
    for name in names:
        values = np.full((*grid.shape, replications, length), np.nan)
        for record in with_jobs:
            column = record.jobs.get(name)
            if column is not None:
                position = grid.points[record.index].position
                values[(*position, record.replication, slice(0, len(column)))] = column
        arrays[name] = ([*dims, "replication", "job"], values)
    return arrays


def _job_labels(records: Sequence[Record], job_arrays: dict) -> np.ndarray:
    """The ``job`` coordinate: the trace's job numbers when every record has the same ones
    (a per-job ``job_number`` column, e.g. SWF field 1), else 0, 1, 2, ..."""
    numbers = [r.jobs.get("job_number") for r in records if r.jobs]
    length = next(iter(job_arrays.values()))[1].shape[-1]
    first = numbers[0]
    if first is not None and len(first) == length and all(
            n is not None and np.array_equal(n, first) for n in numbers):
        del job_arrays["job_number"]
        return np.asarray(first).astype(np.int64)
    return np.arange(length)


def _merge_attrs(records: Sequence[Record]) -> dict[str, Any]:
    """Record attributes that agree across records, as-is; conflicting ones are joined."""
    values: dict[str, set] = {}
    for record in records:
        for key, value in record.attrs.items():
            values.setdefault(key, set()).add(value)
    return {key: (next(iter(v)) if len(v) == 1 else "; ".join(map(str, sorted(v, key=str))))
            for key, v in sorted(values.items())}


#: Descriptions of the coordinates sweep always has (CF ``long_name`` and, where one exists, ``units``).
_CORE_COORDINATES = {
    "policy": {"long_name": "scheduling policy (its config name)"},
    "workload": {"long_name": "workload (its config name)"},
    "load": {"long_name": "offered load rho", "units": "1"},
    "replication": {"long_name": "replication index (independent random streams)"},
    "job": {"long_name": "job number (the trace's, or order of arrival)"},
}
#: CF flag attributes of the ``saturated`` variable (stored as 0/1).
_SATURATED_FLAGS = {"flag_values": np.array([0, 1], dtype=np.int8),
                    "flag_meanings": "steady_state saturated"}


def _axis_attrs(axis: Axis) -> dict[str, str]:
    known = _CORE_COORDINATES.get(axis.dim)
    described = dict(known) if known else {"long_name": f"config key {axis.key}"}
    described["config_key"] = axis.key
    return described


def _extra_dim_attrs(dim: str, family: Family) -> dict[str, str]:
    """An extra dimension's coordinate: points with fewer entries (e.g. fewer hosts) are padded."""
    return {"long_name": f"{dim} of the {family.name} model; a point with fewer {dim} entries than "
                         f"this dimension is padded with the fill value (NaN, 0 or false)"}


def _describe(dataset: xr.Dataset, grid: Grid, extra_dims: Mapping[str, Family]) -> None:
    for axis in grid.axes:
        dataset[axis.dim].attrs.update(_axis_attrs(axis))
    if not grid.load_applied:
        dataset["load"].attrs["long_name"] = ("offered load rho: NOT APPLIED, every point replays its "
                                              "trace as it is (its own load: offered_load where recorded)")
    for dim in ("replication", "job"):
        if dim in dataset.coords:
            dataset[dim].attrs.update(_CORE_COORDINATES[dim])
    for dim, family in extra_dims.items():
        dataset[dim].attrs.update(_extra_dim_attrs(dim, family))
    if "saturated" in dataset:
        dataset["saturated"].attrs.update(_SATURATED_FLAGS)


def _design_coordinates(design: Design) -> dict[str, Any]:
    """Each design parameter as a coordinate on ``sample`` (its values, its key and range)."""
    coords = {}
    for j, (key, dim) in enumerate(zip(design.keys, design.dims, strict=True)):
        values = design.values[:, j].astype(np.int64) if design.integer[j] else design.values[:, j]
        described = dict(_CORE_COORDINATES.get(dim, {"long_name": f"config key {key}"}))
        described.update(config_key=key, valid_min=design.low[j], valid_max=design.high[j])
        coords[dim] = ((SAMPLE_DIM,), values, described)
    return coords


def build_dataset(grid: Grid, records: Sequence[Record], families: Sequence[Family],
                  replications: int, attrs: Mapping[str, Any]) -> xr.Dataset:
    """The sweep's Dataset, built in one step from all records (docs/design.md §3 step 4)."""
    dims = [axis.dim for axis in grid.axes]
    coords: dict[str, Any] = {axis.dim: list(axis.values) for axis in grid.axes}
    coords["replication"] = np.arange(replications)
    if grid.design is not None:
        coords.update(_design_coordinates(grid.design))
    data_vars = {}
    extra_dims: dict[str, Family] = {}
    for name, (variable, family) in _declared_variables(families).items():
        if variable.dims and not any(name in record.summary for record in records):
            continue  # e.g. per-month variables of a run not split by month: no empty dimension
        values = _variable_array(variable, family, grid, records, replications, coords)
        described = {"units": variable.units, "long_name": variable.long_name}
        if not variable.reproducible:
            described["reproducible"] = "no"  # wall-clock: left out of identity checks
        data_vars[name] = ([*dims, "replication", *variable.dims], values, described)
        extra_dims.update({dim: family for dim in variable.dims})
    job_arrays = _job_arrays(grid, records, replications, dims)
    if job_arrays:
        coords["job"] = _job_labels(records, job_arrays)
    data_vars.update(job_arrays)
    dataset = xr.Dataset(data_vars, coords=coords)
    _describe(dataset, grid, extra_dims)
    dataset.attrs.update(_merge_attrs(records))
    dataset.attrs.update(attrs)
    if grid.design is not None:
        dataset[SAMPLE_DIM].attrs = {"long_name": f"point of the {grid.design.name} design "
                                                  f"(file attribute {ATTRIBUTE})"}
        dataset.attrs[ATTRIBUTE] = to_json(grid.design)
    return dataset


#: Dataset attributes that describe one run (when, by which command, with which libraries), not
#: its results: two runs of the same sweep differ in these only.
RUN_ATTRIBUTES = ("command_line", "history", "date_created", "software_versions")


def reproducible(dataset: xr.Dataset) -> xr.Dataset:
    """``dataset`` without what may differ between two runs of one sweep (docs/design.md §4):
    wall-clock variables (attribute ``reproducible = "no"``) and :data:`RUN_ATTRIBUTES`."""
    wall_clock = [name for name, v in dataset.data_vars.items() if v.attrs.get("reproducible") == "no"]
    kept = dataset.drop_vars(wall_clock)
    kept.attrs = {k: v for k, v in dataset.attrs.items() if k not in RUN_ATTRIBUTES}
    return kept


def write_atomic(dataset: xr.Dataset, path: Path) -> None:
    """netCDF4 at ``path`` via a temporary file in the same folder and ``os.replace``.

    Coordinates get no ``_FillValue`` (CF: a coordinate has no missing values).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    encoding = {name: {"_FillValue": None} for name in dataset.coords}
    try:
        dataset.to_netcdf(temporary, engine="netcdf4", format="NETCDF4", encoding=encoding)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
