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
"""

from __future__ import annotations

import io
import json
import os
import shutil
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from sweep.config.compose import ConfigError
from sweep.engine.records import Column, Record, RecordBatch, concat


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


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
        self._next_shard = 0

    def load(self) -> RecordBatch:
        """Records saved by an earlier run of the same sweep (none when there is no checkpoint).

        A folder left by a *different* sweep is an error rather than silently
        mixed in or deleted: the user chooses.
        """
        manifest = self.folder / "manifest.json"
        if not manifest.exists():
            return RecordBatch.empty()
        saved = json.loads(manifest.read_text())
        if saved["fingerprint"] != self.fingerprint:
            raise ConfigError(f"{self.folder} holds a checkpoint of a different sweep; "
                              "remove it or choose another output")
        if saved.get("format") != FORMAT:
            raise ConfigError(f"{self.folder} holds a checkpoint in an older layout; remove it to "
                              "recompute its runs")
        records = []
        shards = sorted(self.folder.glob("shard-*.npz"))
        for shard in shards:
            try:
                records.append(decode_records(shard.read_bytes()))
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
                raise ConfigError(f"{shard} is not a readable checkpoint shard ({error}); "
                                  "remove it to recompute its runs") from None
        self._next_shard = 1 + max((int(s.stem.split("-")[1]) for s in shards), default=-1)
        return concat(records)

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self.folder / "manifest.json"
        if not manifest.exists():
            described = {"fingerprint": self.fingerprint, "format": FORMAT}
            atomic_write_bytes(manifest, json.dumps(described).encode())

    def add(self, records: RecordBatch | Iterable[Record]) -> None:
        """Queue records; write a shard when ``flush_seconds`` have passed since the last."""
        self._unsaved.append(RecordBatch.of(records))
        if time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        if self._unsaved:
            shard = self.folder / f"shard-{self._next_shard:06d}.npz"
            atomic_write_bytes(shard, encode_records(concat(self._unsaved)))
            self._next_shard += 1
            self._unsaved = []
        self._last_flush = time.monotonic()

    def remove(self) -> None:
        """The sweep is written: drop the folder and whatever was not saved yet."""
        self._unsaved = []
        shutil.rmtree(self.folder, ignore_errors=True)
