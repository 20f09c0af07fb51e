"""Checkpoint shards next to the result file, so an interrupted sweep resumes (docs/design.md §3 step 4).

Records are appended as numbered shards under ``<output>.partial/``, each
written to a temporary name and renamed (``os.replace`` is atomic), so a
``kill -9`` at any instant leaves only whole shards. A shard is data, never
code: an ``.npz`` archive of plain arrays read with ``allow_pickle=False``, the
records column by column (:class:`~sweep.engine.records.RecordBatch`: a few
arrays per variable, whatever the number of records), names, kinds and
attributes as JSON text (:func:`encode_records`, :func:`decode_records`), so opening a checkpoint found
in a shared folder cannot run anything. A manifest holds the
sweep's fingerprint; rerunning the same command finds the shards, skips the
tasks they hold and computes the rest. Once the Dataset is written the folder
is removed.

The folder holds one sweep (issue 30): a manifest of another sweep is refused
when the sweep starts and before every shard is written, and each run names its
shards with its own random prefix, so two runs can never write the same shard.
A shard that cannot be written (a full disk) keeps its records in memory, to be
written with the next shard; the runner says where they went if the disk never
frees (:meth:`Checkpoint.rescue`). Records read back are checked against the
grid (a point or replication it does not have is one line) and a record saved
twice counts once.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from sweep.config.compose import ConfigError
from sweep.engine.records import Column, Record, RecordBatch, concat


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder (removed if the write
    fails: a full disk is not filled further by what could not be written)."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


#: Layout of the shards; a checkpoint of another layout is refused with one line.
FORMAT = "columnar-1"
_PARTS = ("summary", "jobs")
_ROW_ARRAYS = ("index", "replication", "work", "seconds", "has_jobs", "attrs_id")


def encode_records(records: RecordBatch | Iterable[Record]) -> bytes:
    """Records as an ``.npz`` archive of plain arrays, a few per column (no pickle).

    The per-row arrays (index, replication, work, seconds, ...) and each
    column's rows, values and lengths are arrays; the column names and kinds,
    texts and attribute dicts are JSON text. Its size and the time to write it
    are linear in the records, whatever their number.
    """
    batch = RecordBatch.of(records)
    arrays: dict[str, np.ndarray] = {name: getattr(batch, name) for name in _ROW_ARRAYS}
    columns = []
    for part in _PARTS:
        for n, ((name, kind), column) in enumerate(getattr(batch, part).items()):
            prefix = f"{part}{n}"
            arrays[f"{prefix}:rows"] = column.rows
            entry: dict[str, Any] = {"part": part, "name": name, "kind": kind, "prefix": prefix}
            if column.kind == "str":
                entry["texts"] = column.values
            else:
                arrays[f"{prefix}:values"] = column.values
            if column.lengths is not None:
                arrays[f"{prefix}:lengths"] = column.lengths
            if column.shapes is not None:
                entry["shapes"] = column.shapes
            columns.append(entry)
    arrays["structure"] = np.array(json.dumps({"format": FORMAT, "columns": columns,
                                               "attrs": batch.attrs_table}))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def decode_records(data: bytes) -> RecordBatch:
    """The records of :func:`encode_records`, exactly (iterating gives each value its Python type)."""
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        structure = json.loads(str(archive["structure"]))
        if structure.get("format") != FORMAT:
            raise ValueError(f"shard layout {structure.get('format')!r}, expected {FORMAT!r}")
        rows = {name: archive[name] for name in _ROW_ARRAYS}
        parts: dict[str, dict[tuple[str, str], Column]] = {part: {} for part in _PARTS}
        for entry in structure["columns"]:
            prefix, kind = entry["prefix"], entry["kind"].split(":")[0]
            values = entry["texts"] if kind == "str" else archive[f"{prefix}:values"]
            lengths = archive[f"{prefix}:lengths"] if f"{prefix}:lengths" in archive.files else None
            shapes = [tuple(shape) for shape in entry["shapes"]] if "shapes" in entry else None
            parts[entry["part"]][(entry["name"], entry["kind"])] = Column(
                kind, archive[f"{prefix}:rows"], values, lengths, shapes)
    return RecordBatch(rows["index"], rows["replication"], rows["work"], rows["seconds"],
                       np.zeros(len(rows["index"]), dtype=np.int64), parts["summary"], parts["jobs"],
                       rows["has_jobs"], structure["attrs"], rows["attrs_id"])


class Checkpoint:
    """Shards of records for one output file and one sweep fingerprint."""

    def __init__(self, output: Path, fingerprint: str, flush_seconds: float) -> None:
        self.folder = output.with_name(output.name + ".partial")
        self.fingerprint = fingerprint
        self.flush_seconds = flush_seconds
        self._unsaved: list[RecordBatch] = []
        self._last_flush = time.monotonic()
        self._run = secrets.token_hex(4)  # this run's shard prefix: no other run writes its names
        self._next_shard = 0
        self._write_failing = False  # said once until a shard is written again

    @property
    def manifest(self) -> Path:
        return self.folder / "manifest.json"

    def load(self, points: int, replications: int) -> RecordBatch:
        """Records saved by an earlier run of the same sweep (none when there is no checkpoint), each
        (point, replication) once; ``points`` and ``replications`` are the grid's, to check them against.

        A folder left by a *different* sweep is an error rather than silently
        mixed in or deleted: the user chooses.
        """
        if not self.manifest.exists():
            return RecordBatch.empty()
        self._check_manifest()
        records = []
        for shard in sorted(self.folder.glob("shard-*.npz")):
            try:
                records.append(decode_records(shard.read_bytes()))
            except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as error:
                raise ConfigError(f"{shard} is not a readable checkpoint shard ({error}); "
                                  "remove it to recompute its runs") from None
            _check_rows(shard, records[-1], points, replications)
        return _first_of_each(concat(records), replications)

    def _check_manifest(self) -> None:
        """The folder's manifest must be this sweep's (one line, else)."""
        try:
            saved = json.loads(self.manifest.read_text())
            fingerprint, layout = saved["fingerprint"], saved.get("format")
        except (OSError, ValueError, KeyError, TypeError):
            raise ConfigError(f"{self.manifest} is not a checkpoint manifest; remove {self.folder} to "
                              "recompute its runs") from None
        if fingerprint != self.fingerprint:
            raise ConfigError(f"{self.folder} holds a checkpoint of a different sweep; "
                              "remove it or choose another output")
        if layout != FORMAT:
            raise ConfigError(f"{self.folder} holds a checkpoint in an older layout; remove it to "
                              "recompute its runs")

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.manifest.exists():
            self._check_manifest()
        else:
            described = {"fingerprint": self.fingerprint, "format": FORMAT}
            atomic_write_bytes(self.manifest, json.dumps(described).encode())

    def add(self, records: RecordBatch | Iterable[Record]) -> None:
        """Queue records; write a shard when ``flush_seconds`` have passed since the last."""
        self._unsaved.append(RecordBatch.of(records))
        if time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Write the queued records as one shard; on a write error keep them queued (said once)."""
        self._last_flush = time.monotonic()
        if not self._unsaved:
            return
        self._check_manifest()
        shard = self.folder / f"shard-{self._run}-{self._next_shard:06d}.npz"
        try:
            atomic_write_bytes(shard, encode_records(concat(self._unsaved)))
        except OSError as error:
            if not self._write_failing:
                print(f"sweep: cannot write the checkpoint in {self.folder} ({error.strerror or error}); "
                      "the finished runs are kept in memory and written when it can be", file=sys.stderr)
            self._write_failing = True
            return
        self._next_shard += 1
        self._unsaved = []
        self._write_failing = False

    def rescue(self) -> Path | None:
        """After a failed final write: the records still only in memory, saved as a checkpoint shard
        beside the output or, if that fails too, under the temporary folder (returned; None when there
        was nothing to save). A shard put elsewhere resumes once moved into the checkpoint folder."""
        with contextlib.suppress(ConfigError):  # the folder is gone or holds another sweep's: elsewhere
            self.flush()
        if not self._unsaved:
            return self.folder if any(self.folder.glob("shard-*.npz")) else None
        fallback = Path(tempfile.gettempdir()) / f"sweep-{self.fingerprint[:16]}.partial"
        fallback.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(fallback / f"shard-{self._run}-{self._next_shard:06d}.npz",
                           encode_records(concat(self._unsaved)))
        return fallback

    def remove(self) -> None:
        """The sweep is written: drop the folder and whatever was not saved yet."""
        self._unsaved = []
        shutil.rmtree(self.folder, ignore_errors=True)


def _check_rows(shard: Path, records: RecordBatch, points: int, replications: int) -> None:
    """Every record of a shard names a point and a replication of this grid."""
    bad = (records.index < 0) | (records.index >= points) | (records.replication < 0) | \
        (records.replication >= replications)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ConfigError(f"{shard} holds a run (point {records.index[row]}, replication "
                          f"{records.replication[row]}) that this sweep of {points} points x {replications} "
                          "replications does not have; remove it to recompute its runs")


def _first_of_each(records: RecordBatch, replications: int) -> RecordBatch:
    """The records with each (point, replication) once: a shard saved twice counts once."""
    keys = records.index * replications + records.replication
    _, first = np.unique(keys, return_index=True)
    return records if len(first) == len(records) else records.take(np.sort(first))
