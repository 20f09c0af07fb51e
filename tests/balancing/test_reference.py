"""The compiled core against the naive reference (tests/naive/balancing.py) on small random cases."""

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


def _ring(pes):
    return [[min(abs(i - j), pes - abs(i - j)) for j in range(pes)] for i in range(pes)]


@pytest.mark.kernel
@pytest.mark.parametrize("bus", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_central_dispatcher_matches_the_naive_reference(seed, bus):
    """Messages, delays, CPU overhead, the shared medium and migrations, task by task.

    Costs are binary fractions (latency 0.5, overhead 0.25, transfer 0.5) so that
    the overhead sums are exact in any order of addition.
    """
    pes = 5
    tasks = small_tasks(seed, pes, tasks=120, scenario="asymmetric")
    costs = {"latency": 0.5, "overhead": 0.25, "task_transfer": 0.5, "cpu_overhead": True}
    topology = "workstations" if bus else "ring"
    machine = machine_of(system(topology, pes=pes, **costs))
    policy = FAMILY.policies["central_dispatcher"]
    params = policy.make_params({"dispatcher": 2})
    sim = make_sim(machine, tasks)
    policy.hooks.kernel(sim, policy.hooks.make_state(machine, tasks, params))
    dist = [[int(x) for x in row] for row in machine.dist] if bus else _ring(pes)
    finish, sent, transfers, migrated, idle = naive.central_dispatcher(
        (tasks.life.tolist(), tasks.parent.tolist(), tasks.spawn_age.tolist(), tasks.home.tolist(),
         tasks.release.tolist()), dist, dispatcher=2, bus=bus)
    assert migrated > 0
    assert sim.finish.tolist() == finish
    assert (sim.messages[0], sim.migrations[0], sim.migrated[0]) == (sent, transfers, migrated)
    assert sim.idle.tolist() == idle
