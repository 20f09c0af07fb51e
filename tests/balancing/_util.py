"""Helpers of the balancing tests: points, machines and small random task sets (``system``,
``workload``, ``small_tasks``: :mod:`sweep.testing.balancing`, which a plugin's tests share)."""

from __future__ import annotations

from sweep.families import Point, StopRule, load_families
from sweep.testing.balancing import small_tasks, system, workload

FAMILY = load_families()["balancing"]
TOPOLOGIES = ("mesh", "hypercube", "fully_connected", "workstations")


def point(policy: str | dict, sys: dict | None = None, wl: dict | None = None) -> Point:
    section = {"name": policy} if isinstance(policy, str) else policy
    return Point(policy=section, workload=wl or workload(), system=sys or system(), load=0.7,
                 stop=StopRule(jobs=1, warmup=0))


def policy_cases() -> list[tuple[str, dict]]:
    """Every registered policy with each of its examples (no hand-kept list)."""
    return [(name, {"name": name, **example}) for name, policy in FAMILY.policies.items()
            for example in policy.examples]


__all__ = ["FAMILY", "TOPOLOGIES", "point", "policy_cases", "small_tasks", "system", "workload"]
