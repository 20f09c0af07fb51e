"""Every policy that names a slow reference matches it job for job (STYLE 7).

A policy's ``hooks.reference`` names the pass of ``sweep/testing/naive/rigid.py`` it
must reproduce and its order key in pure Python; the policies come from the
registry, each with every one of its ``examples``. Small random workloads with
many equal timestamps, equal keys and early completions, then the whole KTH
trace at 128 processors (with every fifth job at a higher priority, which no
covered policy may look at unless its key does).
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import slack as naive_slack

from sweep.families import load_families
from sweep.families.rigid._core import submit_order
from sweep.families.rigid._jobs import prepare
from sweep.testing.rigid import kernel_and_reference, small_jobs

POLICIES = load_families()["rigid"].policies
REFERENCED = [(name, example) for name, policy in POLICIES.items() if policy.hooks.reference
              for example in policy.examples]


def test_every_policy_has_a_naive_reference():
    """A new rigid policy names a pass of ``naive.rigid`` (``RigidHooks.reference``) or has a
    reference of its own (``naive.slack``): none is left out of the reference tests silently."""
    missing = [name for name, policy in POLICIES.items()
               if policy.hooks.reference is None and name not in naive_slack.POLICIES]
    assert not missing, (f"rigid policies without a naive reference: {', '.join(missing)}; name a pass of "
                         "sweep/testing/naive/rigid.py in RigidHooks.reference or write one in tests/naive/")


def test_the_reference_covers_an_ordered_policy():
    """The reference is not vacuous: some policy orders its queue other than by submission."""
    assert any(POLICIES[name].hooks.order is not submit_order for name, _ in REFERENCED)


@pytest.mark.kernel
@pytest.mark.parametrize("name, example", REFERENCED, ids=[n for n, _ in REFERENCED])
def test_small_random_workloads(name, example):
    rng = np.random.default_rng(2024)
    for _ in range(400):
        jobs = small_jobs(rng)
        got, want = kernel_and_reference(name, example, jobs, jobs.processors)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name, example", REFERENCED, ids=[n for n, _ in REFERENCED])
def test_whole_kth_trace(kth, name, example):
    jobs = prepare(kth, processors=128, priority_every=5)
    got, want = kernel_and_reference(name, example, jobs, 128)
    np.testing.assert_array_equal(got, want)
