"""The salad family's jobs from files: a trace's arrivals scaled to the offered load, task graphs read
by the mapping family's readers, and one line for a bad file or option."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.gang._core import IOCLASS
from sweep.families.salad._workload import (
    DagJobs,
    applications,
    arrivals,
    job_classes,
    scaled_to_load,
    trace_submits,
)
from sweep.workloads.task_graphs import read_stg

FAMILY = load_families()["salad"]
MESH4 = {"topology": "mesh", "pes": 4, "rows": 2, "cols": 2, "bandwidth": 1.0}
KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"
ROBOT, SPARSE = "sweep/data/task_graphs/robot.stg", "sweep/data/task_graphs/sparse.stg"


def swf(path, submits) -> str:
    """A Standard Workload Format file of one-processor jobs of 10 s at the given submit times."""
    lines = [f"{k + 1} {s} 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1" for k, s in enumerate(submits)]
    path.write_text("; a hand-made trace\n" + "\n".join(lines) + "\n")
    return str(path)


def point(workload=None, jobs=10, **policy) -> Point:
    return Point({"name": "ipg_salad", "balancer": "no_balancing", **policy},
                 {"kind": "dag_jobs", "size": 6, "applications": 3, **(workload or {})}, MESH4, 0.5,
                 StopRule(jobs=jobs, warmup=0))


def test_trace_gaps_are_scaled_so_the_offered_load_is_load():
    """Submits 100, 110, 130, 160 s, work 4, 8, 2, 6 on 2 PEs: the trace offers 20 / (2 * 60) = 1/6;
    at load 0.5 every gap is multiplied by (1/6) / 0.5 = 1/3, from 0."""
    got = scaled_to_load(np.array([100.0, 110, 130, 160]), np.array([4.0, 8, 2, 6]), 0.5, 2)
    assert got == pytest.approx([0.0, 10 / 3, 10.0, 20.0])
    assert 20 / (2 * got[-1]) == pytest.approx(0.5)


def test_trace_submits_are_sorted_windowed_and_unknown_ones_dropped(tmp_path):
    """Submits 30, 10, -1 (unknown), 20, 60: from trace_start 5 s after the first (10), the first
    two are 20 and 30; the window holds three, so four is one line naming the option."""
    workload = DagJobs(trace=swf(tmp_path / "t.swf", [30, 10, -1, 20, 60]), trace_start=5.0)
    assert trace_submits(workload, 2).tolist() == [20.0, 30.0]
    assert trace_submits(replace(workload, trace_start=0.0), 4).tolist() == [10.0, 20.0, 30.0, 60.0]
    with pytest.raises(ValueError, match=r"^workload.trace: .* has 3 jobs .* the run needs 4 "):
        trace_submits(workload, 4)


def test_a_shipped_trace_offers_load_and_draws_no_random_number():
    """KTH's first 500 submit times: the arrivals' gaps are the log's, scaled by one factor, their
    offered load is ``load``, and the jobs' generator is left as it was (common random numbers: the
    same graphs are chosen whatever the arrival process)."""
    rng = np.random.default_rng(7)
    work = rng.integers(20, 80, size=500).astype(float)
    before = rng.bit_generator.state
    got = arrivals(work, 0.7, 64, rng, DagJobs(trace=KTH))
    assert rng.bit_generator.state == before
    submit = trace_submits(DagJobs(trace=KTH), 500)
    assert got[0] == 0 and np.allclose(np.diff(got), np.diff(submit) * got[-1] / (submit[-1] - submit[0]))
    assert work.sum() / (64 * got[-1]) == pytest.approx(0.7)


def test_a_run_on_trace_arrivals_ends_every_job(tmp_path):
    pt = point({"trace": swf(tmp_path / "t.swf", [0, 5, 5, 40, 41, 90, 200, 201])}, jobs=8,
               balancer="rate_of_change")
    FAMILY.validate(pt)
    result = FAMILY.simulate(pt, np.random.default_rng(0))  # raises if work is not conserved
    assert result.summary["jobs"] == 8 and not result.summary["saturated"]


def test_graph_files_are_the_applications_read_by_the_mapping_familys_readers():
    """Two STG files, in the order given; STG carries no data, so each edge draws U{1..5}."""
    graphs = applications(DagJobs(graphs=[ROBOT, SPARSE]), np.random.default_rng(0))
    for graph, path in zip(graphs, (ROBOT, SPARSE), strict=True):
        read = read_stg(path)
        assert np.array_equal(graph.weight, read.weight) and np.array_equal(graph.src, read.src)
        assert set(np.unique(graph.data)) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    assert [g.tasks for g in graphs] == [88, 96]


def test_an_edge_list_file_runs_as_a_job(tmp_path):
    """A chain of three tasks of 2, 3, 1 slices, each task's data 0, arriving at 0 (a trace of one
    job has no span to scale): alone on the machine, with no balancer, the job is its critical path
    plus nothing: it ends at 6."""
    path = tmp_path / "chain.txt"
    path.write_text("task 0 2\ntask 1 3\ntask 2 1\nedge 0 1 0\nedge 1 2 0\n")
    pt = point({"graphs": [str(path)], "trace": swf(tmp_path / "t.swf", [50])}, jobs=1)
    FAMILY.validate(pt)
    summary = FAMILY.simulate(pt, np.random.default_rng(0)).summary
    assert summary["makespan"] == summary["mean_response_time"] == 6.0


@pytest.mark.parametrize(("workload", "match"), [
    ({"trace": "no/such.swf"}, r"^workload.trace: no such trace file: "),
    ({"trace": "BAD"}, r"^workload.trace: malformed trace: "),
    ({"trace": KTH, "trace_start": -1}, r"^workload.trace_start must be "),
    ({"graphs": ["no/such.stg"]}, r"^workload.graphs: no/such.stg: no such task graph file$"),
    ({"graphs": ROBOT}, r"^workload.graphs must be a non-empty list"),
    ({"graphs": []}, r"^workload.graphs must be a non-empty list"),
    ({"graphs": ["sweep/data/task_graphs/topcuoglu2002_example.json"]}, r"^workload.graphs: .* cost matrix"),
    ({"graphs": ["BAD"]}, r"^workload.graphs: .*bad.txt"),
    ({"mix": {"disk": 1}}, r"^workload.mix must map some of compute, io, sync"),
    ({"mix": {"io": 0}}, r"^workload.mix must map"),
    ({"io_wait": 0}, r"^workload.io_wait must be"),
])
def test_a_bad_file_or_option_is_one_line(tmp_path, workload, match):
    (tmp_path / "bad.txt").write_text("task 0 1\nedge 0 7\n")
    (tmp_path / "bad.swf").write_text("1 2 3\n")
    workload = {k: {"BAD": str(tmp_path / "bad.swf")}.get(v, v) if k == "trace" else v
                for k, v in workload.items()}
    if workload.get("graphs") == ["BAD"]:
        workload["graphs"] = [str(tmp_path / "bad.txt")]
    with pytest.raises(ValueError, match=match) as error:
        FAMILY.validate(point(workload))
    assert "\n" not in str(error.value)


def test_a_bad_trace_exits_2_on_the_command_line(capsys):
    from sweep.cli import main

    assert main(["policy=ipg_salad", "workload=salad_jobs", "system=salad_mesh64",
                 "workload.trace=no/such.swf", "progress=false", "plots=false"]) == 2
    assert "workload.trace: no such trace file" in capsys.readouterr().err


def test_job_classes_are_drawn_from_mix_only_when_it_is_given():
    """No mix: every job computes and nothing is drawn (the presets' streams stay as they were);
    a mix of io only: every job is io, its settings in slices, one slice a tick."""
    rng = np.random.default_rng(3)
    assert job_classes(DagJobs(), 50, rng) is None
    assert rng.bit_generator.state == np.random.default_rng(3).bit_generator.state
    classes = job_classes(DagJobs(mix={"io": 1.0}, io_wait=7.0), 50, rng)
    assert (classes.cls == IOCLASS).all() and classes.settings["io_wait"][0] == 7.0
    assert classes.settings["ticks"][0] == 1
