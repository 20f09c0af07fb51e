"""Small balancing machines and task sets, and any balancing policy against its plain-Python reference.

:func:`system`, :func:`workload` and :func:`small_tasks` build the sections and task sets of
``tests/balancing``; :func:`compare_with_reference` runs a policy that has a reference (registered
with :func:`sweep.testing.naive.reference`, :mod:`sweep.testing.naive.balancing`) on tens of
tasks on eight small machines of every topology, which ``pytest --pyargs sweep.testing`` runs on
a plugin's balancing policies too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from sweep.families import load_families
from sweep.families.balancing._core import ERR_TIMEOUT, ERRORS, make_sim
from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._tasks import TaskSet, draw_tasks, workload_of
from sweep.testing.checks import assert_matches
from sweep.testing.naive import REFERENCES, WHERE
from sweep.testing.naive import balancing as naive

__all__ = ["COSTS", "HOW_TO_ADD", "MACHINES", "compare_on_machine", "compare_with_reference", "hops",
           "small_tasks", "system", "workload"]

#: How a balancing policy gets a reference ({name}: the policy's).
HOW_TO_ADD = ("register reference(tasks, dist, costs, bus, params) -> the outcome dict "
              "(sweep.testing.naive.balancing) with @sweep.testing.naive.reference({name!r}), " + WHERE)

#: Binary fractions (a message 0.5 slice a hop, a task 0.5 more) keep every sum of costs exact in
#: any order of addition; whole_slices is the first version's shared medium.
COSTS = {"latency": 0.25, "overhead": 0.125, "task_transfer": 0.5, "cpu_overhead": True}
#: topology, PEs, how a transmission holds the shared medium: 2-8 PEs, every topology.
MACHINES = [("mesh", 6, "exact"), ("mesh", 4, "exact"), ("hypercube", 8, "exact"),
            ("hypercube", 2, "exact"), ("fully_connected", 5, "exact"), ("workstations", 7, "exact"),
            ("workstations", 4, "whole_slices"), ("ring", 3, "exact")]
#: What every reference returns and the kernel's state holds.
OUTCOME = ("finish", "messages", "transfers", "migrated", "idle")


def system(topology: str = "mesh", pes: int = 16, **costs: Any) -> dict[str, Any]:
    """A ``system`` section; ``costs`` override the communication options (latency, overhead, ...)."""
    section = {"topology": topology, "pes": pes, "rows": None, "cols": None, "path": None,
               "latency": 0.1, "overhead": 0.02, "task_transfer": 0.0, "cpu_overhead": True,
               "medium_hold": "exact"}
    section.update(costs)
    return section


def workload(scenario: str = "symmetric", **options: Any) -> dict[str, Any]:
    """A ``task_tree`` workload section of ``scenario``; ``options`` override its options."""
    section = {"name": f"lb_{scenario}", "kind": "task_tree", "scenario": scenario, "tasks": 32000,
               "roots": 320, "lifetime_cap": 1000, "loaded": "first_half", "job_roots": 20,
               "arrival_span": 0.5}
    section.update(options)
    return section


def small_tasks(seed: int, pes: int, tasks: int = 300, scenario: str = "symmetric") -> TaskSet:
    """``tasks`` tasks of ``scenario`` on ``pes`` PEs, lifetimes up to 30 slices."""
    wl = workload_of(workload(scenario, tasks=tasks, roots=max(tasks // 10, 1), lifetime_cap=30,
                              job_roots=5))
    return draw_tasks(wl, pes, np.random.default_rng(seed))


def hops(topology: str, pes: int) -> list[list[int]]:
    """Hop counts written out per topology (not the family's breadth-first search)."""
    if topology == "ring":
        return [[min(abs(i - j), pes - abs(i - j)) for j in range(pes)] for i in range(pes)]
    if topology == "hypercube":
        return [[bin(i ^ j).count("1") for j in range(pes)] for i in range(pes)]
    if topology == "mesh":
        rows = max(r for r in range(1, pes + 1) if pes % r == 0 and r * r <= pes)
        cols = pes // rows
        return [[abs(i // cols - j // cols) + abs(i % cols - j % cols) for j in range(pes)]
                for i in range(pes)]
    return [[int(i != j) for j in range(pes)] for i in range(pes)]  # fully_connected, workstations


def reference_outcome(name: str, params: Any, tasks: TaskSet, topology: str, pes: int,
                      medium_hold: str) -> dict[str, Any]:
    """The reference's outcome of policy ``name`` on ``tasks`` and the machine, with :data:`COSTS`."""
    costs = (COSTS["latency"], COSTS["overhead"], COSTS["task_transfer"], COSTS["cpu_overhead"],
             medium_hold == "whole_slices")
    lists = (tasks.life.tolist(), tasks.parent.tolist(), tasks.spawn_age.tolist(), tasks.home.tolist(),
             tasks.release.tolist())
    return REFERENCES[name](lists, hops(topology, pes), costs, topology == "workstations", params)


def compare_on_machine(name: str, example: Mapping[str, Any], topology: str, pes: int,
                       medium_hold: str) -> str | None:
    """60 tasks of one scenario (by the PE count, the asymmetric one leaving PEs idle): every task's
    completion time, the messages, transfers, tasks moved and idle slices per PE, and what else
    the reference counts that the policy's state holds (Rate of Change's requests), equal to
    the reference's, or neither run ends (the reference's ``NoEnd``, the kernel's timeout);
    else one ``AssertionError`` naming the policy, the machine and the first difference. Returns
    why nothing was compared where the policy refuses the machine (its ``check``) or the
    reference does not model the example, else ``None``."""
    policy = load_families()["balancing"].policies[name]
    params = policy.make_params(example)
    machine = machine_of(system(topology, pes=pes, medium_hold=medium_hold, **COSTS))
    if policy.hooks.check is not None:
        try:
            policy.hooks.check(machine, params)
        except ValueError as refused:
            return f"policy {name!r} {dict(example)} refuses {topology} of {pes} PEs: {refused}"
    scenario = ("symmetric", "asymmetric", "arrivals")[pes % 3]
    tasks = small_tasks(pes, pes, tasks=60, scenario=scenario)
    case = f"{dict(example)}, {scenario} tasks on {topology} of {pes} PEs, medium {medium_hold}"
    where = f"policy {name!r} differs from its plain-Python reference ({case})"
    try:
        want = reference_outcome(name, params, tasks, topology, pes, medium_hold)
    except naive.NotModelled as why:
        return f"policy {name!r} {dict(example)}: {why}"
    except naive.NoEnd as never:
        want = {"no end": str(never)}
    sim = make_sim(machine, tasks)
    state = policy.hooks.make_state(machine, tasks, params)
    policy.hooks.kernel(sim, state)
    if "no end" in want:  # the reference's run does not end: neither may the kernel's
        assert sim.err[0] == ERR_TIMEOUT, f"{where}: the reference's run does not end ({want['no end']}), " \
                                          f"the kernel's {ERRORS.get(int(sim.err[0]), 'ends')}"
        return None
    assert sim.err[0] == 0, f"{where}: the kernel stopped: {ERRORS[int(sim.err[0])]}"
    got = {"finish": sim.finish, "messages": sim.messages[0], "transfers": sim.migrations[0],
           "migrated": sim.migrated[0], "idle": sim.idle}
    got.update({key: getattr(state, key)[0] for key in want if key not in OUTCOME})
    assert_matches(name, case, got, want)
    return None


def compare_with_reference(name: str, example: Mapping[str, Any]) -> None:
    """:func:`compare_on_machine` on every machine of :data:`MACHINES`; skipped (saying why) when
    not one of them could be compared."""
    reasons = [compare_on_machine(name, example, *machine) for machine in MACHINES]
    if all(reasons):
        pytest.skip(reasons[0])
