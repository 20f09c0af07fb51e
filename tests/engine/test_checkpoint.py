"""Checkpoint shards are data, not code, and resume exactly (issue 18 §3)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.config.compose import ConfigError, compose
from sweep.config.grid import expand
from sweep.engine.checkpoint import Checkpoint, decode_records, encode_records
from sweep.engine.runner import make_tasks
from sweep.engine.tasks import Record, SimulationActor


def _same(first: Record, second: Record) -> None:
    assert (first.index, first.replication, first.work, first.attrs) == \
        (second.index, second.replication, second.work, second.attrs)
    assert first.summary.keys() == second.summary.keys()
    for name, value in first.summary.items():
        restored = second.summary[name]
        assert type(restored) is type(value) or (isinstance(value, np.generic)
                                                 and type(restored) is type(value.item()))
        np.testing.assert_array_equal(np.asarray(restored), np.asarray(value), strict=True)
    assert (first.jobs is None) == (second.jobs is None)
    for name, column in (first.jobs or {}).items():
        np.testing.assert_array_equal(second.jobs[name], column, strict=True)


def test_every_kind_of_value_round_trips_exactly():
    record = Record(3, 1, {"flag": True, "count": 7, "mean": 0.1 + 0.2, "nan": float("nan"), "note": "x",
                           "per_host": np.array([1.5, np.nan]), "np_float": np.float64(2.5),
                           "months": np.arange(12, dtype=np.int64)},
                    {"arrival": np.linspace(0, 1, 5), "size": np.arange(5, dtype=np.int32)}, 42,
                    {"trace_dropped_too_many_processors": 437, "source": "kth"})
    (restored,) = decode_records(encode_records([record]))
    _same(record, restored)


@pytest.mark.parametrize("args", [["policy=random", "record_jobs=true"], ["policy=easy", "record_jobs=true"],
                                  ["policy=eqs"], ["policy=heft"], ["policy=gang"]])
def test_records_of_the_families_round_trip(args):
    overrides = [*args, "stop.jobs=2000", "stop.warmup=200", "replications=1", "engine.backend=serial"]
    grid = expand(compose(overrides), overrides)
    records = SimulationActor().run_batch(make_tasks(grid, 1, 7)[:1])
    for original, restored in zip(records, decode_records(encode_records(records)), strict=True):
        _same(original, restored)


def test_a_shard_holds_no_pickle(tmp_path):
    """np.load with allow_pickle=False reads every entry: nothing in it is an object array."""
    checkpoint = Checkpoint(tmp_path / "out.nc", "fingerprint", 0.0)
    checkpoint.start()
    checkpoint.add([Record(0, 0, {"mean": 1.0}, None, 10)])
    (shard,) = checkpoint.folder.glob("shard-*.npz")
    with np.load(shard, allow_pickle=False) as archive:
        assert all(archive[name].dtype != object for name in archive.files)
    assert len(Checkpoint(tmp_path / "out.nc", "fingerprint", 0.0).load(1, 1)) == 1


@pytest.mark.parametrize("content", [b"not an archive", b""])
def test_a_damaged_shard_is_one_line(tmp_path, content):
    """Issue 30: a 0-byte shard was an EOFError traceback, not one line."""
    checkpoint = Checkpoint(tmp_path / "out.nc", "fingerprint", 0.0)
    checkpoint.start()
    (checkpoint.folder / "shard-000000.npz").write_bytes(content)
    with pytest.raises(ConfigError, match="not a readable checkpoint shard"):
        Checkpoint(tmp_path / "out.nc", "fingerprint", 0.0).load(1, 1)
