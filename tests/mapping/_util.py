"""Small instances shared by the mapping tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sweep.families import load_families
from sweep.families.mapping._instance import Instance, instance
from sweep.workloads.task_graphs import SHIPPED, SystemGraph, TaskGraph, random_dag, random_system, routes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = SHIPPED / "topcuoglu2002_example.json"
FAMILY = load_families()["mapping"]


def cases():
    """(policy name, example parameters) for every registered mapper and example."""
    return [(name, example) for name, policy in FAMILY.policies.items() for example in policy.examples]


def line(speeds, bandwidths) -> SystemGraph:
    """Processors 0 - 1 - ... in a line."""
    n = len(speeds)
    return SystemGraph(np.asarray(speeds, float), np.arange(n - 1), np.arange(1, n),
                       np.asarray(bandwidths, float))


def make(graph: TaskGraph, system: SystemGraph, contention: bool = True) -> Instance:
    return instance(graph, system, routes(system), contention)


def random_instance(seed: int, tasks: int = 12, processors: int = 5, contention: bool = True) -> Instance:
    """A small random DAG on a small random system (sizes chosen by the seed)."""
    rng = np.random.default_rng(seed)
    graph = random_dag(rng, tasks, fat=float(rng.uniform(0.3, 0.8)), density=float(rng.uniform(0.1, 0.6)),
                       jump=int(rng.integers(1, 3)))
    system = random_system(rng, processors, degree=float(rng.uniform(1.5, 3.5)))
    return make(graph, system, contention)
