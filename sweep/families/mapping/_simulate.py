"""The mapping family's entry points: validate, simulate (the engine contract), and the executor.

``simulate`` draws from three children of the replication's generator, in
this order for every mapper (common random numbers): the task graph, the system graph
(when ``system.seed`` is null) and the mapper's own numbers. The clustering
phase (if the mapper has one) and the mapping are timed apart
(``clustering_seconds``, ``mapping_seconds``; wall clock, not reproducible)
and counted in operations (reproducible). The plan is then run by
:func:`execute`.

``record_jobs=true`` stores, on the ``job`` dimension padded with NaN to the
longest of them: per task ``task_weight``, ``task_processor``,
``task_start``, ``task_finish``; per edge ``edge_src``, ``edge_dst``,
``edge_data``; per processor ``processor_speed``; per link ``link_a``,
``link_b``, ``link_bandwidth`` — enough to replay the instance elsewhere and to
draw a Gantt chart (``sweep.papers.ipg00.mapping.gantt``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from sweep.families import Point, Policy, Result, Variable, load_families
from sweep.families.mapping._core import _execute
from sweep.families.mapping._instance import Instance, build, channel_tables, instance
from sweep.families.mapping._policy import Plan
from sweep.workloads.task_graphs import SystemGraph, TaskGraph, TaskGraphError, critical_path, routes

VARIABLES = (
    Variable("makespan", "time units", "T_m: execution time of the mapping (the executor's makespan)"),
    Variable("planned_makespan", "time units", "the makespan the mapper predicted (NaN if none)"),
    Variable("sequential_time", "time units", "T_s: total computation at speed 1 (sum of task weights)"),
    Variable("speedup", "1", "S_m = T_s / T_m"),
    Variable("efficiency", "1", "eta = S_m / N_m"),
    Variable("processors_used", "1", "N_m: processors given at least one task", dtype="int64"),
    Variable("critical_path", "time units",
             "longest path of computation at the fastest speed, no communication (a lower bound of T_m)"),
    Variable("tasks", "1", "M: tasks in the graph", dtype="int64"),
    Variable("mapping_operations", "1", "elementary steps of the mapper (deterministic T_c)",
             dtype="int64"),
    Variable("clustering_operations", "1", "elementary steps of the clustering phase (0 if none)",
             dtype="int64"),
    Variable("execution_operations", "1", "elementary steps of the executor", dtype="int64"),
    Variable("mapping_seconds", "s", "T_c: wall-clock time of the mapping", reproducible=False),
    Variable("clustering_seconds", "s", "T_cm - T_c: wall-clock time of the clustering (0 if none)",
             reproducible=False),
)


def _policy_of(point: Point) -> Policy:
    return load_families()["mapping"].policy(point)


def validate(point: Point) -> None:
    """One-line ``ValueError`` for a bad option or input file, before anything runs."""
    policy = _policy_of(point)
    policy.make_params(point.policy)
    try:  # builds one instance: every option, file and graph checked (cycles, connectivity, speeds)
        build(point.workload, point.system, np.random.default_rng(0), np.random.default_rng(0))
    except TaskGraphError as error:
        raise ValueError(str(error)) from None


def order_of(inst: Instance, key: np.ndarray) -> np.ndarray:
    """The global order: by ``key``, ties by topological position (a topological order if the key is a
    feasible schedule's start times)."""
    position = np.empty(inst.tasks, dtype=np.int64)
    position[inst.arrays.topo] = np.arange(inst.tasks)
    return np.lexsort((position, key)).astype(np.int64)


def _check_order(inst: Instance, order: np.ndarray) -> None:
    position = np.empty(inst.tasks, dtype=np.int64)
    position[order] = np.arange(inst.tasks)
    g = inst.graph
    if g.edges and np.any(position[g.src] >= position[g.dst]):
        e = int(np.argmax(position[g.src] >= position[g.dst]))
        raise ValueError(f"the plan runs task {g.dst[e]} before its predecessor {g.src[e]}")


def execute(inst: Instance, plan: Plan) -> tuple[np.ndarray, np.ndarray, int]:
    """Run ``plan`` on the instance (``_core`` module docstring): start, finish, operations."""
    proc = np.ascontiguousarray(plan.proc, dtype=np.int64)
    if proc.shape != (inst.tasks,) or proc.min() < 0 or proc.max() >= inst.processors:
        raise ValueError(f"a plan names a processor outside 0..{inst.processors - 1}")
    order = order_of(inst, np.asarray(plan.key, dtype=np.float64))
    _check_order(inst, order)
    m = inst.tasks
    start, finish = np.zeros(m), np.zeros(m)
    indeg = int(np.diff(inst.arrays.pstart).max()) if m else 0
    buf = np.zeros(max(indeg, 1), dtype=np.int64)
    log_c, log_i = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    for tables in channel_tables(inst):
        ops = _execute(order, proc, inst.arrays, start, finish, np.zeros(inst.processors), *tables,
                       buf, log_c, log_i)
        if ops >= 0:
            return start, finish, int(ops)
    raise AssertionError("a channel holds more reservations than there are edges")


def metrics(inst: Instance, plan: Plan, finish: np.ndarray) -> dict[str, Any]:
    """The CSSE00 §2.1 metrics of an executed plan."""
    makespan = float(finish.max())
    seq = float(inst.graph.weight.sum())
    used = int(len(np.unique(plan.proc)))
    speedup = seq / makespan if makespan > 0 else float("nan")
    fastest = inst.arrays.exec_time.min(axis=1)
    return {"makespan": makespan, "planned_makespan": float(plan.planned), "sequential_time": seq,
            "speedup": speedup, "efficiency": speedup / used, "processors_used": used,
            "critical_path": critical_path(inst.graph, fastest), "tasks": inst.tasks}


def _timed(function, *args):
    begin = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - begin


_WARM: set[tuple[str, str]] = set()


def _warm_up(policy: Policy, params: Any) -> None:
    """Run the mapper once on a 3-task graph, once per process: T_c then times the algorithm, not
    the loading of its compiled code."""
    key = (policy.name, repr(params))
    if key in _WARM:
        return
    graph = TaskGraph(np.ones(3), np.array([0, 0]), np.array([1, 2]), np.ones(2))
    system = SystemGraph(np.ones(2), np.array([0]), np.array([1]), np.ones(1))
    tiny = instance(graph, system, routes(system), True)
    clusters = policy.hooks.cluster(tiny, params)[0] if policy.hooks.cluster else None
    execute(tiny, policy.hooks.map(tiny, params, np.random.default_rng(0), clusters))
    _WARM.add(key)


def run(inst: Instance, policy: Policy, params: Any, rng: np.random.Generator | None
        ) -> tuple[Plan, dict[str, Any], np.ndarray, np.ndarray]:
    """Cluster (if the mapper does), map, execute: the plan, the summary, start and finish times."""
    _warm_up(policy, params)
    hooks = policy.hooks
    clusters, cluster_ops, cluster_s = None, 0, 0.0
    if hooks.cluster is not None:
        (clusters, cluster_ops), cluster_s = _timed(hooks.cluster, inst, params)
    plan, map_s = _timed(hooks.map, inst, params, rng, clusters)
    start, finish, exec_ops = execute(inst, plan)
    summary = metrics(inst, plan, finish)
    summary.update(mapping_operations=int(plan.ops), clustering_operations=int(cluster_ops),
                   execution_operations=exec_ops, mapping_seconds=map_s, clustering_seconds=cluster_s)
    return plan, summary, start, finish


def _padded(columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    length = max(len(c) for c in columns.values())
    out = {}
    for name, column in columns.items():
        padded = np.full(length, np.nan)
        padded[:len(column)] = column
        out[name] = padded
    return out


def records(inst: Instance, plan: Plan, start: np.ndarray, finish: np.ndarray) -> dict[str, np.ndarray]:
    """The per-task, per-edge, per-processor and per-link columns of ``record_jobs`` (module docstring)."""
    g, s = inst.graph, inst.system
    return _padded({"task_weight": g.weight, "task_processor": plan.proc.astype(np.float64),
                    "task_start": start, "task_finish": finish, "edge_src": g.src.astype(np.float64),
                    "edge_dst": g.dst.astype(np.float64), "edge_data": g.data,
                    "processor_speed": s.speed, "link_a": s.a.astype(np.float64),
                    "link_b": s.b.astype(np.float64), "link_bandwidth": s.bandwidth})


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication: draw the instance, map it, execute the mapping (module docstring)."""
    policy = _policy_of(point)
    params = policy.make_params(point.policy)
    rng_graph, rng_system, rng_policy = rng.spawn(3)
    inst = build(point.workload, point.system, rng_graph, rng_system)
    plan, summary, start, finish = run(inst, policy, params, rng_policy)
    jobs = records(inst, plan, start, finish) if point.record_jobs else None
    return Result(summary=summary, jobs=jobs, work=inst.tasks)
