"""One output, one sweep; nothing finished lost (issue 30 §1): the lock, the fingerprint at every
start and shard, existing outputs, a full disk, damaged and duplicated shards."""

from __future__ import annotations

import dataclasses
import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.config.compose import ConfigError, compose
from sweep.config.grid import expand
from sweep.engine import runner
from sweep.engine.checkpoint import Checkpoint, encode_records
from sweep.engine.dataset import reproducible
from sweep.engine.records import Record
from sweep.engine.tasks import SimulationActor
from sweep.errors import WriteFailed

#: Six runs of a few milliseconds each, serial: a checkpoint shard after every batch.
SMALL = ["grid.policy=[random,lwl]", "grid.load=[0.5,0.8,0.9]", "replications=1", "stop.jobs=3000",
         "stop.warmup=300", "progress=false", "plots=false", "engine.backend=serial", "engine.batch_size=1",
         "engine.checkpoint_seconds=0"]


def _sweep(output: Path, *extra: str) -> xr.Dataset:
    return sweep.run([*SMALL, f"output={output}", *extra])


def _same(first: xr.Dataset, second: xr.Dataset) -> None:
    xr.testing.assert_identical(reproducible(first), reproducible(second))


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> xr.Dataset:
    """The sweep run once without trouble, to compare every rescued or resumed file with."""
    return _sweep(tmp_path_factory.mktemp("clean") / "clean.nc")


def _prepared(output: Path, *extra: str) -> runner.PreparedSweep:
    overrides = [*SMALL, f"output={output}", *extra]
    return runner.prepare(compose(overrides), overrides)


def _records(first: int, last: int) -> list[Record]:
    """The records of the sweep's tasks ``first`` to ``last - 1``, computed here."""
    cfg = compose(SMALL)
    tasks = runner.make_tasks(expand(cfg, SMALL), 1, int(cfg.seed))
    return list(SimulationActor().run_batch(tasks[first:last]))


def test_a_second_sweep_on_a_held_output_is_one_line_naming_the_holder(tmp_path, error_line):
    output = tmp_path / "held.nc"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from sweep.engine.output import claim_output; "
                               f"claim_output(Path({str(output)!r}), '', True); print('held', flush=True); "
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        line = error_line([*SMALL, f"output={output}"])
        assert "being written by another sweep" in line and f"pid {holder.pid}" in line
        assert not output.exists() and not output.with_name("held.nc.partial").exists()
    finally:
        holder.kill()
        holder.wait()
    _sweep(output)  # the holder is gone (kill -9 releases an flock): the output is free
    assert output.exists() and not output.with_name("held.nc.lock").exists()


def test_two_sweeps_of_one_run_may_not_share_an_output(tmp_path):
    with pytest.raises(ConfigError, match="named by two sweeps"):
        runner.run_many([_prepared(tmp_path / "a.nc"), _prepared(tmp_path / "a.nc", "seed=1")])
    _sweep(tmp_path / "a.nc", "seed=1")  # the failed run released the output


def test_an_existing_output_of_another_sweep_is_not_replaced(tmp_path, error_line):
    output = tmp_path / "out.nc"
    first = _sweep(output)
    before = output.read_bytes()
    line = error_line([*SMALL, f"output={output}", "seed=1"])
    assert "holds the results of a different sweep (seed 20000)" in line and "overwrite=true" in line
    assert output.read_bytes() == before
    _same(_sweep(output), first)  # the same sweep's output is computed again and replaced
    replaced = _sweep(output, "seed=1", "overwrite=true")
    assert replaced.attrs["seed"] == 1 and xr.load_dataset(output).attrs["seed"] == 1


def test_a_file_that_is_not_a_result_is_not_replaced(tmp_path, error_line):
    output = tmp_path / "notes.nc"
    output.write_text("my notes")
    assert "is not a sweep result" in error_line([*SMALL, f"output={output}"])
    assert output.read_text() == "my notes"


@pytest.mark.parametrize("case", ["folder", "under a file", "read-only folder"])
def test_an_output_that_cannot_be_written_is_refused_before_computing(tmp_path, error_line, case):
    if case == "folder":
        output, expected = tmp_path / "results.nc", "is a folder"
        output.mkdir()
    elif case == "under a file":
        (tmp_path / "file").write_text("")
        output, expected = tmp_path / "file" / "out.nc", "is a file, not a folder"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        (tmp_path / "ro").mkdir(mode=0o555)
        output, expected = tmp_path / "ro" / "out.nc", "cannot be written"
    assert expected in error_line([*SMALL, f"output={output}"])


def _interrupted_checkpoint(output: Path, runs: int, *extra: str) -> Checkpoint:
    """A checkpoint of the sweep's first ``runs`` tasks, as an interrupted run leaves it."""
    prepared = _prepared(output, *extra)
    prepared.lock.release()
    prepared.checkpoint.start()
    if runs:
        prepared.checkpoint.add(_records(0, runs))
        prepared.checkpoint.flush()
    return prepared.checkpoint


def test_a_checkpoint_whose_manifest_changed_is_refused_before_the_next_shard(tmp_path):
    checkpoint = _interrupted_checkpoint(tmp_path / "out.nc", 2)
    other = Checkpoint(tmp_path / "out.nc", "another sweep", 0.0)
    with pytest.raises(ConfigError, match="different sweep"):
        other.start()
    checkpoint.manifest.write_text('{"fingerprint": "another sweep", "format": "columnar-1"}')
    with pytest.raises(ConfigError, match="different sweep"):
        checkpoint.add(_records(2, 3))  # checkpoint_seconds=0: every batch is a shard
    assert len(list(checkpoint.folder.glob("shard-*.npz"))) == 1


def test_a_shard_saved_twice_counts_once(tmp_path, clean):
    output = tmp_path / "out.nc"
    checkpoint = _interrupted_checkpoint(output, 3)
    (shard,) = checkpoint.folder.glob("shard-*.npz")
    shutil.copy(shard, checkpoint.folder / "shard-copy-000000.npz")
    _same(_sweep(output), clean)


@pytest.mark.parametrize(("field", "value"), [("index", 999), ("index", -1), ("replication", 77)])
def test_a_shard_naming_a_run_the_grid_has_not_is_one_line(tmp_path, error_line, field, value):
    output = tmp_path / "out.nc"
    checkpoint = _interrupted_checkpoint(output, 1)
    records = [dataclasses.replace(record, **{field: value}) for record in _records(1, 2)]
    (checkpoint.folder / "shard-bad-000000.npz").write_bytes(encode_records(records))
    line = error_line([*SMALL, f"output={output}"])
    assert "does not have" in line and "6 points x 1 replications" in line


@pytest.mark.parametrize("manifest", ["", "{}", "[1,2]", "not json"])
def test_a_damaged_manifest_is_one_line(tmp_path, error_line, manifest):
    output = tmp_path / "out.nc"
    checkpoint = _interrupted_checkpoint(output, 1)
    checkpoint.manifest.write_text(manifest)
    assert "is not a checkpoint manifest" in error_line([*SMALL, f"output={output}"])


class _FullDisk:
    """``os.replace`` of a file under ``folder`` (but the checkpoint's manifest, written first) fails
    with ENOSPC while ``full``: a full disk refusing a temporary file's last block, at the one place
    every shard and result file goes through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
        self.folder, self.full, self.refused = folder, True, 0
        replace = os.replace

        def refusing(source, target, *args, **kwargs):
            target = Path(target)
            if self.full and self.folder in target.parents and target.name != "manifest.json":
                self.refused += 1
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
            return replace(source, target, *args, **kwargs)

        monkeypatch.setattr(os, "replace", refusing)

    def leftovers(self) -> list[str]:
        return [p.name for p in self.folder.rglob("*.tmp-*")]


def test_a_full_disk_loses_no_finished_run(tmp_path, monkeypatch, capsys, clean):
    folder = tmp_path / "full"
    folder.mkdir()
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(spare))
    output = folder / "out.nc"
    disk = _FullDisk(monkeypatch, folder)
    with pytest.raises(WriteFailed) as failure:
        _sweep(output)
    err = capsys.readouterr().err
    assert err.count("cannot write the checkpoint") == 1  # said once, not once per batch
    (rescued,) = spare.glob("sweep-*.partial")
    message = str(failure.value)
    assert f"saved in {rescued}" in message and "move its shards into" in message
    assert disk.refused > 1 and disk.leftovers() == [] and not output.exists()
    disk.full = False
    for shard in rescued.glob("shard-*.npz"):
        shard.rename(output.with_name("out.nc.partial") / shard.name)
    _same(_sweep(output), clean)


def test_shards_refused_for_a_while_are_written_when_space_returns(tmp_path, monkeypatch, capsys, clean):
    output = tmp_path / "out.nc"
    partial = output.with_name("out.nc.partial")
    disk = _FullDisk(monkeypatch, partial)
    checkpoint = _interrupted_checkpoint(output, 0)
    checkpoint.add(_records(0, 2))
    checkpoint.flush()
    assert "cannot write the checkpoint" in capsys.readouterr().err
    assert list(partial.glob("shard-*.npz")) == [] and disk.leftovers() == []
    disk.full = False
    checkpoint.add(_records(2, 3))
    checkpoint.flush()
    assert len(list(partial.glob("shard-*.npz"))) == 1
    assert len(checkpoint.load(6, 1)) == 3
    _same(_sweep(output), clean)


def test_the_lock_file_is_gone_after_a_sweep(tmp_path):
    _sweep(tmp_path / "out.nc")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.nc"]
    assert np.isfinite(xr.load_dataset(tmp_path / "out.nc")["mean_response"]).all()


def test_a_value_from_the_environment_is_stored_as_written_not_as_its_value(tmp_path, monkeypatch):
    """Issue 30 §2: ``${oc.env:NAME}`` was resolved into the file's config attribute."""
    folder = tmp_path / "s3cr3t-folder"
    folder.mkdir()
    trace = Path(sweep.__file__).parent / "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"
    shutil.copy(trace, folder / "kth.swf.gz")
    monkeypatch.setenv("TRACES", str(folder))
    output = tmp_path / "out.nc"
    dataset = sweep.run(["policy=easy", "workload=kth", "workload.path=${oc.env:TRACES}/kth.swf.gz",
                         "replications=1", "engine.backend=serial", "progress=false", f"output={output}"])
    assert "path: ${oc.env:TRACES}/kth.swf.gz" in dataset.attrs["config"]
    assert b"s3cr3t" not in output.read_bytes()
    assert dataset["mean_wait"].notnull().all()


def test_sweeps_without_an_output_in_one_second_get_their_own_files(tmp_path):
    """The default output is named by the second a sweep starts; a second sweep in that second
    (the tests did it) takes the next free name rather than being refused or replacing the first."""
    from sweep.cli import main

    run_dir = f"hydra.run.dir={tmp_path}"
    assert main([*SMALL, run_dir]) == 0
    assert main([*SMALL, run_dir, "seed=1"]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.nc")) == ["results-2.nc", "results.nc"]
    assert xr.load_dataset(tmp_path / "results.nc").attrs["seed"] == 20000
    assert xr.load_dataset(tmp_path / "results-2.nc").attrs["seed"] == 1
