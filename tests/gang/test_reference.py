"""Kernels against the slow reference of ``sweep/testing/naive/gang.py``, tick for tick.

Small random machines (1–6 PEs, 1–4 ticks per slice) and workloads of every
class (every other one without barriers, so that the loop's PE-major order is
used throughout; with barriers it switches orders as sync jobs come and go),
random and deterministic bursts, every registered policy with each of its
examples: the whole trace diagram, every job's start and end, and the
idle, empty-slot and busy PE-tick counts, the idle slots and the task-slices
must be equal (:func:`sweep.testing.gang.compare_with_reference`, which ``pytest
--pyargs sweep.testing`` runs on a plugin's policies too).
"""

from __future__ import annotations

import pytest

from sweep.testing.gang import compare_with_reference
from tests.gang.conftest import FAMILY

# the hash of the random draws wraps around 2**64 on purpose (a warning only without the JIT)
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

CASES = [pytest.param(name, dict(example), id=f"{name}-{i}") for name, policy in FAMILY.policies.items()
         for i, example in enumerate(policy.examples)]


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "example"), CASES)
def test_small_random_cases_match_the_naive_reference(policy, example):
    compare_with_reference(policy, example)
