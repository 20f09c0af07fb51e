"""The ``salad`` family's entry points: validate, simulate (the engine contract).

``simulate`` draws from three children of the replication's generator, in
this order for every combination of stages (common random numbers): the
applications' task graphs, the jobs (which graph, when), the mapper's own
numbers. Then:

1. **Stage 1, the static allocator** (CSSE00 §3.1): the mapper maps each
   application once, "under the assumption that the job just mapped would be
   the only job" (§3): on the empty machine, by the mapping family's policy
   (``policy.mapper``) and its hooks. Its plan gives each task a PE and each
   PE an order. Mapping a job takes its counted operations times
   ``policy.op_cost`` slices; the allocator maps one job at a time, in
   arrival order, so a job is released at ``max(its arrival, the previous
   job's release) + its mapping time``, rounded up to a slice. A mapper's
   clustering is charged as CSSE00 §3.1 says it is done, "only once for a
   given task (system) graph": the system graph's once per machine, before
   the first job (not charged to a job), a task graph's with the first job
   of its application (:func:`job_operations`).
2. **Stages 2 and 3** run in one compiled loop (``_loop``), with the
   balancing family's policy ``policy.balancer`` and the gang scheduler
   ``policy.scheduler``.

The first ``stop.warmup`` jobs are run but not measured; the run ends when
every job has ended, or is marked ``saturated`` when more than
``stop.max_in_system`` jobs are present at once (waiting for the allocator
included).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep._numba import record
from sweep.families import Point, Policy, Result, Variable, load_families
from sweep.families.balancing._core import ERRORS, OK, make_sim, run_with_room
from sweep.families.balancing._tasks import TaskSet
from sweep.families.gang._core import SETTINGS
from sweep.families.gang._simulate import job_state
from sweep.families.mapping._instance import instance
from sweep.families.mapping._simulate import order_of
from sweep.families.salad._loop import (
    COUNTS,
    SATURATED,
    STATUS,
    Classes,
    Gang,
    Tasks,
    new_jobs,
)
from sweep.families.salad._machine import SaladSystem, system_of
from sweep.families.salad._workload import (
    JobClasses,
    Spawned,
    applications,
    arrivals,
    check_workload,
    job_classes,
    slices,
    spawned_tasks,
    workload_of,
)
from sweep.workloads.task_graphs import TaskGraph, critical_path

VARIABLES = (
    Variable("mean_response_time", "slice", "mean time from a job's arrival to its last task's end "
             "(mapping included), measured jobs"),
    Variable("mean_slowdown", "1", "mean of response time over the job's critical path (computation "
             "only, speed 1), measured jobs"),
    Variable("jobs", "1", "jobs measured (after stop.warmup)", dtype="int64"),
    Variable("makespan", "slice", "time at which the last job ended (all jobs, warm-up included)"),
    Variable("idle_fraction", "1", "PE-slices idle while a job was present, over PE-slices with a job "
             "present"),
    Variable("idle_with_work_fraction", "1", "PE-slices idle while an eligible task waited in some "
             "queue (at most one per waiting task), over PE-slices with a job present"),
    Variable("mean_mapping_delay", "slice", "mean time from a job's arrival to its release by the "
             "allocator (waiting for it, then mapping), measured jobs"),
    Variable("mapping_operations", "1", "mean operations the allocator charged per job (mapping, and a "
             "task graph's clustering with its first job), measured and warm-up jobs"),
    Variable("messages", "1", "balancer's control messages sent", dtype="int64"),
    Variable("transfers", "1", "migration transfers (one or more tasks each)", dtype="int64"),
    Variable("tasks_migrated", "1", "task migrations (a task moved twice counts twice)", dtype="int64"),
    Variable("gangs_split", "1", "jobs of which the balancer moved at least one task off the PE the "
             "mapper chose", dtype="int64"),
    Variable("matrix_rows", "1", "most rows the gang matrix held at once", dtype="int64"),
    Variable("saturated", "1", "more than stop.max_in_system jobs were present at once (waiting for the "
             "allocator included): the run was stopped, its measures NaN", dtype="bool"),
    Variable("trace_job", "1", "the job each PE ran in each traced slice (-1: none; system.trace_slices)",
             dims=("trace_slice", "pe"), dtype="int64"),
    Variable("trace_migrations", "1", "tasks migrated in each traced slice", dims=("trace_slice",),
             dtype="int64"),
)


@dataclass(frozen=True)
class Stages:
    """One point's tool (the salad policy) and its stages: the mapper's and balancer's policies and
    parameters; ``params`` the tool's own."""

    tool: Policy
    mapper: Policy
    mapper_params: Any
    balancer: Policy
    balancer_params: Any
    scheduler: Policy
    params: Any


def stages_of(point: Point) -> Stages:
    """The point's stages; one-line ``ValueError`` for an unknown policy or a bad parameter."""
    families = load_families()
    tool = families["salad"].policy(point)
    params = tool.make_params(point.policy)
    mapper, balancer, scheduler = (_slot(families[family].policies, getattr(params, option), option, kind)
                                   for family, option, kind in (("mapping", "mapper", "a mapping"),
                                                                ("balancing", "balancer", "a balancing"),
                                                                ("gang", "scheduler", "a gang")))
    return Stages(tool, mapper, _stage_params(mapper, params.mapper_params, "mapper_params"),
                  balancer, _stage_params(balancer, params.balancer_params, "balancer_params"),
                  scheduler, params)


def _slot(policies: Mapping[str, Policy], name: str, option: str, kind: str) -> Policy:
    """The policy a slot names; one-line ``ValueError`` naming the family's policies otherwise."""
    if name not in policies:
        raise ValueError(f"policy.{option} must be {kind} policy ({', '.join(policies)}), got {name!r}")
    return policies[name]


def _stage_params(policy: Policy, section: Any, option: str) -> Any:
    try:
        return policy.make_params(dict(section or {}))
    except ValueError as error:
        raise ValueError(f"policy.{option}: {error}") from None


def validate(point: Point) -> None:
    """One-line ``ValueError`` for a bad option, before anything runs."""
    stages = stages_of(point)
    system = system_of(point.system)
    workload = workload_of(point.workload)
    check_workload(workload, point.stop.warmup + point.stop.jobs)  # graph files, the trace
    if stages.balancer.hooks.check is not None:
        stages.balancer.hooks.check(system.machine, stages.balancer_params)
    if point.model != "simulation":
        raise ValueError(f"model must be simulation for the salad family, got {point.model!r}")


@dataclass(frozen=True)
class Mapped:
    """One application as the allocator left it: its graph, PEs, order, critical path, and the
    operations counted mapping it (every job) and clustering its task graph (its first job)."""

    graph: TaskGraph
    place: np.ndarray
    rank: np.ndarray
    operations: int
    clustering: int
    critical_path: float


def map_application(graph: TaskGraph, system: SaladSystem, stages: Stages,
                    rng: np.random.Generator) -> Mapped:
    """Stage 1 for one application: the mapper's plan on the empty machine (module docstring)."""
    inst = instance(graph, system.graph, system.routes, contention=False)
    hooks, params = stages.mapper.hooks, stages.mapper_params
    clusters, cluster_ops = hooks.cluster(inst, params) if hooks.cluster else (None, 0)
    if hooks.system_clustering_operations is not None:
        cluster_ops -= hooks.system_clustering_operations(inst, params)
    plan = hooks.map(inst, params, rng, clusters)
    rank = np.empty(graph.tasks, np.int64)
    rank[order_of(inst, np.asarray(plan.key, np.float64))] = np.arange(graph.tasks)
    return Mapped(graph, np.asarray(plan.proc, np.int64), rank, int(plan.ops), int(cluster_ops),
                  critical_path(graph))


def job_operations(apps: list[Mapped], chosen: np.ndarray) -> np.ndarray:
    """The operations the allocator counts for each job: its application's mapping, plus the
    clustering of its task graph if it is the first job of that application (module docstring)."""
    operations = np.array([m.operations for m in apps], np.float64)[chosen]
    first = np.zeros(len(chosen), bool)
    first[np.unique(chosen, return_index=True)[1]] = True
    return operations + first * np.array([m.clustering for m in apps], np.float64)[chosen]


def _ranges(first: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The indices ``first[i] .. first[i] + count[i] - 1`` of every ``i``, one after the other."""
    starts = np.repeat(first - np.cumsum(count) + count, count)
    return starts + np.arange(int(count.sum()))


def _first(count: np.ndarray) -> np.ndarray:
    return np.cumsum(count) - count


def _app_tasks(app: Mapped, spawned: Spawned | None) -> dict[str, np.ndarray]:
    """One application's tasks, its graph's then those spawned at run time: rank, place (-1 for a
    spawned task: its parent's PE, known at run time), life, parent, spawn age, whether spawned."""
    m, extra = app.graph.tasks, 0 if spawned is None else len(spawned.life)
    empty = np.zeros(0, np.int64)
    return {"rank": np.concatenate([app.rank, m + np.arange(extra)]),
            "place": np.concatenate([app.place, np.full(extra, -1, np.int64)]),
            "life": np.concatenate([slices(app.graph.weight), spawned.life if extra else empty]),
            "parent": np.concatenate([np.full(m, -1, np.int64), spawned.parent if extra else empty]),
            "age": np.concatenate([np.zeros(m, np.int64), spawned.age if extra else empty]),
            "spawned": np.concatenate([np.zeros(m, np.int64), np.ones(extra, np.int64)])}


def _tasks(apps: list[Mapped], chosen: np.ndarray,
           spawns: list[Spawned] | None = None) -> tuple[Tasks, TaskSet]:
    """The jobs' tasks, numbered job after job (``_loop.Tasks``: each job's graph's tasks, then those
    it spawns), and the same tasks as the balancer sees them (a ``TaskSet``: lives in slices, the
    spawning forest, the mapper's PEs): each job's rows gathered from its application's, all
    applications' arrays end to end."""
    graphs = [m.graph for m in apps]
    per_app = [_app_tasks(m, spawns[a] if spawns else None) for a, m in enumerate(apps)]
    app_tasks = np.array([len(t["life"]) for t in per_app], np.int64)
    app_edges = np.array([g.edges for g in graphs], np.int64)
    count, edges = app_tasks[chosen], app_edges[chosen]
    job_first = _first(count)
    of_task = _ranges(_first(app_tasks)[chosen], count)  # each job task's row among the applications'
    of_edge = _ranges(_first(app_edges)[chosen], edges)
    shift = np.repeat(job_first, edges)  # an edge's task numbers, from its job's to the run's
    src = np.concatenate([g.src for g in graphs])[of_edge] + shift
    dst = np.concatenate([g.dst for g in graphs])[of_edge] + shift
    data = np.concatenate([g.data for g in graphs])[of_edge]
    n = int(count.sum())
    by_src = np.lexsort((dst, src))
    sstart = np.zeros(n + 1, np.int64)
    sstart[1:] = np.cumsum(np.bincount(src, minlength=n))
    column = {key: np.concatenate([t[key] for t in per_app])[of_task] for key in per_app[0]}
    tasks = Tasks(job=np.repeat(np.arange(len(chosen), dtype=np.int64), count), rank=column["rank"],
                  place=column["place"], npred=np.bincount(dst, minlength=n).astype(np.int64),
                  ready=np.zeros(n, np.int64), sstart=sstart, sdst=dst[by_src].astype(np.int64),
                  sdata=data[by_src].astype(np.float64), spawned=column["spawned"])
    child = column["parent"] >= 0
    parent = np.where(child, column["parent"] + np.repeat(job_first, count), -1)
    # the balancer's view: spawned tasks have no home and no release (the balancing family's TaskSet)
    taskset = TaskSet(column["life"], parent, column["age"], np.where(child, -1, column["place"]),
                      np.where(child, -1, 0))
    return tasks, taskset


def release_times(arrival: np.ndarray, operations: np.ndarray, op_cost: float) -> np.ndarray:
    """When the allocator releases each job: one job at a time, in arrival order (module docstring)."""
    released = np.empty(len(arrival))
    free = 0.0
    for j, (at, ops) in enumerate(zip(arrival, operations, strict=True)):
        free = max(at, free) + ops * op_cost
        released[j] = free
    return np.ceil(released - 1e-9)


def _gang(system: SaladSystem, stages: Stages, jobs: int, tasks: int, cap: int, t_max: int,
          spawning: bool) -> Gang:
    p = system.pes
    bw = system.routes.bandwidth.astype(np.float64)
    return Gang(own=np.full((max(jobs, 1), p), -1, np.int64), foot=np.zeros(p, np.int64),
                pend=np.zeros(max(tasks, 1), np.int64), bw=bw,
                local=int(stages.scheduler.hooks.local_scheduling),
                feedback=int(stages.params.feedback), rr=int(stages.params.pe_order == "round_robin"),
                spawning=int(spawning), cap=cap, t_max=t_max,
                trace_job=np.full((system.trace_slices, p), -1, np.int64),
                trace_moved=np.zeros(system.trace_slices, np.int64),
                counts=np.zeros(len(COUNTS), np.int64))


def class_state(classes: JobClasses | None, job_of: np.ndarray, life: np.ndarray, jobs: int) -> Classes:
    """The loop's ``Classes``: the gang family's state of the run's jobs (no live task yet: a task
    joins its job's live ones when it becomes eligible) and tasks; without classes, only the jobs'
    counters (every task computes)."""
    if classes is None:
        settings = record(SETTINGS)
        state = job_state(np.zeros(jobs), np.zeros(jobs, np.int64), np.zeros(jobs), np.zeros(jobs, np.int64),
                          np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((1, 2)), settings)
        return Classes(0, *state, np.zeros((1, 2)), settings)
    width = np.bincount(job_of, minlength=jobs).astype(np.int64)
    state = job_state(np.zeros(jobs), width, np.zeros(jobs), classes.cls, job_of, life, classes.pool,
                      classes.settings)
    state[0].alive[:] = 0
    return Classes(1, *state, classes.pool, classes.settings)


def run(stages: Stages, system: SaladSystem, apps: list[Mapped], chosen: np.ndarray,
        arrival: np.ndarray, cap: int,
        spawns: list[Spawned] | None = None,
        classes: JobClasses | None = None) -> tuple[Any, Any, Any, Tasks, Gang]:
    """Stages 2 and 3 on the given jobs (``spawns``: each application's spawned tasks, none if
    ``None``; ``classes``: the jobs' classes, every task computing if ``None``): the final states
    (Sim, balancer, jobs, tasks, matrix)."""
    tasks, taskset = _tasks(apps, chosen, spawns)
    life = taskset.life
    released = release_times(arrival, job_operations(apps, chosen), stages.params.op_cost)
    count = np.bincount(tasks.job, minlength=len(chosen)).astype(np.int64)
    n_tasks = len(life)
    t_max = int(20 * (life.sum() / system.pes + released.max(initial=0))) + 100_000
    loop = stages.tool.hooks.kernel(stages.balancer)

    def start(sim: Any) -> tuple[Any, Any, Tasks, Gang]:
        jobs = new_jobs(np.ceil(arrival).astype(np.int64), released.astype(np.int64), count)
        fresh = tasks._replace(npred=tasks.npred.copy(), ready=tasks.ready.copy(), place=tasks.place.copy())
        gang = _gang(system, stages, len(chosen), n_tasks, cap, t_max, bool(tasks.spawned.any()))
        pst = stages.balancer.hooks.make_state(system.machine, taskset, stages.balancer_params)
        loop(sim, pst, jobs, fresh, gang, class_state(classes, tasks.job, life, len(chosen)))
        return pst, jobs, fresh, gang

    # no roots: the loop releases every task itself (``_loop``, steps 1 and 2)
    sim, (pst, jobs, fresh, gang) = run_with_room(
        lambda pool: make_sim(system.machine, taskset, pool)._replace(roots=np.zeros(0, np.int64)), start)
    if sim.err[0] != OK:
        raise RuntimeError(f"salad: {ERRORS[int(sim.err[0])]}")
    return sim, pst, jobs, fresh, gang


def _check_work(sim: Any, jobs: Any) -> None:
    """Work conservation: every task ran exactly its life, every job ended."""
    ended = (jobs.end >= 0).all()
    if not ended or sim.executed[0] != sim.life.sum() or not np.array_equal(sim.age, sim.life):
        raise RuntimeError("salad: work not conserved")


def summarise(sim: Any, jobs: Any, tasks: Tasks, gang: Gang, arrival: np.ndarray,
              paths: np.ndarray, ops: np.ndarray, warmup: int) -> dict[str, Any]:
    """The declared variables of a finished run (module docstring)."""
    counts = dict(zip(COUNTS, gang.counts.tolist(), strict=True))
    measured = slice(warmup, None)
    response = jobs.end[measured] - arrival[measured]
    held = max(counts["held"], 1)
    moved_jobs = np.unique(tasks.job[sim.tr_dst >= 0])
    return {
        "mean_response_time": float(response.mean()),
        "mean_slowdown": float((response / paths[measured]).mean()),
        "jobs": int(response.size), "makespan": float(jobs.end.max()),
        "idle_fraction": counts["idle"] / held, "idle_with_work_fraction": counts["idle_with_work"] / held,
        "mean_mapping_delay": float((jobs.mapped[measured] - arrival[measured]).mean()),
        "mapping_operations": float(ops.mean()), "messages": int(sim.messages[0]),
        "transfers": int(sim.migrations[0]), "tasks_migrated": int(sim.migrated[0]),
        "gangs_split": int(moved_jobs.size), "matrix_rows": counts["rows_max"], "saturated": False,
        "trace_job": gang.trace_job, "trace_migrations": gang.trace_moved,
    }


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication (module docstring)."""
    stages = stages_of(point)
    system = system_of(point.system)
    workload = workload_of(point.workload)
    rng_graphs, rng_jobs, rng_mapper = rng.spawn(3)
    apps = [map_application(g, system, stages, rng_mapper) for g in applications(workload, rng_graphs)]
    spawns = spawned_tasks(workload, [m.graph for m in apps], rng_graphs)
    n = point.stop.warmup + point.stop.jobs
    chosen = rng_jobs.integers(0, len(apps), size=n)
    work = np.array([m.graph.weight.sum() + s.life.sum() for m, s in zip(apps, spawns, strict=True)])[chosen]
    arrival = arrivals(work, point.load, system.pes, rng_jobs, workload)
    classes = job_classes(workload, n, rng_jobs)
    sim, _, jobs, tasks, gang = run(stages, system, apps, chosen, arrival, point.stop.max_in_system, spawns,
                                    classes)
    if gang.counts[STATUS] == SATURATED:
        return Result(summary={"saturated": True, "trace_job": gang.trace_job,
                               "trace_migrations": gang.trace_moved}, work=n)
    _check_work(sim, jobs)
    paths = np.array([m.critical_path for m in apps])[chosen]
    ops = job_operations(apps, chosen)
    return Result(summary=summarise(sim, jobs, tasks, gang, arrival, paths, ops, point.stop.warmup), work=n)


def trace_labels(point: Point) -> np.ndarray:
    """The ``trace_slice`` coordinate: the slices of the trace diagram kept."""
    return np.arange(system_of(point.system).trace_slices)


def pe_labels(point: Point) -> np.ndarray:
    """The ``pe`` coordinate."""
    return np.arange(system_of(point.system).pes)
