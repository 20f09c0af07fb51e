"""What a finished sweep says on the terminal (docs/design.md §8: nothing meaningless is silent).

One summary line, always (also with ``progress=false``): points, runs, how many
points are saturated and why, trace jobs a family left out and why, the time
and the output path. A one-point sweep
also prints its numbers: every scalar variable's mean over replications with
its 90% confidence half-width. A sweep of up to :data:`TABLE_POINTS` points
prints its headline variable (the family's first scalar variable, e.g. the mean
response time) over the grid: one row per combination of the other axes, one
column per value of ``load`` (or of the last axis swept), saturated points marked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import xarray as xr

from sweep.config.grid import Grid

#: Level of the intervals printed for a one-point sweep.
LEVEL = 0.90
#: The most points a sweep's headline table shows (more: read the file).
TABLE_POINTS = 60


def plural(count: int, noun: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def saturation_text(dataset: xr.Dataset, grid: Grid) -> str:
    """``, 3 saturated (2 at offered load >= 1, 1 past the in-system cap or unstable)`` or ``""``.

    A point is saturated when any of its replications is. Its cause is read
    from the point: an offered load of 1 or more cannot reach a steady state;
    below that, the run passed ``stop.max_in_system`` or its backlog grew.
    """
    if "saturated" not in dataset:
        return ""
    flags = dataset["saturated"].any([d for d in dataset["saturated"].dims if d not in _grid_dims(grid)])
    flat = np.asarray(flags.transpose(*_grid_dims(grid)).values, dtype=bool).ravel()
    saturated = np.flatnonzero(flat)
    if not len(saturated):
        return ", none saturated"
    overloaded = 0
    if "load" in dataset.coords:  # an axis, or a sampled coordinate; absent where no point applies it
        loads = dataset["load"].astype(float).broadcast_like(flags).transpose(*_grid_dims(grid))
        loads = loads.values.ravel()
        overloaded = int(np.count_nonzero(loads[saturated] >= 1))
    causes = []
    if overloaded:
        causes.append(f"{overloaded} at offered load >= 1")
    if len(saturated) > overloaded:
        causes.append(f"{len(saturated) - overloaded} past the in-system cap or unstable")
    return f", {len(saturated)} saturated ({'; '.join(causes)})"


#: Dataset attributes a family sets for trace jobs it left out (``trace_dropped_<reason>``).
DROPPED_PREFIX = "trace_dropped_"


def dropped_text(dataset: xr.Dataset) -> str:
    """``; trace jobs left out: 437 too_many_processors`` when a replayed trace lost jobs, else ``""``.

    Values that differ between points are listed as the family joined them (``"0; 437"``).
    """
    left_out = [f"{value} {key.removeprefix(DROPPED_PREFIX)}" for key, value in dataset.attrs.items()
                if key.startswith(DROPPED_PREFIX) and str(value) not in ("0", "0.0")]
    return f"; trace jobs left out: {', '.join(left_out)}" if left_out else ""


def _grid_dims(grid: Grid) -> list[str]:
    return list(grid.dims)


def summary_line(dataset: xr.Dataset, grid: Grid, replications: int, computed: int, resumed: int,
                 seconds: float, output: Path, figures: Sequence[Path]) -> str:
    """The line printed after every sweep."""
    resumed_text = f", {resumed} resumed from checkpoint" if resumed else ""
    figures_text = f" (+{plural(len(figures), 'figure file')})" if figures else ""
    return (f"sweep: {plural(grid.size, 'point')} x {plural(replications, 'replication')} "
            f"({plural(computed, 'run')} computed{resumed_text}{saturation_text(dataset, grid)}"
            f"{dropped_text(dataset)}) "
            f"in {seconds:.1f} s -> {output}{figures_text}")


def point_table(dataset: xr.Dataset) -> str:
    """The scalar variables of a one-point Dataset: mean ± 90% half-width over replications (no interval
    column for one replication), units."""
    from sweep.stats.intervals import confidence_interval

    rows = []
    for name, variable in dataset.data_vars.items():
        extra = [d for d in variable.dims if d != "replication" and variable.sizes[d] != 1]
        if extra or variable.dtype.kind not in "biuf" or not variable.notnull().any():
            continue
        values = variable.squeeze(drop=True).astype(float)
        if "replication" in values.dims:
            estimate = confidence_interval(values, "replication", LEVEL)
            mean, halfwidth = float(estimate), float(estimate["halfwidth"])
        else:
            mean, halfwidth = float(values), math.nan
        rows.append((name, _number(mean), "" if math.isnan(halfwidth) else f"± {_number(halfwidth)}",
                     variable.attrs.get("units", "")))
    if not rows:
        return ""
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    if not widths[2]:  # one replication: no interval to show, no empty column
        header = f"{'variable':<{widths[0]}}  {'mean':>{widths[1]}}  units"
        return "\n".join([header] + [f"{n:<{widths[0]}}  {m:>{widths[1]}}  {u}" for n, m, _, u in rows])
    header = f"{'variable':<{widths[0]}}  {'mean':>{widths[1]}}  {f'{LEVEL:.0%} CI':<{widths[2]}}  units"
    lines = [header] + [f"{n:<{widths[0]}}  {m:>{widths[1]}}  {h:<{widths[2]}}  {u}" for n, m, h, u in rows]
    return "\n".join(lines)


def _number(value: float) -> str:
    return f"{value:.6g}"


def grid_table(dataset: xr.Dataset, grid: Grid, variable: str) -> str:
    """``variable`` (a scalar per point) over the grid: mean ± 90% half-width over replications, one row
    per combination of the other swept axes, one column per value of the column axis (``load``
    where it is swept); ``*`` marks a saturated point. ``""`` for one point, more than
    :data:`TABLE_POINTS`, or a variable the Dataset lacks."""
    from sweep.stats.intervals import confidence_interval

    swept = [axis.dim for axis in grid.axes if len(axis.values) > 1 and axis.dim in grid.dims]
    if not swept or grid.size > TABLE_POINTS or variable not in dataset:
        return ""
    values = dataset[variable].astype(float)
    if set(values.dims) - {*_grid_dims(grid), "replication"}:
        return ""
    estimate = confidence_interval(values, "replication", LEVEL) if "replication" in values.dims else values
    saturated = (dataset["saturated"].any([d for d in dataset["saturated"].dims if d not in _grid_dims(grid)])
                 if "saturated" in dataset else xr.zeros_like(estimate, dtype=bool))
    column = "load" if "load" in swept else swept[-1]
    rows = [dim for dim in swept if dim != column]
    corner = f"{', '.join(rows)} \\ {column}" if rows else column
    table = [[corner, *(str(v) for v in dataset[column].values)]]
    for position in np.ndindex(*[dataset.sizes[dim] for dim in rows]):
        at = dict(zip(rows, position, strict=True))
        label = ", ".join(str(dataset[dim].values[index]) for dim, index in at.items()) or variable
        table.append([label, *(_cell(estimate.isel({**at, column: k}), saturated.isel({**at, column: k}))
                               for k in range(dataset.sizes[column]))])
    units = dataset[variable].attrs.get("units", "")
    single = dataset.sizes.get("replication", 1) == 1
    title = f"{variable}{f' ({units})' if units else ''}: " + (
        "one replication, no interval" if single else f"mean ± {LEVEL:.0%} half-width over replications")
    return "\n".join([title + (", * saturated" if bool(saturated.any()) else ""), *_aligned(table)])


def _cell(estimate: xr.DataArray, saturated: xr.DataArray) -> str:
    """One point's mean (``—`` where none), ``± half-width`` where known, `` *`` if saturated."""
    mean = float(estimate.squeeze())
    text = f"{mean:.4g}" if math.isfinite(mean) else "—"
    if "halfwidth" in estimate.coords and math.isfinite(halfwidth := float(estimate["halfwidth"].squeeze())):
        text += f" ± {halfwidth:.2g}"
    return text + (" *" if bool(saturated.squeeze()) else "")


def _aligned(table: list[list[str]]) -> list[str]:
    """Rows of text columns: the first left-aligned, the others right-aligned, two spaces apart."""
    widths = [max(len(row[k]) for row in table) for k in range(len(table[0]))]
    return ["  ".join(text.ljust(width) if k == 0 else text.rjust(width)
                      for k, (text, width) in enumerate(zip(row, widths, strict=True))) for row in table]
