"""The compiled core against the naive reference (tests/naive/balancing.py), task by task."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.balancing._core import make_sim
from sweep.families.balancing._machine import machine_of
from tests.balancing._util import FAMILY, small_tasks, system
from tests.naive import balancing as naive


@pytest.mark.kernel
@pytest.mark.parametrize("scenario", ["symmetric", "asymmetric", "arrivals"])
@pytest.mark.parametrize("seed", range(4))
def test_no_balancing_matches_the_naive_reference_task_by_task(scenario, seed):
    pes = 4
    tasks = small_tasks(seed, pes, tasks=150, scenario=scenario)
    machine = machine_of(system("ring", pes=pes))
    policy = FAMILY.policies["no_balancing"]
    sim = make_sim(machine, tasks)
    policy.hooks.kernel(sim, policy.hooks.make_state(machine, tasks, None))
    finish = naive.simulate(tasks.life.tolist(), tasks.parent.tolist(), tasks.spawn_age.tolist(),
                            tasks.home.tolist(), tasks.release.tolist(), pes)
    assert sim.finish.tolist() == finish
    assert sim.makespan[0] == max(finish)
    assert sim.busy.sum() == tasks.total_work == sim.executed[0]
    owner = _owners(tasks)
    expected = np.bincount(owner, weights=tasks.life, minlength=pes)
    assert np.array_equal(sim.busy, expected)


def _owners(tasks):
    owner = tasks.home.copy()
    for k in range(len(tasks)):
        if tasks.parent[k] >= 0:
            owner[k] = owner[tasks.parent[k]]
    return owner


def _hops(topology, pes):
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


#: Binary fractions (a message 0.5 slice a hop, a task 0.5 more) keep every sum of costs exact in
#: any order of addition; whole_slices is the first version's shared medium.
COSTS = {"latency": 0.25, "overhead": 0.125, "task_transfer": 0.5, "cpu_overhead": True}
#: topology, PEs, how a transmission holds the shared medium: 2-8 PEs, every topology.
MACHINES = [("mesh", 6, "exact"), ("mesh", 4, "exact"), ("hypercube", 8, "exact"),
            ("hypercube", 2, "exact"), ("fully_connected", 5, "exact"), ("workstations", 7, "exact"),
            ("workstations", 4, "whole_slices"), ("ring", 3, "exact")]

#: policy -> [(the kernel's options, the same options for the reference)]: defaults and the examples.
CASES = {
    "rate_of_change": [
        ({}, {}),
        ({"critical_rule": "below", "table_order": "nearest", "which": "youngest", "critical_threshold": 1,
          "low_threshold": 2, "high_threshold": 4},
         {"critical_below": True, "nearest": True, "oldest": False, "critical": 1, "low": 2, "high": 4}),
        ({"adaptive_interval": True, "adaptive_nd": False, "nd": 3.0, "interval": 1, "max_interval": 5,
          "max_forwards": 2},
         {"adaptive_interval": True, "adaptive_nd": False, "nd": 3.0, "interval": 1, "max_interval": 5,
          "max_forwards": 2}),
    ],
    "gradient": [
        ({}, {}),
        ({"batch": 3, "which": "oldest", "interval": 2, "exchange": "periodic", "high_threshold": 2,
          "low_threshold": 0},
         {"batch": 3, "oldest": True, "interval": 2, "periodic": True, "high": 2, "low": 0}),
    ],
    "sender_diffusion": [
        ({}, {}),
        ({"high_threshold": 1, "which": "oldest", "interval": 2, "exchange": "periodic"},
         {"high": 1, "oldest": True, "interval": 2, "periodic": True}),
    ],
    "central_dispatcher": [
        ({"dispatcher": 1}, {"dispatcher": 1}),
        ({"low_threshold": 0, "which": "oldest"}, {"low": 0, "oldest": True}),
        ({"service": 0.375}, {"service": 0.375}),
        ({"notify": "coalesced", "dispatcher": 1}, {"notify": "coalesced", "dispatcher": 1}),
        ({"notify": "coalesced", "service": 0.375, "low_threshold": 0},
         {"notify": "coalesced", "service": 0.375, "low": 0}),
    ],
}


def test_every_balancing_policy_has_its_reference_cases():
    """A new balancing policy fails here until it has a naive reference (a function of its name in
    tests/naive/balancing.py) and cases in :data:`CASES` (issue 28: references are found by the
    policy's name and a policy without one fails loudly, never passes unchecked).
    ``no_balancing`` is the no-policy baseline, checked task by task above."""
    policies = set(FAMILY.policies) - {"no_balancing"}
    missing = sorted(policies - set(CASES))
    assert not missing, f"no reference cases for {missing}: add them to CASES in {__name__}"
    unreferenced = sorted(p for p in CASES if not callable(getattr(naive, p, None)))
    assert not unreferenced, f"no function in tests/naive/balancing.py for {unreferenced}"


def _cases():
    for policy, options in CASES.items():
        for number, (kernel_options, reference_options) in enumerate(options):
            for topology, pes, medium_hold in MACHINES:
                yield pytest.param(policy, kernel_options, reference_options, topology, pes, medium_hold,
                                   id=f"{policy}-{number}-{topology}-{pes}-{medium_hold}")


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "kernel_options", "reference_options", "topology", "pes", "medium_hold"),
                         _cases())
def test_policy_matches_the_naive_reference(policy, kernel_options, reference_options, topology, pes,
                                            medium_hold):
    """Every task's completion time, the messages, transfers, tasks moved and idle slices, on tens
    of tasks: each scenario in turn (by the PE count), the asymmetric one leaving PEs idle."""
    scenario = ("symmetric", "asymmetric", "arrivals")[pes % 3]
    tasks = small_tasks(pes, pes, tasks=60, scenario=scenario)
    machine = machine_of(system(topology, pes=pes, medium_hold=medium_hold, **COSTS))
    kernel = FAMILY.policies[policy]
    sim = make_sim(machine, tasks)
    state = kernel.hooks.make_state(machine, tasks, kernel.make_params(kernel_options))
    kernel.hooks.kernel(sim, state)
    assert sim.err[0] == 0, sim.err[0]
    costs = (COSTS["latency"], COSTS["overhead"], COSTS["task_transfer"], COSTS["cpu_overhead"],
             medium_hold == "whole_slices")
    lists = (tasks.life.tolist(), tasks.parent.tolist(), tasks.spawn_age.tolist(), tasks.home.tolist(),
             tasks.release.tolist())
    expected = getattr(naive, policy)(lists, _hops(topology, pes), costs, bus=topology == "workstations",
                                      **reference_options)
    assert sim.finish.tolist() == expected["finish"]
    assert (sim.messages[0], sim.migrations[0], sim.migrated[0]) == (
        expected["messages"], expected["transfers"], expected["migrated"])
    assert sim.idle.tolist() == expected["idle"]
    if policy == "rate_of_change":
        assert (state.requests[0], state.first_hop[0], state.first_entry[0], state.complete[0]) == (
            expected["requests"], expected["first_hop"], expected["first_entry"], expected["complete"])


@pytest.mark.kernel
@pytest.mark.parametrize("policy", sorted(CASES))
def test_the_reference_cases_migrate(policy):
    """The comparison above is not vacuous: with the default options, tasks move in most cases."""
    moved = 0
    for topology, pes, medium_hold in MACHINES:
        scenario = ("symmetric", "asymmetric", "arrivals")[pes % 3]
        tasks = small_tasks(pes, pes, tasks=60, scenario=scenario)
        lists = (tasks.life.tolist(), tasks.parent.tolist(), tasks.spawn_age.tolist(),
                 tasks.home.tolist(), tasks.release.tolist())
        costs = (COSTS["latency"], COSTS["overhead"], COSTS["task_transfer"], True,
                 medium_hold == "whole_slices")
        outcome = getattr(naive, policy)(lists, _hops(topology, pes), costs, bus=topology == "workstations",
                                         **CASES[policy][0][1])
        moved += outcome["migrated"] > 0
    assert moved >= len(MACHINES) - 2, moved
