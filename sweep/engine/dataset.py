"""Records -> one labeled Dataset -> netCDF, written atomically (docs/design.md §5, a contract).

Each declared variable becomes an array over the grid's dimensions (``load`` left
out where no point applies it: a trace replayed as it is), then ``replication``,
then the variable's own extra dimensions (``host``, ...), filled in one pass
from the records. Per-job arrays go on a ``job`` dimension.
Variables and coordinates carry ``units`` and ``long_name`` (CF conventions);
``saturated`` carries CF flag attributes; the Dataset's attributes carry the
resolved config as YAML text, the package and library versions, the root seed,
the command line (``history``) and the creation time (netCDF attributes cannot
hold dicts, None or bools). A sample design's parameters are coordinates on
``sample``, and the design itself is the attribute ``design`` (JSON text,
:mod:`sweep.config.design`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from sweep.config.design import ATTRIBUTE, SAMPLE_DIM, Design, to_json
from sweep.config.grid import Axis, Grid
from sweep.engine.records import SCALARS, Column, Record, RecordBatch
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


class ResultArrays:
    """The Dataset's variables, allocated once and filled batch by batch as records arrive.

    Each declared variable is one array over (point, replication, its extra
    dimensions), made when the variable is first seen; the Dataset is built
    on these arrays without copying them (:meth:`dataset`), so a sweep's
    results are held once. An extra dimension grows (one copy of that
    variable) only when a later batch brings a longer value than any before.
    """

    def __init__(self, grid: Grid, families: Sequence[Family], replications: int,
                 first_replication: int = 0) -> None:
        self.grid, self.replications = grid, int(replications)
        self.first_replication = int(first_replication)
        self.declared = _declared_variables(families)
        self.arrays: dict[str, np.ndarray] = {}
        self.longest: dict[str, tuple[int, int]] = {}  # name -> (length, -index of the first such point)
        self.job_records: list[Record] = []
        self.attrs: dict[str, set] = {}
        self.received = 0

    def add(self, batch: RecordBatch) -> None:
        """Copy ``batch``'s values into the variables (vectorised per column)."""
        self.received += len(batch)
        for (name, _), column in batch.summary.items():
            if name in self.declared:
                self._fill(name, self.declared[name][0], column, batch)
        for attrs in (batch.attrs_table[k] for k in np.unique(batch.attrs_id)):
            for key, value in attrs.items():
                self.attrs.setdefault(key, set()).add(value)
        if batch.has_jobs.any():
            self.job_records.extend(r for r in batch.take(np.flatnonzero(batch.has_jobs)) if r.jobs)

    def _allocate(self, name: str, variable: Variable, extra: tuple[int, ...]) -> np.ndarray:
        """The variable's array, with at least ``extra`` entries on its extra dimensions."""
        dtype = np.dtype(variable.dtype)
        current = self.arrays.get(name)
        if current is not None and all(n <= m for n, m in zip(extra, current.shape[2:], strict=True)):
            return current
        if current is not None:
            extra = tuple(max(n, m) for n, m in zip(extra, current.shape[2:], strict=True))
        values = np.full((self.grid.size, self.replications, *extra), _fill_value(dtype), dtype=dtype)
        if current is not None:
            values[(slice(None), slice(None), *(slice(0, n) for n in current.shape[2:]))] = current
        self.arrays[name] = values
        return values

    def _fill(self, name: str, variable: Variable, column: Column, batch: RecordBatch) -> None:
        index, replication = batch.index[column.rows], batch.replication[column.rows]
        if column.kind in SCALARS and not variable.dims:
            self._allocate(name, variable, ())[index, replication] = column.values
            return
        if column.kind == "array" and len(variable.dims) == 1 and not column.shapes:
            lengths = column.lengths
            longest = int(lengths.max())
            values = self._allocate(name, variable, (longest,))
            which = np.repeat(np.arange(len(lengths)), lengths)
            offset = np.arange(len(column.values)) - np.repeat(column.starts, lengths)
            values[index[which], replication[which], offset] = column.values
            first = int(index[lengths == longest].min())
            self.longest[name] = max(self.longest.get(name, (-1, 0)), (longest, -first))
            return
        dtype = np.dtype(variable.dtype)
        for k in range(len(column.rows)):  # anything else: value by value
            value = np.asarray(column.value(k), dtype=dtype)
            values = self._allocate(name, variable, value.shape)
            values[(index[k], replication[k], *(slice(0, n) for n in value.shape))] = value
            size = value.size
            self.longest[name] = max(self.longest.get(name, (-1, 0)), (size, -int(index[k])))

    def _extra_coord(self, dim: str, family: Family, name: str, size: int) -> np.ndarray:
        """Labels of an extra dimension: the family's, from the point with the longest value."""
        labeller = family.extra_coords.get(dim)
        if labeller is None or name not in self.longest:
            return np.arange(size)
        index = -self.longest[name][1]
        return np.asarray(labeller(self.grid.point(index).point))[:size]

    def dataset(self, attrs: Mapping[str, Any]) -> xr.Dataset:
        """The sweep's Dataset on the filled arrays (no copy), described (docs/design.md §5)."""
        grid, replications = self.grid, self.replications
        dims, shape = list(grid.dims), grid.dims_shape  # without a load no point applies
        coords: dict[str, Any] = {axis.dim: list(axis.values) for axis in grid.axes if axis.dim in dims}
        coords["replication"] = self.first_replication + np.arange(replications)
        if grid.design is not None:
            coords.update(_design_coordinates(grid.design))
        data_vars = {}
        extra_dims: dict[str, Family] = {}
        for name, (variable, family) in self.declared.items():
            if name not in self.arrays:
                if variable.dims:
                    continue  # e.g. per-month variables of a run not split by month: no empty dimension
                self._allocate(name, variable, ())
            values = self.arrays[name]
            for dim, size in zip(variable.dims, values.shape[2:], strict=True):
                if dim not in coords:
                    coords[dim] = self._extra_coord(dim, family, name, size)
            described = {"units": variable.units, "long_name": variable.long_name}
            if not variable.reproducible:
                described["reproducible"] = "no"  # wall-clock: left out of identity checks
            data_vars[name] = ([*dims, "replication", *variable.dims],
                               values.reshape(*shape, *values.shape[1:]), described)
            extra_dims.update({dim: family for dim in variable.dims})
        job_arrays = _job_arrays(grid, self.job_records, replications, dims)
        if job_arrays:
            coords["job"] = _job_labels(self.job_records, job_arrays)
        data_vars.update(job_arrays)
        dataset = xr.Dataset(data_vars, coords=coords)
        _describe(dataset, grid, extra_dims)
        dataset.attrs.update({key: (next(iter(v)) if len(v) == 1 else "; ".join(map(str, sorted(v, key=str))))
                              for key, v in sorted(self.attrs.items())})
        dataset.attrs.update(attrs)
        if grid.design is not None:
            dataset[SAMPLE_DIM].attrs = {"long_name": f"point of the {grid.design.name} design "
                                                      f"(file attribute {ATTRIBUTE})"}
            dataset.attrs[ATTRIBUTE] = to_json(grid.design)
        return dataset


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
                position = grid.position(record.index)
                values[(*position, record.replication, slice(0, len(column)))] = column
        arrays[name] = ([*dims, "replication", "job"], values.reshape(*grid.dims_shape, *values.shape[-2:]))
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
        if axis.dim in dataset.dims:
            dataset[axis.dim].attrs.update(_axis_attrs(axis))
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


def build_dataset(grid: Grid, records: RecordBatch | Sequence[Record], families: Sequence[Family],
                  replications: int, attrs: Mapping[str, Any]) -> xr.Dataset:
    """The sweep's Dataset, built in one step from all records (docs/design.md §3 step 4)."""
    results = ResultArrays(grid, families, replications)
    results.add(RecordBatch.of(records))
    return results.dataset(attrs)


#: Dataset attributes that describe one run (when, by which command, with which libraries), not
#: its results: two runs of the same sweep differ in these only.
RUN_ATTRIBUTES = ("command_line", "history", "date_created", "software_versions")


def reproducible(dataset: xr.Dataset) -> xr.Dataset:
    """``dataset`` without what may differ between two runs of one sweep (docs/design.md §4).

    Parameters
    ----------
    dataset
        A sweep's Dataset.

    Returns
    -------
    xarray.Dataset
        ``dataset`` without its wall-clock variables (attribute ``reproducible = "no"``) and the
        attributes :data:`RUN_ATTRIBUTES`: two runs of one sweep give identical ones.
    """
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
