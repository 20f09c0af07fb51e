"""The records of a batch of tasks, column by column (docs/design.md §3 step 4).

A worker returns one :class:`RecordBatch` per batch instead of one dict per
task: each summary value becomes a column (an array of the rows that have it),
so a batch of thousands of closed-form points is a handful of arrays, cheap to
send, to checkpoint (:mod:`sweep.engine.checkpoint`) and to copy into the
Dataset's preallocated variables (:class:`sweep.engine.dataset.ResultArrays`).
Iterating a batch gives its :class:`~sweep.engine.tasks.Record` objects back,
each value of its original Python type.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Record:
    """What comes back from a task: small, picklable, enough to fill the Dataset.

    ``seconds`` is the time the task took in its worker (not reproducible: for
    reports of where compute went, never stored in the Dataset).
    """

    index: int
    replication: int
    summary: dict[str, Any]
    jobs: dict[str, np.ndarray] | None
    work: int
    attrs: dict[str, Any] = field(default_factory=dict)
    sweep: int = 0
    seconds: float = 0.0

    @property
    def key(self) -> tuple[int, int]:
        return (self.index, self.replication)


#: Python scalar types a value may have, by kind, and the array type of their column.
SCALARS: dict[str, type] = {"bool": bool, "int": int, "float": float}
_SCALAR_DTYPES = {"bool": np.bool_, "int": np.int64, "float": np.float64}


def value_kind(value: Any) -> str:
    """How a value is kept: ``str``, a scalar kind of :data:`SCALARS`, or ``array``."""
    if isinstance(value, str):
        return "str"
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    return "array"


@dataclass
class Column:
    """One value (a summary variable or a per-job array) across the rows of a batch that have it.

    ``rows`` are those rows, ascending. Scalars (``kind`` bool, int, float):
    ``values`` has one entry per row. ``str``: ``values`` is a list of texts.
    ``array``: ``values`` holds the rows' arrays flattened end to end (one dtype),
    ``lengths`` each one's size and ``shapes`` their shapes when any is not 1-D.
    """

    kind: str
    rows: np.ndarray
    values: Any
    lengths: np.ndarray | None = None
    shapes: list[tuple[int, ...]] | None = None

    @functools.cached_property
    def starts(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.lengths)[:-1]]).astype(np.int64)

    def value(self, k: int) -> Any:
        """The ``k``-th value (of row ``rows[k]``) as the record had it."""
        if self.kind in SCALARS:
            return SCALARS[self.kind](self.values[k].item())
        if self.kind == "str":
            return self.values[k]
        start = int(self.starts[k])
        flat = self.values[start : start + int(self.lengths[k])]
        return flat.reshape(self.shapes[k]) if self.shapes else flat

    def take(self, new_row: np.ndarray) -> Column | None:
        """The values of the rows kept, renumbered by ``new_row`` (``-1``: dropped)."""
        renumbered = new_row[self.rows]
        keep = renumbered >= 0
        if not keep.any():
            return None
        if self.kind in SCALARS:
            return Column(self.kind, renumbered[keep], self.values[keep])
        if self.kind == "str":
            texts = [v for v, k in zip(self.values, keep, strict=True) if k]
            return Column(self.kind, renumbered[keep], texts)
        kept = np.repeat(keep, self.lengths)
        shapes = [s for s, k in zip(self.shapes, keep, strict=True) if k] if self.shapes else None
        return Column(self.kind, renumbered[keep], self.values[kept], self.lengths[keep], shapes)


def _column(kind: str, rows: list[int], values: list[Any]) -> Column:
    rows_array = np.asarray(rows, dtype=np.int64)
    if kind in SCALARS:
        return Column(kind, rows_array, np.asarray(values, dtype=_SCALAR_DTYPES[kind]))
    if kind == "str":
        return Column(kind, rows_array, list(values))
    arrays = [np.asarray(v) for v in values]
    shapes = [a.shape for a in arrays] if any(a.ndim != 1 for a in arrays) else None
    return Column(kind, rows_array, np.concatenate([a.ravel() for a in arrays]),
                  np.asarray([a.size for a in arrays], dtype=np.int64), shapes)


#: The kinds of the commonest types, looked up before :func:`value_kind` is asked.
_KIND_OF_TYPE: dict[type, str] = {float: "float", int: "int", bool: "bool", str: "str", np.float64: "float",
                                  np.int64: "int", np.bool_: "bool"}


def _column_key(name: str, value: Any) -> tuple[str, str]:
    """A column per name and kind (and dtype for arrays): one name may hold several kinds."""
    kind = _KIND_OF_TYPE.get(type(value)) or value_kind(value)
    return (name, f"array:{np.asarray(value).dtype.str}" if kind == "array" else kind)


def _uniform_columns(summaries: list[dict[str, Any]]) -> dict[tuple[str, str], Column] | None:
    """The columns of summaries that all have the same names, each name one kind of value (the
    common case: one family's records), built name by name; ``None`` for anything else."""
    if not summaries or any(s.keys() != summaries[0].keys() for s in summaries):
        return None
    rows = np.arange(len(summaries), dtype=np.int64)
    columns = {}
    for name, first in summaries[0].items():
        values = [s[name] for s in summaries]
        kinds = {_KIND_OF_TYPE.get(type(v)) for v in values}
        if len(kinds) == 1 and None not in kinds:
            kind = next(iter(kinds))
        elif all(type(v) is np.ndarray for v in values) and len({v.dtype for v in values}) == 1:
            kind = "array"
        else:
            return None
        key = (name, f"array:{first.dtype.str}" if kind == "array" else kind)
        columns[key] = _column(kind, rows, values)
    return columns


@dataclass
class RecordBatch:
    """The records of a batch, columnar: per-row arrays, one :class:`Column` per value.

    ``summary`` and ``jobs`` map ``(name, kind)`` to a column (``kind`` is
    ``array:<dtype>`` for arrays); ``has_jobs`` marks the rows whose record had
    per-job arrays; ``attrs_table`` lists the distinct attribute dicts and
    ``attrs_id`` points each row to its own.
    """

    index: np.ndarray
    replication: np.ndarray
    work: np.ndarray
    seconds: np.ndarray
    sweep: np.ndarray
    summary: dict[tuple[str, str], Column] = field(default_factory=dict)
    jobs: dict[tuple[str, str], Column] = field(default_factory=dict)
    has_jobs: np.ndarray | None = None
    attrs_table: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    attrs_id: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.has_jobs is None:
            self.has_jobs = np.zeros(len(self.index), dtype=bool)
        if self.attrs_id is None:
            self.attrs_id = np.zeros(len(self.index), dtype=np.int64)

    @classmethod
    def empty(cls) -> RecordBatch:
        return cls.from_records([])

    @classmethod
    def of(cls, records: RecordBatch | Iterable[Record]) -> RecordBatch:
        return records if isinstance(records, RecordBatch) else cls.from_records(records)

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> RecordBatch:
        records = list(records)
        summary: dict[tuple[str, str], tuple[list[int], list[Any]]] = {}
        jobs: dict[tuple[str, str], tuple[list[int], list[Any]]] = {}
        table: dict[str, int] = {"{}": 0}
        attrs_table: list[dict[str, Any]] = [{}]
        attrs_id = np.zeros(len(records), dtype=np.int64)
        uniform = _uniform_columns([r.summary for r in records])
        for row, record in enumerate(records if uniform is None else ()):
            for name, value in record.summary.items():
                rows, values = summary.setdefault(_column_key(name, value), ([], []))
                rows.append(row)
                values.append(value)
        for row, record in enumerate(records):
            for name, value in (record.jobs or {}).items():  # per-job arrays: few records have them
                rows, values = jobs.setdefault(_column_key(name, value), ([], []))
                rows.append(row)
                values.append(value)
            if record.attrs:
                text = json.dumps(record.attrs, sort_keys=True)
                if text not in table:
                    table[text] = len(attrs_table)
                    attrs_table.append(dict(record.attrs))
                attrs_id[row] = table[text]

        def ints(name: str) -> np.ndarray:
            return np.fromiter((getattr(r, name) for r in records), dtype=np.int64, count=len(records))

        return cls(ints("index"), ints("replication"), ints("work"),
                   np.fromiter((r.seconds for r in records), dtype=np.float64, count=len(records)),
                   ints("sweep"),
                   uniform if uniform is not None else
                   {key: _column(key[1].split(":")[0], *rv) for key, rv in summary.items()},
                   {key: _column("array", *rv) for key, rv in jobs.items()},
                   np.fromiter((r.jobs is not None for r in records), dtype=bool, count=len(records)),
                   attrs_table, attrs_id)

    def __len__(self) -> int:
        return len(self.index)

    def __iter__(self) -> Iterator[Record]:
        """The batch's records, each value of the type the task returned (numpy scalars as Python ones)."""
        summaries: list[dict[str, Any]] = [{} for _ in range(len(self))]
        jobs: list[dict[str, Any] | None] = [{} if has else None for has in self.has_jobs]
        for target, columns in ((summaries, self.summary), (jobs, self.jobs)):
            for (name, _), column in columns.items():
                for k, row in enumerate(column.rows):
                    target[row][name] = column.value(k)
        for row in range(len(self)):
            yield Record(int(self.index[row]), int(self.replication[row]), summaries[row], jobs[row],
                         int(self.work[row]), dict(self.attrs_table[self.attrs_id[row]]),
                         int(self.sweep[row]), float(self.seconds[row]))

    def take(self, rows: np.ndarray) -> RecordBatch:
        """The batch of ``rows`` (ascending row numbers)."""
        new_row = np.full(len(self), -1, dtype=np.int64)
        new_row[rows] = np.arange(len(rows))

        def columns(part: dict[tuple[str, str], Column]) -> dict[tuple[str, str], Column]:
            kept = {key: column.take(new_row) for key, column in part.items()}
            return {key: column for key, column in kept.items() if column is not None}

        return RecordBatch(self.index[rows], self.replication[rows], self.work[rows], self.seconds[rows],
                           self.sweep[rows], columns(self.summary), columns(self.jobs), self.has_jobs[rows],
                           self.attrs_table, self.attrs_id[rows])

    def by_sweep(self) -> Iterator[tuple[int, RecordBatch]]:
        """``(sweep, its rows)`` for each sweep present."""
        sweeps = np.unique(self.sweep)
        if len(sweeps) == 1:
            yield int(sweeps[0]), self
            return
        for sweep in sweeps:
            yield int(sweep), self.take(np.flatnonzero(self.sweep == sweep))


def concat(batches: Sequence[RecordBatch]) -> RecordBatch:
    """One batch of all rows of ``batches``, in order (attribute dicts merged by value)."""
    batches = [b for b in batches if len(b)]
    if len(batches) == 1:
        return batches[0]
    if not batches:
        return RecordBatch.empty()
    offsets = np.cumsum([0, *(len(b) for b in batches)])
    table: dict[str, int] = {}
    attrs_table: list[dict[str, Any]] = []
    attrs_ids = []
    for batch in batches:
        mapping = np.empty(len(batch.attrs_table), dtype=np.int64)
        for k, attrs in enumerate(batch.attrs_table):
            text = json.dumps(attrs, sort_keys=True)
            if text not in table:
                table[text] = len(attrs_table)
                attrs_table.append(attrs)
            mapping[k] = table[text]
        attrs_ids.append(mapping[batch.attrs_id])

    def columns(part: str) -> dict[tuple[str, str], Column]:
        keys = list(dict.fromkeys(key for b in batches for key in getattr(b, part)))
        merged = {}
        for key in keys:
            pieces = [(getattr(b, part)[key], offset) for b, offset in zip(batches, offsets, strict=False)
                      if key in getattr(b, part)]
            kind = pieces[0][0].kind
            rows = np.concatenate([c.rows + offset for c, offset in pieces])
            if kind == "str":
                merged[key] = Column(kind, rows, [v for c, _ in pieces for v in c.values])
                continue
            values = np.concatenate([c.values for c, _ in pieces])
            if kind in SCALARS:
                merged[key] = Column(kind, rows, values)
                continue
            shaped = any(c.shapes for c, _ in pieces)
            shapes = ([s for c, _ in pieces for s in (c.shapes or [(int(n),) for n in c.lengths])]
                      if shaped else None)
            merged[key] = Column(kind, rows, values, np.concatenate([c.lengths for c, _ in pieces]), shapes)
        return merged

    def joined(name: str) -> np.ndarray:
        return np.concatenate([getattr(b, name) for b in batches])

    return RecordBatch(joined("index"), joined("replication"), joined("work"), joined("seconds"),
                       joined("sweep"), columns("summary"), columns("jobs"), joined("has_jobs"),
                       attrs_table, np.concatenate(attrs_ids))
