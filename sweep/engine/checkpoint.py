"""Checkpoint shards next to the result file, so an interrupted sweep resumes (DESIGN §3 step 4).

Records are appended as numbered pickle shards under ``<output>.partial/``, each
written to a temporary name and renamed (``os.replace`` is atomic), so a
``kill -9`` at any instant leaves only whole shards. A manifest holds the
sweep's fingerprint; rerunning the same command finds the shards, skips the
tasks they hold and computes the rest. Once the Dataset is written the folder
is removed.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

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
        shards = sorted(self.folder.glob("shard-*.pkl"))
        for shard in shards:
            records.extend(pickle.loads(shard.read_bytes()))
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
            shard = self.folder / f"shard-{self._next_shard:06d}.pkl"
            atomic_write_bytes(shard, pickle.dumps(self._unsaved, protocol=pickle.HIGHEST_PROTOCOL))
            self._next_shard += 1
            self._unsaved = []
        self._last_flush = time.monotonic()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
