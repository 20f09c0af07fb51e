"""Small random cases of the salad loop shared by the reference tests (spawning, classes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep.families.salad import _simulate as salad
from sweep.families.salad._workload import DagJobs, spawned_tasks
from sweep.workloads.task_graphs import random_dag


def random_jobs(rng: np.random.Generator, system: Any, stages: Any
                ) -> tuple[list, Any, np.ndarray, np.ndarray]:
    """Three applications of 3-8-task graphs mapped by ``stages``' mapper, each task spawning 0.6
    more on average; 2-6 jobs of them arriving within 15 slices: (apps, spawns, chosen, arrival)."""
    apps = [salad.map_application(random_dag(rng, int(rng.integers(3, 9)), density=0.4), system, stages, rng)
            for _ in range(3)]
    spawns = spawned_tasks(DagJobs(spawn=0.6), [m.graph for m in apps], rng)
    chosen = rng.integers(0, 3, size=int(rng.integers(2, 7)))
    arrival = np.sort(rng.uniform(0, 15, size=len(chosen)))
    return apps, spawns, chosen, arrival
