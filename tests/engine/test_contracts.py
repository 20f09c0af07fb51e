"""The contracts of docs/design.md §4–§5: seeding, result file, resume, Ray vs serial (issue 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
import yaml

import sweep
from sweep.engine.dataset import reproducible

SMALL = ["grid.policy=[random,lwl,sita_e]", "grid.load=[0.5,0.8]", "workload=hyperexp2",
         "replications=2", "stop.jobs=20000", "stop.warmup=2000", "progress=false"]


def _run(tmp_path: Path, name: str, *extra: str) -> xr.Dataset:
    return sweep.run([*SMALL, f"output={tmp_path / name}", *extra])


def test_dataset_shape_labels_and_attributes(tmp_path):
    dataset = _run(tmp_path, "a.nc", "engine.backend=serial", "grid.system.hosts=[2,4]")
    assert list(dataset["mean_slowdown"].dims) == ["policy", "workload", "load", "hosts", "replication"]
    assert list(dataset["policy"].values) == ["random", "lwl", "sita_e"]
    assert list(dataset["workload"].values) == ["hyperexp2"]
    assert list(dataset["hosts"].values) == [2, 4]
    assert dataset["host_load_fraction"].sizes["host"] == 4
    assert np.isnan(dataset["host_load_fraction"].sel(hosts=2).isel(host=[2, 3])).all()
    for name in ("mean_response", "mean_wait", "mean_slowdown", "var_slowdown", "utilization", "jobs"):
        assert dataset[name].attrs["units"] and dataset[name].attrs["long_name"], name
    config = yaml.safe_load(dataset.attrs["config"])
    assert config["seed"] == dataset.attrs["seed"] and config["stop"]["jobs"] == 20000
    assert dataset.attrs["sweep_version"] == sweep.__version__
    assert (dataset["jobs"] == 20000).all()


def test_file_round_trips_to_the_returned_dataset(tmp_path):
    dataset = _run(tmp_path, "b.nc", "engine.backend=serial", "record_jobs=true")
    written = xr.load_dataset(tmp_path / "b.nc")
    xr.testing.assert_identical(written, dataset)
    assert written["saturated"].dtype == bool
    assert written.sizes["job"] == 20000
    assert not list(tmp_path.glob(".*tmp*")) and not list(tmp_path.glob("*.partial"))


def test_common_random_numbers_across_policies(tmp_path):
    """Every policy sees the same job stream: identical arrival and size columns."""
    dataset = _run(tmp_path, "c.nc", "engine.backend=serial", "record_jobs=true")
    for column in ("arrival", "size"):
        values = dataset[column]
        assert (values.sel(policy="random") == values.sel(policy="lwl")).all()
        assert (values.sel(policy="random") == values.sel(policy="sita_e")).all()
    assert not (dataset["size"].isel(replication=0) == dataset["size"].isel(replication=1)).all()


def test_seed_changes_the_streams(tmp_path):
    first = _run(tmp_path, "d1.nc", "engine.backend=serial", "seed=1")
    second = _run(tmp_path, "d2.nc", "engine.backend=serial", "seed=2")
    assert not np.allclose(first["mean_response"], second["mean_response"])


def _assert_same_results(path: Path, reference: Path) -> None:
    """The files hold identical results: only the run's own attributes (time, command) differ."""
    xr.testing.assert_identical(reproducible(xr.load_dataset(path)), reproducible(xr.load_dataset(reference)))


@pytest.mark.ray
def test_identical_serial_one_and_two_ray_workers(tmp_path, ray_session):
    serial = _run(tmp_path, "s.nc", "engine.backend=serial")
    one = _run(tmp_path, "r1.nc", "engine.backend=ray", "engine.workers=1")
    two = _run(tmp_path, "r2.nc", "engine.backend=ray", "engine.workers=2", "engine.batch_size=1")
    xr.testing.assert_identical(reproducible(serial), reproducible(one))
    xr.testing.assert_identical(reproducible(serial), reproducible(two))
    _assert_same_results(tmp_path / "s.nc", tmp_path / "r2.nc")


LONG = ["grid.policy=[random,lwl,sita_e,round_robin]", "grid.load=[0.3,0.4,0.5,0.6,0.7,0.8]",
        "workload=hyperexp2", "replications=3", "stop.jobs=300000", "stop.warmup=1000",
        "engine.batch_size=1", "engine.checkpoint_seconds=0", "progress=false"]


def _sweep_process(output: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sweep.cli", *LONG, f"output={output}", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _actor_pids() -> set[int]:
    found = subprocess.run(["pgrep", "-f", "ray::SimulationActor"], capture_output=True, text=True)
    return {int(pid) for pid in found.stdout.split()}


def _wait_for(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_resume_after_kill_9_gives_the_uninterrupted_file(tmp_path):
    reference = tmp_path / "reference.nc"
    sweep.run([*LONG, f"output={reference}", "engine.backend=serial"])
    output = tmp_path / "resumed.nc"
    process = _sweep_process(output, "engine.backend=serial")
    partial = output.with_name(output.name + ".partial")
    _wait_for(lambda: len(list(partial.glob("shard-*.npz"))) >= 5, timeout=120)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    shards = len(list(partial.glob("shard-*.npz")))
    assert not output.exists() and shards >= 5
    result = subprocess.run([sys.executable, "-m", "sweep.cli", *LONG, f"output={output}",
                             "engine.backend=serial", "progress=true"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "resumed from checkpoint" in result.stderr
    _assert_same_results(output, reference)
    assert not partial.exists()


def test_checkpoint_of_another_sweep_is_refused(tmp_path, capsys):
    from sweep.cli import main

    output = tmp_path / "x.nc"
    process = _sweep_process(output, "engine.backend=serial")
    partial = output.with_name(output.name + ".partial")
    _wait_for(lambda: len(list(partial.glob("shard-*.npz"))) >= 1, timeout=120)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    status = main([*LONG, "seed=7", f"output={output}", "engine.backend=serial"])
    assert status == 2
    assert "different sweep" in capsys.readouterr().err


@pytest.mark.ray
@pytest.mark.xdist_group("sweep_processes")  # one at a time: they find and signal the sweep's processes
def test_actor_killed_mid_sweep_is_replaced_and_its_batches_rerun(tmp_path):
    reference = tmp_path / "reference.nc"
    sweep.run([*LONG, f"output={reference}", "engine.backend=serial"])
    output = tmp_path / "killed.nc"
    others = _actor_pids()  # actors of this test session's own Ray, if any: not the sweep's
    process = _sweep_process(output, "engine.backend=ray", "engine.workers=2")
    partial = output.with_name(output.name + ".partial")
    _wait_for(lambda: len(list(partial.glob("shard-*.npz"))) >= 2, timeout=180)
    pids = sorted(_actor_pids() - others)
    assert pids, "no actor process of the sweep found"
    os.kill(pids[0], signal.SIGKILL)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert stderr.count("sweep: lost 1 worker ") == 1, stderr
    _assert_same_results(output, reference)


def test_job_dimension_is_labeled_by_the_trace_job_number(tmp_path):
    """Rigid runs record per-job arrays on a `job` dimension labeled by SWF field 1 (issue 4)."""
    dataset = sweep.run(["grid.policy=[easy,conservative]", "workload=kth", "system=sp2_128",
                         "record_jobs=true", "engine.backend=serial", "progress=false",
                         f"output={tmp_path / 'kth.nc'}"])
    assert dataset["job"].dtype.kind == "i" and "job_number" not in dataset
    assert dataset["job"].values[0] == 15  # the cleaned KTH log starts at job 15 (jobs <= 14 filtered)
    assert 27313 not in dataset["job"].values  # dropped: no positive processor count (docs/model-notes.md §2)
    assert (dataset["start"] >= dataset["submit"]).all()


def test_analytic_model_gives_a_dataset_of_the_same_shape(tmp_path):
    """model=analytic runs the closed forms over the same grid (issue 2 §3)."""
    grid = ["grid.policy=[random,lwl,sita_e,round_robin]", "grid.load=[0.5,0.8]", "workload=c90",
            "replications=2", "stop.jobs=20000", "stop.warmup=2000", "progress=false",
            "engine.backend=serial"]
    simulated = sweep.run([*grid, f"output={tmp_path / 'sim.nc'}"])
    analytic = sweep.run([*grid, "model=analytic", f"output={tmp_path / 'model.nc'}"])
    # a closed form has no batches of jobs: no batch means and no intervals of its own
    assert analytic.sizes == {d: n for d, n in simulated.sizes.items() if d != "batch"}
    assert set(analytic.data_vars) >= set(simulated.data_vars) - {"mean_response_hw90", "mean_slowdown_hw90",
                                                                  "batch_mean_response"}
    slowdown = analytic["mean_slowdown"].isel(replication=0).squeeze()
    # docs/model-notes.md §3 check values (E[W]·E[1/X], so mean slowdown is one more), 2 hosts, C90:
    expected = {("random", 0.5): 2091, ("lwl", 0.5): 697, ("sita_e", 0.5): 202,
                ("random", 0.8): 8364, ("lwl", 0.8): 3717, ("sita_e", 0.8): 808}
    for (policy, load), value in expected.items():
        assert float(slowdown.sel(policy=policy, load=load)) - 1 == pytest.approx(value, rel=0.002)
    assert np.isnan(slowdown.sel(policy="round_robin")).all()  # no closed form for E_h/G/1


def test_result_file_round_trips_with_cf_attributes(tmp_path):
    """Written, read back, identical; coordinates described, no _FillValue on them (issue 16 §6)."""
    import netCDF4
    import xarray as xr

    path = tmp_path / "r.nc"
    written = sweep.run(["engine.backend=serial", "policy=random", "grid.load=[0.5,0.9]",
                         "grid.system.hosts=[2,4]", "replications=2", "stop.jobs=2000",
                         "stop.warmup=200", "progress=false", "plots=false", f"output={path}"])
    read = xr.load_dataset(path)
    xr.testing.assert_identical(written, read)
    assert read.attrs["Conventions"].startswith("CF-")
    assert read.attrs["history"].endswith(read.attrs["command_line"])
    assert "numba" in read.attrs["software_versions"] and read.attrs["date_created"]
    for name in read.coords:
        assert read[name].attrs.get("long_name"), name
    assert read["load"].attrs["units"] == "1"
    assert "padded" in read["host"].attrs["long_name"]
    assert read["saturated"].attrs["flag_meanings"] == "steady_state saturated"
    with netCDF4.Dataset(path) as raw:
        assert all("_FillValue" not in raw[name].ncattrs() for name in read.coords)


@pytest.mark.ray
@pytest.mark.xdist_group("sweep_processes")
def test_sigterm_to_a_ray_sweep_is_one_line_and_resumes(tmp_path):
    """Issue 30 §3: SIGTERM printed Ray's stack dump and no line of sweep's."""
    output = tmp_path / "terminated.nc"
    process = _sweep_process(output, "engine.backend=ray", "engine.workers=2")
    partial = output.with_name(output.name + ".partial")
    _wait_for(lambda: len(list(partial.glob("shard-*.npz"))) >= 1, timeout=180)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert process.returncode == 130, stderr
    assert lines[-1] == "sweep: interrupted; run the same command again to resume"
    assert "SIGTERM received" not in stderr and "Traceback" not in stderr
    assert list(partial.glob("shard-*.npz")) and not output.exists()


def test_sweep_run_without_an_output_leaves_nothing_on_disk(tmp_path, monkeypatch):
    """Issue 29: ``sweep.run`` returns the Dataset and writes files only when ``output=`` is given."""
    monkeypatch.chdir(tmp_path)
    dataset = sweep.run(["engine.backend=serial", "grid.policy=[random,lwl]", "grid.load=[0.5,0.9]",
                         "replications=2", "stop.jobs=2000", "stop.warmup=200", "progress=false"])
    assert list(tmp_path.iterdir()) == []
    assert dataset["mean_response"].shape == (2, 1, 2, 2) and dataset["mean_response"].notnull().all()
