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

A job's tasks are of the compute class only: the gang family's I/O and
barrier classes are not modelled here, and no task spawns others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from sweep.families import check_params, param
from sweep.families.mapping._instance import RandomDag, task_graph
from sweep.workloads.task_graphs import TaskGraph


@dataclass(frozen=True)
class DagJobs(RandomDag):
    """``kind: dag_jobs``: the mapping family's ``random_dag`` options, for graphs of ``size`` 20
    (RECONSTRUCTED), and how many distinct graphs the jobs are drawn from (module docstring)."""

    size: int = param(20, ge=1, doc="RECONSTRUCTED: tasks per graph")
    applications: int = param(50, ge=1, doc="RECONSTRUCTED: distinct task graphs the jobs are drawn from")


#: The salad family's workload kinds and their options (the config schemas).
WORKLOADS = {"dag_jobs": DagJobs}


def workload_of(section: Mapping[str, Any]) -> DagJobs:
    """The workload of a config section; one-line ``ValueError`` naming a bad option."""
    if section.get("kind") != "dag_jobs":
        raise ValueError(f"workload.kind must be dag_jobs for the salad family, got {section.get('kind')!r}")
    return check_params(DagJobs, section, section="workload", owner="workload kind 'dag_jobs'",
                        ignore=("name", "kind"))


def applications(workload: DagJobs, rng: np.random.Generator) -> list[TaskGraph]:
    """The run's distinct task graphs, drawn by the mapping family's generator."""
    section = {f.name: getattr(workload, f.name) for f in fields(RandomDag)}
    section["kind"] = "random_dag"
    return [task_graph(section, rng) for _ in range(workload.applications)]


def arrivals(work: np.ndarray, load: float, pes: int, rng: np.random.Generator) -> np.ndarray:
    """Poisson arrival times (slices) of jobs of ``work`` at offered load ``load`` on ``pes`` PEs."""
    rate = load * pes / float(work.mean())
    return np.cumsum(rng.exponential(1.0 / rate, size=len(work)))
