"""Checkpoint shards next to the result file, so an interrupted sweep resumes (docs/design.md §3 step 4).

Records are appended as numbered shards under ``<output>.partial/``, each
written to a temporary name and renamed (``os.replace`` is atomic), so a
``kill -9`` at any instant leaves only whole shards. A shard is data, never
code: an ``.npz`` archive of plain arrays read with ``allow_pickle=False``, its
record structure (indices, attributes, the type of each value) as JSON text
(:func:`encode_records`, :func:`decode_records`), so opening a checkpoint found
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

from sweep.engine.config import ConfigError
from sweep.engine.tasks import Record


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


#: Python scalar types a record's value may have, by the name stored in the shard's JSON.
_SCALARS: dict[str, type] = {"bool": bool, "int": int, "float": float}


def _kind(value: Any) -> str:
    """How a summary value is stored: ``str`` in the JSON, a scalar type, or ``array``."""
    if isinstance(value, str):
        return "str"
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    return "array"


def encode_records(records: Iterable[Record]) -> bytes:
    """Records as an ``.npz`` archive: one array per value, the structure as JSON (no pickle)."""
    arrays: dict[str, np.ndarray] = {}
    structure = []
    for n, record in enumerate(records):
        kinds, texts = {}, {}
        for name, value in record.summary.items():
            kinds[name] = _kind(value)
            if kinds[name] == "str":
                texts[name] = value
            else:
                arrays[f"{n}:summary:{name}"] = np.asarray(value)
        jobs = None if record.jobs is None else list(record.jobs)
        for name in jobs or ():
            arrays[f"{n}:jobs:{name}"] = np.asarray(record.jobs[name])
        structure.append({"index": record.index, "replication": record.replication, "work": record.work,
                          "attrs": record.attrs, "kinds": kinds, "texts": texts, "jobs": jobs,
                          "seconds": record.seconds})
    arrays["structure"] = np.array(json.dumps(structure))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def decode_records(data: bytes) -> list[Record]:
    """The records of :func:`encode_records`, exactly (scalars back to their Python types)."""
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        structure = json.loads(str(archive["structure"]))
        records = []
        for n, entry in enumerate(structure):
            summary: dict[str, Any] = {}
            for name, kind in entry["kinds"].items():
                if kind == "str":
                    summary[name] = entry["texts"][name]
                elif kind == "array":
                    summary[name] = archive[f"{n}:summary:{name}"]
                else:
                    summary[name] = _SCALARS[kind](archive[f"{n}:summary:{name}"].item())
            jobs = None if entry["jobs"] is None else {
                name: archive[f"{n}:jobs:{name}"] for name in entry["jobs"]}
            records.append(Record(entry["index"], entry["replication"], summary, jobs, entry["work"],
                                  entry["attrs"], seconds=entry.get("seconds", 0.0)))
    return records


class Checkpoint:
    """Shards of records for one output file and one sweep fingerprint."""

    def __init__(self, output: Path, fingerprint: str, flush_seconds: float) -> None:
        self.folder = output.with_name(output.name + ".partial")
        self.fingerprint = fingerprint
        self.flush_seconds = flush_seconds
        self._unsaved: list[Record] = []
        self._last_flush = time.monotonic()
        self._next_shard = 0

    def load(self) -> list[Record]:
        """Records saved by an earlier run of the same sweep ([] when there is none).

        A folder left by a *different* sweep is an error rather than silently
        mixed in or deleted: the user chooses.
        """
        manifest = self.folder / "manifest.json"
        if not manifest.exists():
            return []
        saved = json.loads(manifest.read_text())["fingerprint"]
        if saved != self.fingerprint:
            raise ConfigError(f"{self.folder} holds a checkpoint of a different sweep; "
                              "remove it or choose another output")
        records = []
        shards = sorted(self.folder.glob("shard-*.npz"))
        for shard in shards:
            try:
                records.extend(decode_records(shard.read_bytes()))
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
                raise ConfigError(f"{shard} is not a readable checkpoint shard ({error}); "
                                  "remove it to recompute its runs") from None
        self._next_shard = 1 + max((int(s.stem.split("-")[1]) for s in shards), default=-1)
        return records

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self.folder / "manifest.json"
        if not manifest.exists():
            atomic_write_bytes(manifest, json.dumps({"fingerprint": self.fingerprint}).encode())

    def add(self, records: Iterable[Record]) -> None:
        """Queue records; write a shard when ``flush_seconds`` have passed since the last."""
        self._unsaved.extend(records)
        if time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        if self._unsaved:
            shard = self.folder / f"shard-{self._next_shard:06d}.npz"
            atomic_write_bytes(shard, encode_records(self._unsaved))
            self._next_shard += 1
            self._unsaved = []
        self._last_flush = time.monotonic()

    def remove(self) -> None:
        """The sweep is written: drop the folder and whatever was not saved yet."""
        self._unsaved = []
        shutil.rmtree(self.folder, ignore_errors=True)
