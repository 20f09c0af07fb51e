"""Every mapper against its slow reference of ``sweep/testing/naive/mapping.py``, registered by name.

Small random DAGs on small random systems (1–8 processors), with and without
link contention, every registered mapper with each of its examples: the
processor of every task must be the reference's, and so must the key that
orders the tasks (planned start times, placement steps or Cluster-M's layers)
and the makespan the mapper predicts (:func:`sweep.testing.mapping.compare_on_seed`, which
``pytest --pyargs sweep.testing`` runs on a plugin's mappers too). A mapper without a
reference fails here with a line saying where to add one, as every other family's policies do.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.testing.mapping import compare_on_seed, instances
from sweep.testing.naive import REFERENCES
from tests.mapping._util import FAMILY, cases


@pytest.mark.kernel
@pytest.mark.parametrize(("name", "example"), cases(), ids=str)
@pytest.mark.parametrize("seed", range(6))
def test_every_mapper_matches_its_naive_reference(name, example, seed):
    compare_on_seed(name, example, seed)


def test_a_mapper_without_a_reference_fails_with_where_to_add_it():
    with pytest.raises(LookupError, match=r"register one with @sweep.testing.naive.reference\('hlfet'\), .*"
                                          r"\(known: .*heft"):
        REFERENCES["hlfet"]


@pytest.mark.kernel
def test_the_references_tell_the_mappers_apart():
    """Not vacuous: on these instances no two mappers' references (each with its first example)
    give the same plans, so a mapper run in place of another would fail the comparison above."""
    plans = {}
    for name, policy in FAMILY.policies.items():
        params = policy.make_params(policy.examples[0])
        plans[name] = [REFERENCES[name](inst, params, np.random.default_rng(0))
                       for seed in range(3) for inst in instances(seed)]
    names = sorted(plans)
    assert len(names) >= 6
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert [(p.proc, p.key) for p in plans[a]] != [(p.proc, p.key) for p in plans[b]], (a, b)
