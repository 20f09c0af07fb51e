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
