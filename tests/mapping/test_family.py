"""The mapping family through the engine: a small sweep, recorded schedules, bad input (exit 2)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.engine.dataset import reproducible
from tests.mapping._util import FAMILY

SMALL = ["engine.backend=serial", "replications=2", "progress=false", "plots=false",
         "workload.size=30", "system.processors=8"]
#: The options of a run that fails on its input, before anything is computed.
SERIAL = ["engine.backend=serial", "replications=1", "progress=false", "plots=false"]


def test_every_mapper_in_one_grid(tmp_path):
    ds = sweep.run([f"grid.policy=[{','.join(FAMILY.policies)}]", "workload=random_dag",
                    "system=ipg00_random100", *SMALL, f"output={tmp_path / 'm.nc'}"])
    assert list(ds["policy"].values) == list(FAMILY.policies)
    assert (ds["makespan"] > 0).all() and (ds["tasks"] == 30).all()
    assert ds["mapping_seconds"].attrs["reproducible"] == "no"
    s = ds["sequential_time"].squeeze()
    assert (s == s.isel(policy=0)).all()  # common random numbers: every mapper gets the same graphs
    assert (ds["clustering_operations"].sel(policy="cluster_m") > 0).all()
    assert (ds["clustering_operations"].sel(policy="heft") == 0).all()


def test_recorded_schedule_replays(tmp_path):
    ds = sweep.run(["policy=heft", "workload=topcuoglu2002", "system=full3", "record_jobs=true",
                    "engine.backend=serial", "replications=1", "progress=false", "plots=false",
                    f"output={tmp_path / 'g.nc'}"])
    point = ds.squeeze()
    finish = point["task_finish"].values[:10]
    assert np.nanmax(finish) == 80 == float(point["makespan"])
    assert np.count_nonzero(~np.isnan(point["edge_data"].values)) == 15
    assert np.nansum(point["processor_speed"].values) == 3


def test_stg_workloads_run():
    ds = sweep.run(["policy=etf", "workload=stg_robot", "system=topology", "system.size=[2,2]",
                    "engine.backend=serial", "replications=1", "progress=false", "plots=false"])
    assert int(ds["tasks"].squeeze()) == 88
    assert float(ds["critical_path"].squeeze()) == 569


def test_a_cyclic_graph_file(tmp_path, error_line):
    path = tmp_path / "cyclic.json"
    path.write_text(json.dumps({"weights": [1, 1, 1], "edges": [[0, 1, 1], [1, 2, 1], [2, 0, 1]]}))
    out = tmp_path / "never.nc"
    line = error_line([*SERIAL, "policy=heft", "workload=task_graph_file", f"workload.path={path}",
                                    "system=topology", f"output={out}"])
    assert "cyclic.json" in line and "cycle" in line and not out.exists()


def test_a_file_that_is_not_stg(tmp_path, error_line):
    path = tmp_path / "notes.stg"
    path.write_text("this is not a task graph\n")
    line = error_line([*SERIAL, "policy=heft", "workload=stg_robot", f"workload.path={path}",
                                    "system=topology"])
    assert "notes.stg:1" in line and "STG" in line


@pytest.mark.parametrize("doc, what", [
    ({"speed": [1, 1, 1], "links": [[0, 1, 1]]}, "disconnected"),
    ({"speed": [1, 0, 1], "links": [[0, 1, 1], [1, 2, 1]]}, "speed 0"),
])
def test_bad_system_files(tmp_path, error_line, doc, what):
    path = tmp_path / "system.json"
    path.write_text(json.dumps(doc))
    line = error_line([*SERIAL, "policy=mh", "system=system_file", f"system.path={path}",
                                    "workload=random_dag", "workload.size=10"])
    assert "system.json" in line and what in line


@pytest.mark.parametrize("args, what", [
    (["policy=cluster_m", "policy.split=middle"], "policy.split"),
    (["policy=heft", "workload.size=0"], "workload.size"),
    (["policy=heft", "system.topology=ring"], "system.topology"),
    (["policy=heft", "workload=topcuoglu2002"], "cost"),
    (["policy=heft", "workload=exponential"], "workload.kind"),
])
def test_bad_options(error_line, args, what):
    defaults = ["workload=random_dag", "system=topology"]
    assert what in error_line([*SERIAL, *defaults, *args])


def test_two_runs_give_identical_reproducible_variables(tmp_path):
    design = ["grid.policy=[cluster_m,mh,map_random]", "workload=random_dag", "system=ipg00_random100",
              "system.seed=null", *SMALL]
    first = sweep.run([*design, f"output={tmp_path / 'a.nc'}"])
    second = sweep.run([*design, f"output={tmp_path / 'b.nc'}"])
    kept = reproducible(first)
    assert "makespan" in kept and "mapping_seconds" not in kept
    xr.testing.assert_identical(kept, reproducible(second))
