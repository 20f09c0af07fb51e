"""The jobs of the ``salad`` family: task graphs arriving one at a time (CSSE00 §3, §4).

CSSE00 §3: "jobs arrive one at a time, each a task graph"; the paper prints no
arrival process or graph sizes for the whole tool. RECONSTRUCTED here
(``docs/ipg00-salad.md``):

- ``applications`` distinct graphs, drawn by the mapping family's generator
  (:func:`~sweep.workloads.task_graphs.random_dag`: ``size`` tasks, ``fat``,
  ``density``, ``regularity``, ``jump``; weights and data U{1..5}, CSSE00
  Table 1's reconstruction); each job is one of them, chosen uniformly;
- Poisson arrivals whose rate makes the offered load ``load``: the mean work
  of the run's jobs, over ``P`` PEs, per unit of mean interarrival time.

Two options replace those reconstructions with files:

- ``trace``: an SWF log (or any format an installed reader claims,
  :func:`~sweep.workloads.traces.read_trace`), whose submit times are the
  arrivals: the run's ``n`` jobs arrive at the log's first ``n`` submit times
  from ``trace_start`` seconds after its first, shifted to start at 0 and
  their gaps scaled so that the offered load ``Σ work / (P · span)``, span the
  first to last arrival, is ``load``: the rigid family's rescaling of a
  trace (:func:`~sweep.families.rigid._jobs.offsets_at_load`; Feitelson &
  Mu'alem Weil 1998). Only the submit times are read: a job's work is its
  task graph's, not the log's run time. RECONSTRUCTED: CSSE00 names no trace.
- ``graphs``: task-graph files (the mapping family's readers,
  :func:`~sweep.families.mapping._instance.task_graph`: ``.stg`` STG, ``.json``
  JSON, any other suffix the edge list), one application each, in place of
  the ``applications`` random graphs; an STG file's edges get data from
  ``data`` (STG carries none), drawn once per replication.

Spawned tasks (``spawn`` > 0; CSSE00 §2.2: tasks "generated internally due
to the non-uniform nature of the applications", which the balancer moves
too, §3.2): each application of ``M`` tasks gets ``round(spawn · M)`` more,
the balancing family's random recursive forest with the graph's tasks as
its roots (:func:`~sweep.families.balancing._tasks.spawn_forest`: task
``k`` spawned by a task uniform among ``0..k-1``, when that one has run
``a`` slices, ``a`` uniform on ``1..`` its life), their lives drawn from
``weights`` like the graph's (RECONSTRUCTED). A spawned task has no edges:
it is not in the task graph the mapper maps, and its job ends when it has
ended too. Drawn once per application, after the graphs, from the same
generator (no draw at all when ``spawn`` is 0).

Task classes (``mix``; CSSE00 §3.3.3): each job is of one of the gang
family's classes, drawn from ``mix`` as that family draws them, and its
tasks behave as that family's (``gang._core``): ``compute`` never blocks;
``io`` computes bursts of mean ``io_burst`` slices and waits ``io_wait``
slices between them; ``sync`` computes phases of mean ``sync_phase`` (spread
``sync_imbalance``) and waits at a barrier for every live task of its job, a
live task being one that has become eligible (its DAG layer, or spawned) and
not ended (RECONSTRUCTED: the gang family's jobs have no layers). One slice is
one of that family's ticks. Drawn after the arrivals, from the jobs'
generator (nothing drawn when ``mix`` is null, every job computing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from sweep._numba import record
from sweep.families import check_params, param
from sweep.families.balancing._tasks import spawn_forest
from sweep.families.gang._core import SETTINGS
from sweep.families.gang._simulate import POOL, draw_pool
from sweep.families.gang._workload import check_mix, draw_classes, trace_of
from sweep.families.mapping._instance import RandomDag, sampler, task_graph
from sweep.families.rigid._jobs import offsets_at_load
from sweep.workloads.task_graphs import TaskGraph


@dataclass(frozen=True)
class DagJobs(RandomDag):
    """``kind: dag_jobs``: the mapping family's ``random_dag`` options, for graphs of ``size`` 20
    (RECONSTRUCTED), and how many distinct graphs the jobs are drawn from (module docstring)."""

    size: int = param(20, ge=1, doc="RECONSTRUCTED: tasks per graph")
    applications: int = param(50, ge=1, doc="RECONSTRUCTED: distinct task graphs the jobs are drawn from")
    graphs: list[str] | None = param(None, nullable=True,
                                     doc="task-graph files, one application each (.stg, .json, else an "
                                         "edge list), in place of the random graphs; null: random")
    trace: str | None = param(None, nullable=True,
                              doc="an SWF trace whose submit times, scaled to the offered load, are the "
                                  "arrivals (RECONSTRUCTED); null: Poisson arrivals")
    trace_start: float = param(0.0, ge=0, unit="seconds",
                               doc="where the trace's arrivals start, after its first submit time")
    spawn: float = param(0.0, ge=0, doc="RECONSTRUCTED: tasks spawned at run time per task of a graph "
                                        "(rounded per application; the balancing family's random "
                                        "recursive forest over the graph's tasks); 0: none")
    mix: Mapping[str, float] | None = param(None, nullable=True,
                                            doc="fractions of compute, io and sync jobs (the gang "
                                                "family's classes); null: every job computes")
    io_burst: float = param(2.0, gt=0, unit="slices", doc="RECONSTRUCTED: mean compute burst of io "
                                                          "tasks (the gang family's 0.2 s of 10 ticks)")
    io_wait: float = param(5.0, gt=0, unit="slices", doc="RECONSTRUCTED: mean I/O wait of io tasks")
    sync_phase: float = param(30.0, gt=0, unit="slices", doc="RECONSTRUCTED: mean work between barriers")
    sync_imbalance: float = param(0.5, ge=0, le=1, doc="RECONSTRUCTED: spread of the phases")


#: The salad family's workload kinds and their options (the config schemas).
WORKLOADS = {"dag_jobs": DagJobs}


def workload_of(section: Mapping[str, Any]) -> DagJobs:
    """The workload of a config section; one-line ``ValueError`` naming a bad option."""
    if section.get("kind") != "dag_jobs":
        raise ValueError(f"workload.kind must be dag_jobs for the salad family, got {section.get('kind')!r}")
    return check_params(DagJobs, section, section="workload", owner="workload kind 'dag_jobs'",
                        ignore=("name", "kind"))


@dataclass(frozen=True)
class JobClasses:
    """Each job's class (the gang family's ``COMPUTE``, ``IOCLASS``, ``SYNC``), the pool of draws
    its bursts, waits and phases read, and the gang family's settings record (one slice a tick)."""

    cls: np.ndarray
    pool: np.ndarray
    settings: np.ndarray


@dataclass(frozen=True)
class Spawned:
    """One application's spawned tasks, numbered after its graph's ``M``: ``parent`` (an application
    task number), ``age`` (the parent's CPU slices at the spawn) and ``life`` (slices), one each."""

    parent: np.ndarray
    age: np.ndarray
    life: np.ndarray


def slices(weight: np.ndarray) -> np.ndarray:
    """A task's life in slices: its weight at speed 1, rounded up, at least one slice."""
    return np.maximum(np.ceil(np.asarray(weight, np.float64) - 1e-9).astype(np.int64), 1)


def spawned_tasks(workload: DagJobs, graphs: list[TaskGraph], rng: np.random.Generator) -> list[Spawned]:
    """Each application's spawned tasks (module docstring); none drawn when ``spawn`` is 0."""
    draw = sampler(workload.weights, "workload.weights")
    out = []
    for graph in graphs:
        extra = round(workload.spawn * graph.tasks)
        life = np.concatenate([slices(graph.weight), slices(draw(rng, extra)) if extra else
                               np.zeros(0, np.int64)])
        parent, age = spawn_forest(life, graph.tasks, rng)
        m = graph.tasks
        out.append(Spawned(parent[m:], age[m:], life[m:]))
    return out


def _graph_kind(path: str) -> str:
    """The mapping family's workload kind that reads a task-graph file, by its suffix."""
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return suffix if suffix in ("stg", "json") else "edges"


def applications(workload: DagJobs, rng: np.random.Generator) -> list[TaskGraph]:
    """The run's distinct task graphs: the files of ``graphs`` read by the mapping family's readers,
    else ``applications`` graphs drawn by its generator."""
    if workload.graphs is not None:
        if isinstance(workload.graphs, str) or not isinstance(workload.graphs, Sequence) \
                or not workload.graphs or not all(isinstance(p, str) for p in workload.graphs):
            raise ValueError(f"workload.graphs must be a non-empty list of task-graph file paths or null, "
                             f"got {workload.graphs!r}")
        try:
            graphs = [task_graph({"kind": _graph_kind(path), "path": path, "data": workload.data}, rng)
                      for path in workload.graphs]
        except ValueError as error:  # TaskGraphError too: one line naming file and line
            raise ValueError(f"workload.graphs: {error}") from None
        for path, graph in zip(workload.graphs, graphs, strict=True):
            if graph.cost is not None:
                raise ValueError(f"workload.graphs: {path} gives each task's time per processor (a cost "
                                 f"matrix); the salad family's PEs are alike: give task weights")
        return graphs
    section = {f.name: getattr(workload, f.name) for f in fields(RandomDag)}
    section["kind"] = "random_dag"
    return [task_graph(section, rng) for _ in range(workload.applications)]


def trace_submits(workload: DagJobs, count: int) -> np.ndarray:
    """The first ``count`` submit times (seconds) of ``workload.trace`` from ``trace_start`` after its
    first, in submit order; one-line ``ValueError`` when the window holds fewer."""
    trace = trace_of(workload.trace, "workload.trace")
    submit = np.sort(np.asarray(trace.submit, np.float64)[np.asarray(trace.submit) >= 0], kind="stable")
    kept = submit[submit >= submit[0] + workload.trace_start] if submit.size else submit
    if kept.size < count:
        raise ValueError(f"workload.trace: {workload.trace} has {kept.size} jobs with a submit time from "
                         f"trace_start = {workload.trace_start:g} s on; the run needs {count} "
                         f"(stop.warmup + stop.jobs)")
    return kept[:count]


def scaled_to_load(submit: np.ndarray, work: np.ndarray, load: float, pes: int) -> np.ndarray:
    """Arrival times (slices) from submit times: from 0, gaps scaled so that ``Σ work / (P · span)`` is
    ``load`` (the rigid family's :func:`offsets_at_load`); all at 0 if the submits have no span."""
    return offsets_at_load(submit, work, np.ones_like(work), pes, load)


def arrivals(work: np.ndarray, load: float, pes: int, rng: np.random.Generator,
             workload: DagJobs | None = None) -> np.ndarray:
    """Arrival times (slices) of jobs of ``work`` at offered load ``load`` on ``pes`` PEs: the trace's,
    scaled, where ``workload.trace`` names one, else Poisson (module docstring)."""
    if workload is not None and workload.trace is not None:
        return scaled_to_load(trace_submits(workload, len(work)), work, load, pes)
    rate = load * pes / float(work.mean())
    return np.cumsum(rng.exponential(1.0 / rate, size=len(work)))


def job_classes(workload: DagJobs, jobs: int, rng: np.random.Generator) -> JobClasses | None:
    """Each job's class drawn from ``mix`` (the gang family's draw), the pool of uniforms its bursts,
    waits and phases read and the settings record (one slice a tick); ``None`` without ``mix``
    (nothing drawn)."""
    if workload.mix is None:
        return None
    cls = draw_classes(rng, workload.mix, jobs)
    settings = record(SETTINGS)
    for name in ("io_burst", "io_wait", "sync_phase", "sync_imbalance"):
        settings[name] = getattr(workload, name)
    settings["ticks"] = 1
    return JobClasses(cls, draw_pool(rng, POOL), settings)


def check_workload(workload: DagJobs, jobs: int) -> None:
    """One-line ``ValueError`` for a bad graph file, trace or mix, or a trace too short for ``jobs``
    jobs."""
    if workload.mix is not None:
        check_mix(workload.mix)
    applications(replace(workload, applications=1), np.random.default_rng(0))
    if workload.trace is not None:
        trace_submits(workload, jobs)
