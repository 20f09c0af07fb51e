"""Kernels against the slow references of ``tests/naive/rigid.py``, job for job (STYLE 7).

Small random workloads with many equal timestamps and early completions, then
the whole KTH trace at 128 processors (MODEL_NOTES §2).
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import rigid as naive

from sweep.families import NoParams, load_families
from sweep.families.rigid.jobs import prepare

POLICIES = load_families()["rigid"].policies

REFERENCED = ["fcfs", "easy", "conservative"]


def _random_workload(rng):
    n = int(rng.integers(1, 25))
    processors = int(rng.integers(1, 9))
    submit = np.sort(rng.integers(0, 30, n)).astype(float)
    req = rng.integers(1, 12, n).astype(float)
    run = np.minimum(req, rng.integers(1, 12, n)).astype(float)
    procs = rng.integers(1, processors + 1, n)
    return submit, run, req, procs, processors


@pytest.mark.parametrize("policy", REFERENCED)
def test_small_random_workloads(policy):
    rng = np.random.default_rng(2024)
    for _ in range(400):
        submit, run, req, procs, processors = _random_workload(rng)
        got = POLICIES[policy].hooks.schedule(submit, run, req, procs, np.zeros(submit.size),
                                        processors, NoParams())
        want, _ = naive.simulate(policy, submit.tolist(), run.tolist(), req.tolist(),
                                 procs.tolist(), processors)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("policy", REFERENCED)
def test_whole_kth_trace(kth, policy):
    jobs = prepare(kth, processors=128)
    got = POLICIES[policy].hooks.schedule(jobs.submit, jobs.run, jobs.requested, jobs.procs,
                                    jobs.priority, 128, NoParams())
    want, _ = naive.simulate(policy, jobs.submit.tolist(), jobs.run.tolist(),
                             jobs.requested.tolist(), jobs.procs.tolist(), 128)
    np.testing.assert_array_equal(got, want)
