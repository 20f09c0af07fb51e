"""Work conservation and the three families' invariants, together, on whole runs of the salad loop
(issue 26): the balancing family's (every task ran its life once, nothing left in transit or in a
queue, each PE's slices are busy, idle or overhead), the mapping family's (a task starts after its
inputs arrive, a job after its release), the gang family's (a PE runs one task a slice; the held
PE-slices are busy or idle) and the trace's count of busy slices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep.families import Point, StopRule
from sweep.families.balancing._core import DONE
from sweep.families.salad import _simulate as salad
from sweep.families.salad._loop import BUSY, HELD, IDLE, IDLE_WITH_WORK, SLICES
from sweep.families.salad._machine import system_of
from sweep.families.salad._workload import applications, arrivals, job_classes, spawned_tasks, workload_of

KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"
MESH16 = {"topology": "mesh", "pes": 16, "rows": 4, "cols": 4, "bandwidth": 2.0, "trace_slices": 20000}
JOBS = 150


def whole_run(balancer, scheduler, pe_order, seed, mix=None):
    """One run as ``simulate`` does it (12-task graphs spawning half as many again, KTH's arrivals at
    load 0.6, the jobs' classes drawn from ``mix``), returning what the invariants read."""
    pt = Point({"name": "ipg_salad", "balancer": balancer, "scheduler": scheduler, "pe_order": pe_order,
                "mapper": "heft"},
               {"kind": "dag_jobs", "size": 12, "applications": 8, "spawn": 0.5, "trace": KTH, "mix": mix},
               MESH16, 0.6,
               StopRule(jobs=JOBS, warmup=0))
    stages, system, workload = salad.stages_of(pt), system_of(pt.system), workload_of(pt.workload)
    rng_graphs, rng_jobs, rng_mapper = np.random.default_rng(seed).spawn(3)
    apps = [salad.map_application(g, system, stages, rng_mapper) for g in applications(workload, rng_graphs)]
    spawns = spawned_tasks(workload, [m.graph for m in apps], rng_graphs)
    chosen = rng_jobs.integers(0, len(apps), size=JOBS)
    work = np.array([m.graph.weight.sum() + s.life.sum() for m, s in zip(apps, spawns, strict=True)])[chosen]
    arrival = arrivals(work, pt.load, system.pes, rng_jobs, workload)
    classes = job_classes(workload, JOBS, rng_jobs)
    sim, _, jobs, tasks, gang = salad.run(stages, system, apps, chosen, arrival, 10**6, spawns, classes)
    return system, apps, chosen, sim, jobs, tasks, gang


@pytest.mark.parametrize("balancer", ["no_balancing", "rate_of_change", "sender_diffusion"])
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
@pytest.mark.parametrize("pe_order", ["mapper", "round_robin"])
@pytest.mark.parametrize("mix", [None, {"compute": 1, "io": 1, "sync": 1}])
def test_every_invariant_holds_together(balancer, scheduler, pe_order, mix):
    system, apps, chosen, sim, jobs, tasks, gang = whole_run(balancer, scheduler, pe_order, 5, mix)
    slices_run = int(gang.counts[SLICES])
    # work conservation (the balancing family's check_outcome): every task ran its life, once
    assert (sim.status == DONE).all() and np.array_equal(sim.age, sim.life) and (sim.rem == 0).all()
    assert sim.executed[0] == sim.life.sum() and sim.n_transit[0] == 0 and not sim.load.any()
    assert sim.done[0] == len(sim.life) and (jobs.end >= 0).all()
    # a PE does one thing a slice: runs a task, pays overhead or idles
    assert np.array_equal(sim.busy + sim.idle + sim.ovh, np.full(system.pes, slices_run))
    assert sim.migrated[0] >= sim.migrations[0] and sim.hops_moved[0] >= sim.migrated[0]
    if balancer == "no_balancing":
        assert sim.migrated[0] == 0 and sim.messages[0] == 0
    # the gang matrix's counters: a held PE-slice is busy (or paying overhead) or idle
    counts = gang.counts
    assert counts[BUSY] + counts[IDLE] == counts[HELD] and counts[IDLE_WITH_WORK] <= counts[IDLE]
    assert counts[BUSY] == sim.busy.sum() + sim.ovh.sum()  # a PE works only while some job is held
    # the trace: one job a PE a slice, as many busy PE-slices as the PEs counted
    assert slices_run <= gang.trace_job.shape[0]
    assert int((gang.trace_job >= 0).sum()) == int(sim.busy.sum())
    # the mapping family's precedence, as far as ends show it: no task ends before its inputs arrived
    # and its life ran after, nor before its job's release and its life; its data leave when it ends
    latest_start = sim.finish - sim.life
    mapped = tasks.spawned == 0
    assert (latest_start[mapped] >= tasks.ready[mapped]).all()
    assert (latest_start >= jobs.mapped[tasks.job]).all()
    bw = system.routes.bandwidth
    for x in range(len(sim.life)):
        for e in range(tasks.sstart[x], tasks.sstart[x + 1]):
            y, data = tasks.sdst[e], tasks.sdata[e]
            p, q = sim.tr_dst[x] if sim.tr_dst[x] >= 0 else tasks.place[x], tasks.place[y]
            assert tasks.ready[y] >= sim.finish[x] + (0 if p == q else math.ceil(data / bw[p, q] - 1e-9))
    # a spawned task is born once its parent has run the slices that spawn it: after its job's
    # release and that many slices, and a job ends with its last task, spawned or not
    parent = np.repeat(np.arange(len(sim.life)), np.diff(sim.child_ptr))[np.argsort(sim.child, kind="stable")]
    spawned = np.flatnonzero(tasks.spawned == 1)
    assert spawned.size > 0 and np.array_equal(np.sort(sim.child), spawned)
    age = np.zeros(len(sim.life), np.int64)
    age[sim.child] = sim.child_age
    assert (latest_start[spawned] >= jobs.mapped[tasks.job[spawned]] + age[spawned]).all()
    assert (tasks.job[parent] == tasks.job[spawned]).all()
    last = np.zeros(len(jobs.end), np.int64)
    np.maximum.at(last, tasks.job, sim.finish)
    assert np.array_equal(last, jobs.end)
