"""The gang family's task classes (compute, I/O, sync) in the salad loop, and its reduction to the
gang family (issue 26's check: no mapper, no balancer: the gang family's results on the same jobs)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep._numba import record
from sweep.families import Point, StopRule
from sweep.families.gang._core import COMPUTE, IOCLASS, SETTINGS, SYNC
from sweep.families.salad import _simulate as salad
from sweep.families.salad._machine import system_of
from sweep.testing.gang import run as gang_run
from sweep.workloads.task_graphs import TaskGraph
from tests.salad._cases import random_jobs

BEHAVIOUR = {"io_burst": 2.0, "io_wait": 3.0, "sync_phase": 4.0, "sync_imbalance": 0.5}


def mesh(pes: int) -> dict:
    return {"topology": "mesh", "pes": pes, "rows": 1, "cols": pes, "bandwidth": 1.0}


def full_width(pes: int, work: int) -> salad.Mapped:
    """A job of ``pes`` edgeless tasks of ``work`` slices, task ``k`` on PE ``k``: the gang family's
    first-fit packing of a job as wide as the machine (its row's lowest free PEs)."""
    graph = TaskGraph(np.full(pes, float(work)), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    return salad.Mapped(graph, np.arange(pes), np.arange(pes), 0, 0, float(work))


def salad_settings(gang_settings: np.ndarray) -> np.ndarray:
    """The gang family's settings record with only the fields the task mechanics read."""
    settings = record(SETTINGS)
    for name in SETTINGS.names:
        settings[name] = gang_settings[name]
    return settings


def point(scheduler: str, system: dict) -> Point:
    return Point({"name": "ipg_salad", "balancer": "no_balancing", "scheduler": scheduler},
                 {"kind": "dag_jobs"}, system, 0.5, StopRule(jobs=10, warmup=0))


def salad_run(pes, jobs, settings, pool, scheduler="gang"):
    pt = point(scheduler, mesh(pes))
    apps = [full_width(pes, w) for w in jobs["work"]]
    classes = salad.JobClasses(np.asarray(jobs["cls"], np.int64), pool, salad_settings(settings))
    return salad.run(salad.stages_of(pt), system_of(pt.system), apps, np.arange(len(apps)),
                     np.asarray(jobs["arrival"], float), 10**6, classes=classes)


@pytest.mark.parametrize("seed", range(12))
def test_no_mapper_and_no_balancer_is_the_gang_family(seed):
    """Jobs as wide as the machine (each its own row, task k on PE k: the gang family's packing, so
    the placement is the gang family's), classes compute, I/O and sync, deterministic lengths, one
    tick a slice, Gang: every job starts and ends in the slice the gang family's kernel says, and
    the busy PE-slices are the same."""
    rng = np.random.default_rng(seed)
    pes, n = int(rng.integers(2, 6)), int(rng.integers(2, 7))
    jobs = {"arrival": np.sort(rng.integers(0, 40, n)), "width": np.full(n, pes),
            "work": rng.integers(3, 25, n), "cls": rng.integers(0, 3, n)}
    want, settings = gang_run("gang", jobs, pes, 1, 2000, workload=BEHAVIOUR, deterministic=True)
    pool = np.random.default_rng(0).random((1 << 10, 2))
    sim, _, got, _, _ = salad_run(pes, jobs, settings, pool)
    assert (want.jobs.end >= 0).all()
    assert got.end.tolist() == want.jobs.end.tolist()
    assert int(sim.busy.sum()) == int(want.out["busy"][-1]) == int(np.sum(jobs["work"] * pes))
    if (jobs["cls"] == IOCLASS).any():  # the I/O waits matter: all computing, the ends differ
        computing = {**jobs, "cls": np.zeros(n, np.int64)}
        assert salad_run(pes, computing, settings, pool)[2].end.tolist() != got.end.tolist()


def test_an_io_task_blocks_its_pe_under_gang_and_lends_it_under_concurrent_gang():
    """Job A: one I/O task of 6 slices on PE 0 (bursts of 2, waits of 3, deterministic); job B: one
    compute task of 4 slices on PE 0; A holds row 0 (even slices), B row 1 (odd ones).

    Gang: A runs 0 and 2, then waits for its I/O until 2 + 1 + 3 = 6 (PE 0 idles in slice 4), runs
    6; B runs 1, 3, 5, 7 and ends at 8; alone from 8, A runs 8, waits until 12, runs 12, 13: ends
    at 14. Concurrent Gang: B also takes slice 4, A's idle slot, and ends at 6 (1, 3, 4, 5); A runs
    6, 7, waits until 11, runs 11, 12: ends at 13."""
    settings = salad_settings(gang_run("gang", {"arrival": [0], "width": [1], "work": [1]}, 1, 1, 10,
                                       workload=BEHAVIOUR, deterministic=True)[1])
    pool = np.zeros((1 << 10, 2))
    jobs = {"arrival": [0, 0], "work": [6, 4], "cls": [IOCLASS, COMPUTE]}
    ends = {}
    for scheduler in ("gang", "concurrent_gang"):
        pt = Point({"name": "ipg_salad", "balancer": "no_balancing", "scheduler": scheduler},
                   {"kind": "dag_jobs"}, mesh(2), 0.5, StopRule(jobs=10, warmup=0))
        apps = [full_width(1, 6), full_width(1, 4)]
        classes = salad.JobClasses(np.array(jobs["cls"]), pool, settings)
        _, _, got, _, _ = salad.run(salad.stages_of(pt), system_of(pt.system), apps, np.arange(2),
                                    np.zeros(2), 10**6, classes=classes)
        ends[scheduler] = got.end.tolist()
    assert ends == {"gang": [14, 8], "concurrent_gang": [13, 6]}


@pytest.mark.parametrize(("scheduler", "pe0"), [
    ("gang", [0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0]),
    ("concurrent_gang", [0, 0, 0, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1]),
])
def test_a_barrier_waits_for_every_live_task_of_the_job(scheduler, pe0):
    """Job A: sync, two tasks of 8 slices (phases of 4, deterministic) on PEs 0 and 1, row 0 (even
    slices); job B: compute, 6 slices on PE 1, row 1 (odd slices). Both end at 14 and 12 either
    way; what differs is PE 0.

    Gang: A's tasks run in step in A's slots, reach the barrier together after slice 6, go on at
    8, 10 and, alone from 12, 12 and 13. Concurrent Gang lends PE 0's empty odd slots to A's first
    task: it reaches the barrier after slice 3 and waits (4, 5, 6) until its partner, which runs
    only in even slots, arrives after slice 6; the barrier opens at 7; then it runs 7-10 and ends
    at 11 while its partner ends at 14."""
    settings = salad_settings(gang_run("gang", {"arrival": [0], "width": [1], "work": [1]}, 1, 1, 10,
                                       workload=BEHAVIOUR, deterministic=True)[1])
    pt = point(scheduler, {**mesh(2), "trace_slices": 14})
    apps = [full_width(2, 8), salad.Mapped(full_width(1, 6).graph, np.array([1]), np.array([0]), 0, 0, 6.0)]
    classes = salad.JobClasses(np.array([SYNC, COMPUTE]), np.zeros((1 << 10, 2)), settings)
    _, _, got, _, gang = salad.run(salad.stages_of(pt), system_of(pt.system), apps, np.arange(2), np.zeros(2),
                                   10**6, classes=classes)
    assert got.end.tolist() == [14, 12]
    assert gang.trace_job[:, 0].tolist() == pe0


def test_a_task_at_a_barrier_lets_its_partner_on_the_same_pe_run():
    """Job A: sync, two tasks of 8 slices (phases of 4, deterministic), both on PE 0, in the
    mapper's order 0 then 1. Task 0 runs 0-3 and waits at the barrier; the PE passes over it to
    task 1, which runs 4-7 and opens the barrier at 8; task 0 runs 8-11 (ends at 12), task 1
    12-15: the job ends at 16 (it would never end if the PE waited for task 0)."""
    settings = salad_settings(gang_run("gang", {"arrival": [0], "width": [1], "work": [1]}, 1, 1, 10,
                                       workload=BEHAVIOUR, deterministic=True)[1])
    app = salad.Mapped(full_width(2, 8).graph, np.array([0, 0]), np.array([0, 1]), 0, 0, 8.0)
    pt = point("gang", mesh(2))
    sim, _, got, _, _ = salad.run(salad.stages_of(pt), system_of(pt.system), [app], np.arange(1), np.zeros(1),
                                  10**6, classes=salad.JobClasses(np.array([SYNC]), np.zeros((1 << 10, 2)),
                                                                  settings))
    assert sim.finish.tolist() == [12, 16] and got.end.tolist() == [16]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
@pytest.mark.parametrize("pe_order", ["mapper", "round_robin"])
def test_classes_match_the_naive_reference_task_by_task(seed, scheduler, pe_order):
    """Small random cases (2-6 jobs of 3-8-task graphs with data on a 2x2 mesh, spawning, each
    job compute, I/O or sync, lengths at their means): every task's end is the plain-Python
    reference's (``tests/naive/salad.py``)."""
    from tests.naive import salad as naive

    rng = np.random.default_rng(100 + seed)
    pt = Point({"name": "ipg_salad", "balancer": "no_balancing", "scheduler": scheduler, "pe_order": pe_order,
                "mapper": ["heft", "map_random"][seed % 2]}, {"kind": "dag_jobs"},
               {"topology": "mesh", "pes": 4, "rows": 2, "cols": 2, "bandwidth": 1.0}, 0.5,
               StopRule(jobs=10, warmup=0))
    system, stages = system_of(pt.system), salad.stages_of(pt)
    apps, spawns, chosen, arrival = random_jobs(rng, system, stages)
    cls = rng.integers(0, 3, size=len(chosen))
    settings = record(SETTINGS)
    settings["io_burst"], settings["io_wait"], settings["sync_phase"] = 2.0, 3.0, 3.0
    settings["ticks"], settings["deterministic"] = 1, 1
    classes = salad.JobClasses(cls, np.zeros((1 << 10, 2)), settings)
    sim, _, jobs, _, _ = salad.run(stages, system, apps, chosen, arrival, 10**6, spawns, classes)
    cases = [{"released": int(np.ceil(a)), "place": apps[c].place.tolist(), "rank": apps[c].rank.tolist(),
              "life": np.maximum(np.ceil(apps[c].graph.weight), 1).astype(int).tolist(),
              "edges": list(zip(apps[c].graph.src.tolist(), apps[c].graph.dst.tolist(),
                                apps[c].graph.data.tolist(), strict=True)),
              "spawned": list(zip(spawns[c].parent.tolist(), spawns[c].age.tolist(), spawns[c].life.tolist(),
                                  strict=True)),
              "cls": ["compute", "io", "sync"][k]}
             for c, a, k in zip(chosen, arrival, cls, strict=True)]
    local = scheduler == "concurrent_gang"
    end, finish = naive.run(cases, system.routes.bandwidth, system.pes, local, pe_order,
                            {"burst": 2, "wait": 3, "phase": 3})
    assert sim.finish.tolist() == finish and jobs.end.tolist() == end
