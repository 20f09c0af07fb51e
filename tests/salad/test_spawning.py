"""Spawned tasks in the salad family, and its reduction to the balancing family (issue 26's check:
edgeless spawning tasks in one gang row equal the balancing family on the same tasks)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.balancing._simulate import run_policy
from sweep.families.balancing._tasks import Workload, draw_tasks, task_set
from sweep.families.salad import _simulate as salad
from sweep.families.salad._machine import system_of
from sweep.families.salad._workload import DagJobs, Spawned, spawned_tasks
from sweep.workloads.task_graphs import TaskGraph, random_dag
from tests.naive import salad as naive
from tests.salad._cases import random_jobs

FAMILY = load_families()["salad"]
MESH16 = {"topology": "mesh", "pes": 16, "rows": 4, "cols": 4, "latency": 0.1, "overhead": 0.02}
BALANCERS = ["no_balancing", "rate_of_change", "gradient", "sender_diffusion", "central_dispatcher"]


def point(system=None, workload=None, **policy) -> Point:
    return Point({"name": "ipg_salad", "balancer": "no_balancing", **policy},
                 {"kind": "dag_jobs", **(workload or {})}, system or MESH16, 0.5, StopRule(jobs=10, warmup=0))


def edgeless(life, place) -> salad.Mapped:
    """An application of edgeless tasks of ``life`` slices on the PEs ``place``, in task order."""
    m = len(life)
    graph = TaskGraph(np.asarray(life, float), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    return salad.Mapped(graph, np.asarray(place, np.int64), np.arange(m), 0, 0, float(max(life)))


def one_job(pt: Point, app: salad.Mapped, spawned: Spawned):
    """The salad loop on one job released at 0: the final balancing state and the job's end."""
    sim, _, jobs, _, _ = salad.run(salad.stages_of(pt), system_of(pt.system), [app], np.array([0]),
                                   np.array([0.0]), 10**6, [spawned])
    return sim, int(jobs.end[0])


@pytest.mark.parametrize(("pe_order", "finish"), [("mapper", [3, 5]), ("round_robin", [5, 4])])
def test_a_spawned_task_waits_for_the_mappers_order_or_takes_its_turn(pe_order, finish):
    """Task 0 (3 slices, PE 0) spawns task 1 (2 slices) when it has run 1 slice. In the mapper's
    order PE 0 runs task 0 to its end (slices 0-2), then task 1 (3-4): ends 3 and 5. In round robin,
    task 1 joins the queue's tail after slice 0 and they alternate: 0, 1, 0, 1 (ends at 4), 0 (ends
    at 5). The job ends at 5 both ways."""
    sim, end = one_job(point(pe_order=pe_order), edgeless([3], [0]),
                       Spawned(np.array([0]), np.array([1]), np.array([2])))
    assert sim.finish.tolist() == finish and end == 5


def test_spawned_tasks_are_the_balancing_familys_forest_over_the_graphs_tasks():
    """``spawn`` 0.5 on graphs of 10 tasks: 5 more each; every parent precedes its child and
    spawns it within its life (the balancing family's checks on a TaskSet), lives U{1..5}."""
    graphs = [random_dag(np.random.default_rng(s), 10) for s in range(3)]
    for graph, sp in zip(graphs, spawned_tasks(DagJobs(spawn=0.5), graphs, np.random.default_rng(0)),
                         strict=True):
        assert len(sp.life) == 5 and set(sp.life.tolist()) <= {1, 2, 3, 4, 5}
        life = np.concatenate([np.maximum(np.ceil(graph.weight), 1), sp.life]).astype(int)
        parent = np.concatenate([np.full(10, -1), sp.parent])
        task_set(life, parent, np.concatenate([np.zeros(10), sp.age]), np.where(parent < 0, 0, -1),
                 np.where(parent < 0, 0, -1))  # raises unless a forest spawned within its parents' lives
    assert spawned_tasks(DagJobs(), graphs, rng := np.random.default_rng(0))[0].life.size == 0
    assert rng.bit_generator.state == np.random.default_rng(0).bit_generator.state  # nothing drawn


@pytest.mark.parametrize("balancer", BALANCERS)
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
@pytest.mark.parametrize("seed", range(2))
def test_edgeless_spawning_tasks_in_one_gang_row_are_the_balancing_family(balancer, scheduler, seed):
    """The balancing family's own tasks (its asymmetric scenario: roots on half the PEs, a random
    recursive forest of spawned tasks) as one salad job of edgeless tasks placed on the roots' PEs,
    served round robin (``pe_order: round_robin``, the balancing family's executor): every task
    ends in the same slice, and the same messages, transfers, migrations and per-PE busy, idle and
    overhead slices are counted."""
    pt = point(balancer=balancer, scheduler=scheduler, pe_order="round_robin")
    system = system_of(pt.system)
    tasks = draw_tasks(Workload(scenario="asymmetric", tasks=600, roots=40, lifetime_cap=60), system.pes,
                       np.random.default_rng(seed))
    r = int((tasks.parent < 0).sum())
    policy = load_families()["balancing"].policies[balancer]
    want, _ = run_policy(policy, policy.make_params({}), system.machine, tasks)
    got, end = one_job(pt, edgeless(tasks.life[:r], tasks.home[:r]),
                       Spawned(tasks.parent[r:], tasks.spawn_age[r:], tasks.life[r:]))
    assert np.array_equal(got.finish, want.finish)
    assert end == want.makespan[0]
    for counter in ("messages", "migrations", "migrated", "hops_moved"):
        assert getattr(got, counter)[0] == getattr(want, counter)[0], counter
    for per_pe in ("busy", "idle", "ovh"):
        assert np.array_equal(getattr(got, per_pe), getattr(want, per_pe)), per_pe
    if balancer != "no_balancing":
        assert want.migrated[0] > 0  # the balancer did move tasks: the check is not vacuous


@pytest.mark.parametrize("balancer", ["rate_of_change", "gradient"])
@pytest.mark.parametrize("pe_order", ["mapper", "round_robin"])
def test_spawning_jobs_conserve_work_and_their_spawned_tasks_migrate(balancer, pe_order):
    pt = point(workload={"spawn": 1.0, "size": 10, "applications": 5}, balancer=balancer, pe_order=pe_order)
    pt = Point(pt.policy, pt.workload, pt.system, 0.6, StopRule(jobs=200, warmup=0))
    FAMILY.validate(pt)
    stages, system = salad.stages_of(pt), system_of(pt.system)
    workload = DagJobs(spawn=1.0, size=10, applications=5)
    rng = np.random.default_rng(1)
    apps = [salad.map_application(random_dag(rng, 10), system, stages, rng) for _ in range(5)]
    spawns = spawned_tasks(workload, [m.graph for m in apps], rng)
    chosen = rng.integers(0, 5, size=200)
    arrival = np.sort(rng.uniform(0, 400, size=200))
    sim, _, jobs, tasks, _ = salad.run(stages, system, apps, chosen, arrival, 10**6, spawns)
    assert (jobs.end >= 0).all() and np.array_equal(sim.age, sim.life)  # every task ran its life
    assert sim.executed[0] == sim.life.sum() == sum(apps[c].graph.weight.sum() + spawns[c].life.sum()
                                                    for c in chosen)
    spawned = tasks.spawned == 1
    assert spawned.sum() == 200 * 10 and (tasks.place[spawned] >= 0).all()  # each born on some PE
    assert (sim.tr_dst[spawned] >= 0).any()  # the balancer moved spawned tasks too
    end_of_job = np.zeros(200, np.int64)
    np.maximum.at(end_of_job, tasks.job, sim.finish)
    assert np.array_equal(end_of_job, jobs.end)  # a job ends with its last task, spawned or not
    result = FAMILY.simulate(pt, np.random.default_rng(0))  # the whole run, checked for work
    assert result.summary["jobs"] == 200 and not result.summary["saturated"]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
@pytest.mark.parametrize("pe_order", ["mapper", "round_robin"])
def test_spawning_jobs_match_the_naive_reference_task_by_task(seed, scheduler, pe_order):
    """Small random cases (2-6 jobs of 3-8-task graphs on a 2x2 mesh, each task spawning 0.6 more
    on average, data between tasks): every task's end, spawned or not, is the plain-Python
    reference's (``tests/naive/salad.py``), under both orders and both schedulers."""
    rng = np.random.default_rng(seed)
    mesh4 = {"topology": "mesh", "pes": 4, "rows": 2, "cols": 2, "bandwidth": 1.0}
    pt = point(mesh4, scheduler=scheduler, pe_order=pe_order, mapper=["heft", "map_random"][seed % 2])
    system, stages = system_of(pt.system), salad.stages_of(pt)
    apps, spawns, chosen, arrival = random_jobs(rng, system, stages)
    sim, _, jobs, _, _ = salad.run(stages, system, apps, chosen, arrival, 10**6, spawns)
    cases = [{"released": int(np.ceil(a)), "place": apps[c].place.tolist(), "rank": apps[c].rank.tolist(),
              "life": np.maximum(np.ceil(apps[c].graph.weight), 1).astype(int).tolist(),
              "edges": list(zip(apps[c].graph.src.tolist(), apps[c].graph.dst.tolist(),
                                apps[c].graph.data.tolist(), strict=True)),
              "spawned": list(zip(spawns[c].parent.tolist(), spawns[c].age.tolist(), spawns[c].life.tolist(),
                                  strict=True))}
             for c, a in zip(chosen, arrival, strict=True)]
    assert sum(len(s.life) for s in spawns) > 0
    local = scheduler == "concurrent_gang"
    end, finish = naive.run(cases, system.routes.bandwidth, system.pes, local, pe_order)
    assert sim.finish.tolist() == finish and jobs.end.tolist() == end
