"""Helpers of the balancing tests: points, machines and small random task sets."""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep.families import Point, StopRule, load_families
from sweep.families.balancing._tasks import TaskSet, draw_tasks, workload_of

FAMILY = load_families()["balancing"]
TOPOLOGIES = ("mesh", "hypercube", "fully_connected", "workstations")


def system(topology: str = "mesh", pes: int = 16, **costs: Any) -> dict[str, Any]:
    """A ``system`` section; ``costs`` override the communication options (latency, overhead, ...)."""
    section = {"topology": topology, "pes": pes, "rows": None, "cols": None, "path": None,
               "latency": 0.1, "overhead": 0.02, "task_transfer": 0.0, "cpu_overhead": True,
               "medium_hold": "exact"}
    section.update(costs)
    return section


def workload(scenario: str = "symmetric", **options: Any) -> dict[str, Any]:
    section = {"name": f"lb_{scenario}", "kind": "task_tree", "scenario": scenario, "tasks": 32000,
               "roots": 320, "lifetime_cap": 1000, "loaded": "first_half", "job_roots": 20,
               "arrival_span": 0.5}
    section.update(options)
    return section


def point(policy: str | dict, sys: dict | None = None, wl: dict | None = None) -> Point:
    section = {"name": policy} if isinstance(policy, str) else policy
    return Point(policy=section, workload=wl or workload(), system=sys or system(), load=0.7,
                 stop=StopRule(jobs=1, warmup=0))


def small_tasks(seed: int, pes: int, tasks: int = 300, scenario: str = "symmetric") -> TaskSet:
    wl = workload_of(workload(scenario, tasks=tasks, roots=max(tasks // 10, 1), lifetime_cap=30,
                              job_roots=5))
    return draw_tasks(wl, pes, np.random.default_rng(seed))


def policy_cases() -> list[tuple[str, dict]]:
    """Every registered policy with each of its examples (no hand-kept list)."""
    return [(name, {"name": name, **example}) for name, policy in FAMILY.policies.items()
            for example in policy.examples]
