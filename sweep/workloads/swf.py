"""Reader for the Standard Workload Format (SWF) of the Parallel Workloads Archive.

Format (Chapin et al., "Benchmarks and standards for the evaluation of parallel
job schedulers", JSSPP 1999; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html):
one job per line, 18 whitespace-separated numeric fields, ``-1`` where a value is
unknown; lines starting with ``;`` are comments, and the leading ones form the
header, ``; Key: value`` each (``MaxProcs``, ``MaxNodes``, ``UnixStartTime``,
``TimeZoneString``, ...). A file may be plain text or gzip-compressed.

The reader builds one numpy array per field, never one Python object per job
(STYLE anti-patterns). Field types:

- ``float64``: the times and sizes that may carry fractions in some logs:
  ``submit``, ``wait``, ``run_time``, ``avg_cpu``, ``used_memory``,
  ``requested_time``, ``requested_memory``, ``think_time`` (seconds, KB);
- ``int64``: the counts and identifiers: ``job_number``, ``allocated_procs``,
  ``requested_procs``, ``status``, ``user``, ``group``, ``executable``, ``queue``,
  ``partition``, ``preceding_job``. A fractional value there is an error.

``-1`` is kept as ``-1`` in every field (callers decide what unknown means for
them; e.g. docs/model-notes.md §2 drops KTH jobs with run time -1).

Traces are cached by (absolute path, modification time, size), so a warm worker
parses a trace once (docs/design.md §3); the arrays are read-only because they are shared.
"""

from __future__ import annotations

import functools
import gzip
import io
import os
import re
import zlib
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from sweep.workloads._files import cannot_read_whole

__all__ = ["SWF_FIELDS", "SWFError", "SWFFileNotFoundError", "SWFTrace", "read_swf"]

#: The 18 SWF fields in file order, with the dtype each is stored as.
SWF_FIELDS: tuple[tuple[str, type], ...] = (
    ("job_number", np.int64),
    ("submit", np.float64),
    ("wait", np.float64),
    ("run_time", np.float64),
    ("allocated_procs", np.int64),
    ("avg_cpu", np.float64),
    ("used_memory", np.float64),
    ("requested_procs", np.int64),
    ("requested_time", np.float64),
    ("requested_memory", np.float64),
    ("status", np.int64),
    ("user", np.int64),
    ("group", np.int64),
    ("executable", np.int64),
    ("queue", np.int64),
    ("partition", np.int64),
    ("preceding_job", np.int64),
    ("think_time", np.float64),
)
_FIELD_COUNT = len(SWF_FIELDS)
_HEADER_LINE = re.compile(r"^;\s*(\w+):(?:\s+(.*?))?\s*$")
_LEADING_INT = re.compile(r"^[+-]?\d+")
_GZIP_MAGIC = b"\x1f\x8b"


class SWFError(ValueError):
    """A trace that cannot be read; the message is one line, ``<file>:<line>: <what>``."""


class SWFFileNotFoundError(SWFError, FileNotFoundError):
    """The trace file does not exist; the message names the path."""


@dataclass(frozen=True, eq=False)
class SWFTrace:
    """One SWF trace: its header and one read-only array per field, in file order.

    ``header`` maps each header key to its value; a key given several times
    (``Queue``, ``Note``) and continuation comment lines are joined with newlines.
    ``max_procs`` and ``unix_start_time`` are the parsed header values, ``None``
    when absent or negative.
    """

    path: str
    header: dict[str, str]
    max_procs: int | None
    unix_start_time: int | None
    job_number: np.ndarray
    submit: np.ndarray
    wait: np.ndarray
    run_time: np.ndarray
    allocated_procs: np.ndarray
    avg_cpu: np.ndarray
    used_memory: np.ndarray
    requested_procs: np.ndarray
    requested_time: np.ndarray
    requested_memory: np.ndarray
    status: np.ndarray
    user: np.ndarray
    group: np.ndarray
    executable: np.ndarray
    queue: np.ndarray
    partition: np.ndarray
    preceding_job: np.ndarray
    think_time: np.ndarray

    def __len__(self) -> int:
        return len(self.job_number)

    @property
    def max_nodes(self) -> int | None:
        """The header's ``MaxNodes`` (leading integer), ``None`` when absent or negative."""
        return _header_int(self.header, "MaxNodes")

    @property
    def time_zone_string(self) -> str | None:
        """The header's ``TimeZoneString`` (e.g. ``US/Eastern``), ``None`` when absent."""
        return self.header.get("TimeZoneString")


#: The largest trace read (plain, or once unzipped): the archive's largest logs are tens of MiB.
MAX_TRACE_BYTES = 2**30


def read_swf(path: str | os.PathLike) -> SWFTrace:
    """Read an SWF trace (plain or gzip), cached by (path, mtime, size).

    Raises :class:`SWFFileNotFoundError` for a missing file and :class:`SWFError`
    (one line, ``<file>:<line>: <what>``) for a malformed one.
    """
    absolute, stat = readable_trace(path, "SWF trace file")
    return _read_swf_cached(absolute, stat.st_mtime_ns, stat.st_size)


def readable_trace(path: str | os.PathLike, what: str = "trace file") -> tuple[str, os.stat_result]:
    """The absolute path of a trace file and its ``stat``, once it is known to be a regular file of
    at most :data:`MAX_TRACE_BYTES` that can be read; else :class:`SWFFileNotFoundError` (no such
    ``what``) or :class:`SWFError`, one line starting with the path."""
    absolute = os.path.abspath(os.fspath(path))
    try:
        stat = os.stat(absolute)
    except FileNotFoundError:
        raise SWFFileNotFoundError(f"{absolute}: no such {what}") from None
    except OSError as error:
        raise SWFError(f"{absolute}: cannot read: {error.strerror}") from None
    if problem := cannot_read_whole(stat, MAX_TRACE_BYTES, "trace"):
        raise SWFError(f"{absolute}: {problem}")
    return absolute, stat


@functools.lru_cache(maxsize=8)
def _read_swf_cached(path: str, mtime_ns: int, size: int) -> SWFTrace:
    """Parse ``path``; ``mtime_ns`` and ``size`` only key the cache."""
    lines = _read_text(path).splitlines()
    is_comment = [line.lstrip().startswith(";") for line in lines]
    data_line_numbers = [
        number
        for number, (line, comment) in enumerate(zip(lines, is_comment, strict=True), 1)
        if not comment and line.strip()
    ]
    header_end = data_line_numbers[0] - 1 if data_line_numbers else len(lines)
    header = _parse_header(lines[:header_end])
    table = _parse_jobs(path, lines, data_line_numbers)
    columns = {}
    for index, (name, dtype) in enumerate(SWF_FIELDS):
        column = table[:, index].astype(dtype)
        column.flags.writeable = False
        columns[name] = column
    return SWFTrace(
        path=path,
        header=header,
        max_procs=_header_int(header, "MaxProcs"),
        unix_start_time=_header_int(header, "UnixStartTime"),
        **columns,
    )


def _read_text(path: str) -> str:
    """The file's text, gunzipped when it starts with the gzip magic number."""
    try:
        with open(path, "rb") as file:
            raw = file.read()
        if raw.startswith(_GZIP_MAGIC):
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unzipped:
                raw = unzipped.read(MAX_TRACE_BYTES + 1)
            if len(raw) > MAX_TRACE_BYTES:
                raise SWFError(f"{path}: over {MAX_TRACE_BYTES >> 20} MiB once unzipped, the most a "
                               "trace may have")
    except (OSError, EOFError, zlib.error) as error:
        raise SWFError(f"{path}: cannot read: {error}") from None
    return raw.decode("utf-8", errors="replace")


def _parse_header(comment_lines: list[str]) -> dict[str, str]:
    """``; Key: value`` lines into a dict; other comment lines continue the last key."""
    header: dict[str, str] = {}
    last_key = None
    for line in comment_lines:
        match = _HEADER_LINE.match(line.strip())
        if match:
            last_key, value = match.group(1), match.group(2) or ""
            header[last_key] = f"{header[last_key]}\n{value}" if last_key in header else value
            continue
        text = line.strip().lstrip(";").strip()
        if text and last_key is not None:
            header[last_key] = f"{header[last_key]}\n{text}"
    return header


def _header_int(header: dict[str, str], key: str) -> int | None:
    """The leading integer of ``header[key]`` (``"338 (batch partition)"`` -> 338)."""
    match = _LEADING_INT.match(header.get(key, ""))
    if match is None or int(match.group()) < 0:
        return None
    return int(match.group())


def _parse_jobs(path: str, lines: list[str], data_line_numbers: list[int]) -> np.ndarray:
    """The job lines as a float64 table of shape (jobs, 18), checked.

    ``np.loadtxt`` parses well-formed input in C; on any failure, or on a value
    it accepts but SWF does not (non-finite, fractional integer field), the slow
    line-by-line check finds the first bad line and raises for it.
    """
    if not data_line_numbers:
        return np.empty((0, _FIELD_COUNT))
    data_lines = [lines[number - 1] for number in data_line_numbers]
    try:
        table = np.loadtxt(data_lines, dtype=np.float64, comments=None, ndmin=2)
    except ValueError:
        table = None
    if table is None or table.shape[1] != _FIELD_COUNT or not _values_valid(table):
        _raise_first_error(path, data_lines, data_line_numbers)
    return table


_INTEGER_COLUMNS = np.array([dtype is np.int64 for _, dtype in SWF_FIELDS])
#: The largest integer field read exactly (a float64 holds integers exactly up to 2**53).
_LARGEST_INTEGER = 2**53


def _values_valid(table: np.ndarray) -> bool:
    integers = table[:, _INTEGER_COLUMNS]
    return bool(np.isfinite(table).all() and (integers == np.round(integers)).all()
                and (np.abs(integers) <= _LARGEST_INTEGER).all())


def _raise_first_error(path: str, data_lines: list[str], data_line_numbers: list[int]) -> NoReturn:
    """Raise :class:`SWFError` for the first malformed job line (slow; errors only)."""
    for line, number in zip(data_lines, data_line_numbers, strict=True):
        tokens = line.split()
        if len(tokens) != _FIELD_COUNT:
            raise SWFError(f"{path}:{number}: expected {_FIELD_COUNT} fields, found {len(tokens)}")
        for token, (name, dtype) in zip(tokens, SWF_FIELDS, strict=True):
            where = f"{path}:{number}: field {name}"
            try:
                value = float(token)
            except ValueError:
                raise SWFError(f"{where} is not a number: {token!r}") from None
            if not np.isfinite(value):
                raise SWFError(f"{where} is not finite: {token!r}")
            if dtype is np.int64 and value != round(value):
                raise SWFError(f"{where} must be an integer: {token!r}")
            if dtype is np.int64 and abs(value) > _LARGEST_INTEGER:
                raise SWFError(f"{where} is too large: {token!r} (at most 2**53)")
    raise SWFError(f"{path}: cannot parse the job lines")
