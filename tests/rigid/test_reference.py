"""Every policy that names a slow reference matches it job for job (STYLE 7).

A policy's ``hooks.reference`` names the pass of ``tests/naive/rigid.py`` it
must reproduce and its order key in pure Python; the policies come from the
registry, each with every one of its ``examples``. Small random workloads with
many equal timestamps, equal keys and early completions, then the whole KTH
trace at 128 processors (with every fifth job at a higher priority, which no
covered policy may look at unless its key does).
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import rigid as naive
from naive import slack as naive_slack

from sweep.families import load_families
from sweep.families.rigid._core import submit_order
from sweep.families.rigid._jobs import prepare

POLICIES = load_families()["rigid"].policies
REFERENCED = [(name, example) for name, policy in POLICIES.items() if policy.hooks.reference
              for example in policy.examples]


def test_every_policy_has_a_naive_reference():
    """A new rigid policy names a pass of ``naive.rigid`` (``RigidHooks.reference``) or has a
    reference of its own (``naive.slack``): none is left out of the reference tests silently."""
    missing = [name for name, policy in POLICIES.items()
               if policy.hooks.reference is None and name not in naive_slack.POLICIES]
    assert not missing, (f"rigid policies without a naive reference: {', '.join(missing)}; name a pass "
                         f"of tests/naive/rigid.py in RigidHooks.reference or write one in tests/naive/")


def _random_workload(rng):
    n = int(rng.integers(1, 25))
    processors = int(rng.integers(1, 9))
    submit = np.sort(rng.integers(0, 30, n)).astype(float)
    req = rng.integers(1, 12, n).astype(float)
    run = np.minimum(req, rng.integers(1, 12, n)).astype(float)
    procs = rng.integers(1, processors + 1, n)
    priority = np.where(rng.random(n) < 0.2, 2.0, 0.0)
    return submit, run, req, procs, priority, processors


def _both(name, example, submit, run, req, procs, priority, processors):
    """The kernel's start times and the reference's."""
    policy = POLICIES[name]
    got = policy.hooks.schedule(submit, run, req, procs, priority, processors,
                                policy.make_params(example))
    ref = policy.hooks.reference
    want, _ = naive.simulate(ref.discipline, submit.tolist(), run.tolist(), req.tolist(),
                             procs.tolist(), processors, key=ref.key, priority=priority.tolist())
    return got, want


def test_the_reference_covers_an_ordered_policy():
    """The reference is not vacuous: some policy orders its queue other than by submission."""
    assert any(POLICIES[name].hooks.order is not submit_order for name, _ in REFERENCED)


@pytest.mark.kernel
@pytest.mark.parametrize("name, example", REFERENCED, ids=[n for n, _ in REFERENCED])
def test_small_random_workloads(name, example):
    rng = np.random.default_rng(2024)
    for _ in range(400):
        got, want = _both(name, example, *_random_workload(rng))
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name, example", REFERENCED, ids=[n for n, _ in REFERENCED])
def test_whole_kth_trace(kth, name, example):
    jobs = prepare(kth, processors=128, priority_every=5)
    got, want = _both(name, example, jobs.submit, jobs.run, jobs.requested, jobs.procs,
                      jobs.priority, 128)
    np.testing.assert_array_equal(got, want)
