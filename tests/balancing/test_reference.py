"""The compiled core against the naive reference (sweep/testing/naive/balancing.py), task by task.

Every policy through :func:`sweep.testing.balancing.compare_on_machine`, which ``pytest --pyargs
sweep.testing`` runs on a plugin's policies too, under the options of :data:`CASES`, or a policy's own
examples where it is not listed.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.balancing._core import make_sim
from sweep.families.balancing._machine import machine_of
from sweep.testing.balancing import MACHINES, compare_on_machine, reference_outcome
from sweep.testing.naive import REFERENCES
from sweep.testing.naive import balancing as naive
from tests.balancing._util import FAMILY, small_tasks, system


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


#: policy -> the options it is compared with its reference under: the defaults and beyond the examples
#: (e.g. the dispatcher on PE 1, which every machine here has).
CASES = {
    "rate_of_change": [
        {},
        {"critical_rule": "below", "table_order": "nearest", "which": "youngest", "critical_threshold": 1,
         "low_threshold": 2, "high_threshold": 4},
        {"adaptive_interval": True, "adaptive_nd": False, "nd": 3.0, "interval": 1, "max_interval": 5,
         "max_forwards": 2},
    ],
    "gradient": [
        {},
        {"batch": 3, "which": "oldest", "interval": 2, "exchange": "periodic", "high_threshold": 2,
         "low_threshold": 0},
    ],
    "sender_diffusion": [
        {},
        {"high_threshold": 1, "which": "oldest", "interval": 2, "exchange": "periodic"},
    ],
    "central_dispatcher": [
        {"dispatcher": 1},
        {"low_threshold": 0, "which": "oldest"},
        {"service": 0.375},
        {"notify": "coalesced", "dispatcher": 1},
        {"notify": "coalesced", "service": 0.375, "low_threshold": 0},
    ],
}


#: Every balancing policy but the no-policy baseline (checked task by task above).
POLICIES = sorted(set(FAMILY.policies) - {"no_balancing"})


def cases_of(policy: str) -> list[dict]:
    """The options a policy is compared under: its :data:`CASES` where listed (sweep's own, chosen
    to reach every rule), else its own examples (a new policy: no list to edit)."""
    return CASES.get(policy) or [dict(e) for e in FAMILY.policies[policy].examples]


def test_every_balancing_policy_has_its_reference():
    """A new balancing policy fails here until it has a naive reference, registered under its name
    (a new file of sweep/testing/naive/policies/; issue 28: references are found by the policy's
    name and a policy without one fails loudly, never passes unchecked)."""
    unreferenced = [p for p in POLICIES if p not in REFERENCES]
    assert not unreferenced, f"no naive reference for {unreferenced}: add one to sweep/testing/naive/policies"


def _cases():
    for policy in POLICIES:
        for number, kernel_options in enumerate(cases_of(policy)):
            for topology, pes, medium_hold in MACHINES:
                yield pytest.param(policy, kernel_options, topology, pes, medium_hold,
                                   id=f"{policy}-{number}-{topology}-{pes}-{medium_hold}")


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "options", "topology", "pes", "medium_hold"), _cases())
def test_policy_matches_the_naive_reference(policy, options, topology, pes, medium_hold):
    """Every task's completion time, the messages, transfers, tasks moved and idle slices, on tens
    of tasks: each scenario in turn (by the PE count), the asymmetric one leaving PEs idle."""
    assert compare_on_machine(policy, options, topology, pes, medium_hold) is None


@pytest.mark.kernel
@pytest.mark.parametrize("policy", POLICIES)
def test_the_reference_cases_migrate(policy):
    """The comparison above is not vacuous: with the first case's options, tasks move in most cases."""
    params = FAMILY.policies[policy].make_params(cases_of(policy)[0])
    moved = 0
    for topology, pes, medium_hold in MACHINES:
        scenario = ("symmetric", "asymmetric", "arrivals")[pes % 3]
        tasks = small_tasks(pes, pes, tasks=60, scenario=scenario)
        moved += reference_outcome(policy, params, tasks, topology, pes, medium_hold)["migrated"] > 0
    assert moved >= len(MACHINES) - 2, moved
