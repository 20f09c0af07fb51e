"""Every mapper against its slow reference of ``tests/naive/mapping.py``, registered by name.

Small random DAGs on small random systems (1–8 processors), with and without
link contention, every registered mapper with each of its examples: the
processor of every task must be the reference's, and so must the key that
orders the tasks (planned start times, placement steps or Cluster-M's layers)
and the makespan the mapper predicts. A mapper without a reference fails here
with a line saying where to add one, as every other family's policies do.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep.families.mapping._simulate import run
from tests.mapping._util import FAMILY, cases, random_instance
from tests.naive import mapping as naive


def _instances(seed: int):
    """Small instances of every size from one seed, with and without contention."""
    rng = np.random.default_rng(seed)
    for _ in range(3):
        tasks, processors = int(rng.integers(1, 16)), int(rng.integers(1, 9))
        for contention in (True, False):
            yield random_instance(int(rng.integers(1 << 30)), tasks=tasks, processors=processors,
                                  contention=contention)


@pytest.mark.kernel
@pytest.mark.parametrize(("name", "example"), cases(), ids=str)
@pytest.mark.parametrize("seed", range(6))
def test_every_mapper_matches_its_naive_reference(name, example, seed):
    policy = FAMILY.policies[name]
    params = policy.make_params(example)
    reference = naive.MAPPERS[name]
    for inst in _instances(seed):
        plan, _, _, _ = run(inst, policy, params, np.random.default_rng(seed))
        want = reference(inst, params, np.random.default_rng(seed))
        label = f"{name} {example}: {inst.tasks} tasks on {inst.processors} processors"
        assert plan.proc.tolist() == want.proc, label
        assert plan.key.tolist() == pytest.approx(want.key, rel=1e-12), label
        if math.isnan(want.planned):
            assert math.isnan(plan.planned), label
        else:
            assert plan.planned == pytest.approx(want.planned, rel=1e-12), label


def test_a_mapper_without_a_reference_fails_with_where_to_add_it():
    with pytest.raises(LookupError, match=r"register one in tests/naive/mapping.py \(known: .*heft"):
        naive.MAPPERS["hlfet"]


@pytest.mark.kernel
def test_the_references_tell_the_mappers_apart():
    """Not vacuous: on these instances no two mappers' references (each with its first example)
    give the same plans, so a mapper run in place of another would fail the comparison above."""
    plans = {}
    for name, policy in FAMILY.policies.items():
        params = policy.make_params(policy.examples[0])
        plans[name] = [naive.MAPPERS[name](inst, params, np.random.default_rng(0))
                       for seed in range(3) for inst in _instances(seed)]
    names = sorted(plans)
    assert len(names) >= 6
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert [(p.proc, p.key) for p in plans[a]] != [(p.proc, p.key) for p in plans[b]], (a, b)
