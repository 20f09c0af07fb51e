"""Job traces in any format a reader is installed for: one record of columns, the SWF fields.

Every family that replays a trace (the rigid family's ``swf`` workloads, the gang family's
``gang_swf``, the dispatch family's ``trace`` sizes) reads it with :func:`read_trace`, which
picks the reader by the file's name: a :class:`TraceReader` claims the names ending in its
``suffixes``, and a file no reader claims is read as the Standard Workload Format
(:func:`~sweep.workloads.swf.read_swf`, plain or gzip). An installed package adds a reader
through the ``sweep.workloads`` entry point group (docs/plugins.md); a reader returns an
:class:`~sweep.workloads.swf.SWFTrace`, most easily made with :func:`trace_from_columns`, so the
families read every format the same way.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping

import numpy as np

from sweep.workloads._discovery import plugin_readers, reserve
from sweep.workloads._parts import TraceReader
from sweep.workloads.swf import SWF_FIELDS, SWFError, SWFTrace, read_swf, readable_trace

__all__ = ["SWF_READER", "TraceReader", "read_trace", "reader_for", "trace_from_columns", "trace_readers"]


#: The Standard Workload Format: the reader of every file no other reader claims.
SWF_READER = TraceReader("swf", (".swf", ".swf.gz"), read_swf)
reserve(readers=[SWF_READER])  # no plugin may take its name or suffixes


def trace_readers() -> dict[str, TraceReader]:
    """Every trace reader by name: :data:`SWF_READER`, then the installed plugins' readers."""
    return {SWF_READER.name: SWF_READER, **plugin_readers()}


def reader_for(path: str | os.PathLike) -> TraceReader:
    """The reader of the longest suffix of ``path``'s name that a reader claims; SWF if none does."""
    name = os.fspath(path).lower()
    claimed = [(len(suffix), reader) for reader in trace_readers().values() for suffix in reader.suffixes
               if name.endswith(suffix.lower())]
    return max(claimed, key=lambda pair: pair[0])[1] if claimed else SWF_READER


def read_trace(path: str | os.PathLike) -> SWFTrace:
    """The trace at ``path``, read by :func:`reader_for`'s reader and cached.

    Raises :class:`~sweep.workloads.swf.SWFFileNotFoundError` for a missing file and
    :class:`~sweep.workloads.swf.SWFError` (one line, the path first) for one its reader cannot
    read, whatever the format: the families turn these into their one-line errors.
    """
    reader = reader_for(path)
    if reader is SWF_READER:
        return read_swf(path)
    absolute, stat = readable_trace(path)
    return _read_cached(reader, absolute, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _read_cached(reader: TraceReader, path: str, mtime_ns: int, size: int) -> SWFTrace:
    """``reader.read(path)``, checked; ``mtime_ns`` and ``size`` only key the cache."""
    try:
        trace = reader.read(path)
    except (ValueError, OSError) as error:
        text = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SWFError(text if text.startswith(path) else f"{path}: {text}") from None
    if not isinstance(trace, SWFTrace):
        raise SWFError(f"{path}: the {reader.name} trace reader returned a {type(trace).__name__}, "
                       "not an SWFTrace")
    return trace


def trace_from_columns(path: str, columns: Mapping[str, np.ndarray],
                       header: Mapping[str, str] | None = None) -> SWFTrace:
    """An :class:`~sweep.workloads.swf.SWFTrace` from the columns a format has, ``-1`` (unknown) in the
    others, as the SWF itself marks a field a log does not record.

    ``columns`` maps SWF field names (:data:`~sweep.workloads.swf.SWF_FIELDS`: ``submit``,
    ``run_time``, ``allocated_procs``, ``requested_procs``, ``requested_time``, ...) to arrays of
    one length, in submit order; ``job_number`` defaults to 1, 2, .... ``ValueError`` (one line)
    for an unknown field, columns of different lengths, or a fractional value in an integer field.
    """
    known = dict(SWF_FIELDS)
    unknown = sorted(set(columns) - set(known))
    if unknown:
        raise ValueError(f"{path}: {unknown[0]!r} is not an SWF field; fields: {', '.join(known)}")
    lengths = {name: len(np.asarray(values)) for name, values in columns.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"{path}: columns of different lengths: "
                         + ", ".join(f"{name} {length}" for name, length in lengths.items()))
    count = next(iter(lengths.values()), 0)
    arrays = {}
    for name, dtype in SWF_FIELDS:
        default = np.arange(1, count + 1) if name == "job_number" else np.full(count, -1.0)
        values = np.asarray(columns.get(name, default), dtype=np.float64)
        if dtype is np.int64 and not (np.isfinite(values) & (values == np.round(values))).all():
            raise ValueError(f"{path}: field {name} must hold integers")
        column = values.astype(dtype)
        column.flags.writeable = False
        arrays[name] = column
    header = dict(header or {})
    return SWFTrace(path=path, header=header, max_procs=_positive_int(header.get("MaxProcs")),
                    unix_start_time=_positive_int(header.get("UnixStartTime")), **arrays)


def _positive_int(text: str | None) -> int | None:
    try:
        value = int(str(text).split()[0])
    except (ValueError, IndexError):
        return None
    return value if value >= 0 else None
