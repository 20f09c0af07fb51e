"""Kernels against the slow reference of ``tests/naive/gang.py``, tick for tick.

Small random machines (1–6 PEs, 1–4 ticks per slice) and workloads of every
class (every other one without barriers, so that the loop's PE-major order is
used throughout; with barriers it switches orders as sync jobs come and go),
random and deterministic bursts, every registered policy with each of its
examples: the whole trace diagram, every job's start and end, and the
idle, empty-slot and busy PE-tick counts, the idle slots and the task-slices
must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import gang as naive

from tests.gang.conftest import FAMILY, run

# the hash of the random draws wraps around 2**64 on purpose (a warning only without the JIT)
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

CASES = [(name, i) for name, policy in FAMILY.policies.items() for i in range(len(policy.examples))]


def _random_case(rng, classes):
    P = int(rng.integers(1, 7))
    K = int(rng.integers(1, 5))
    n = int(rng.integers(1, 9))
    jobs = {"arrival": np.sort(rng.integers(0, 12 * K, n)), "width": rng.integers(1, P + 1, n),
            "work": rng.integers(1, 15 * K, n), "cls": rng.integers(0, classes, n)}
    workload = {"io_burst": float(rng.uniform(0.2, 2)), "io_wait": float(rng.uniform(0.2, 3)),
                "sync_phase": float(rng.uniform(0.3, 3)), "sync_imbalance": float(rng.uniform(0, 1))}
    return P, K, jobs, workload


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "example"), CASES)
def test_small_random_cases_match_the_naive_reference(policy, example):
    rng = np.random.default_rng(13 + example)
    params = FAMILY.policies[policy].examples[example]
    for case in range(60):
        # every other case without sync jobs: the loop visits each slice PE by PE throughout
        P, K, jobs, workload = _random_case(rng, 2 if case % 2 else 3)
        deterministic = bool(case % 3 == 0)
        u = rng.random(1 << 8)
        pool = np.column_stack([u, -np.log1p(-u)])
        slices = 60
        got, settings = run(policy, jobs, P, K, slices, example=params, workload=workload,
                            deterministic=deterministic, pool=pool)
        s = settings[0]
        # a policy without a local priority has no alpha or beta in its record: the reference reads none
        own = {name: s[name] if name in s.dtype.names else np.nan for name in ("alpha", "beta")}
        par = {**own, "gamma": s["smoothing"], "burst": s["io_burst"],
               "wait": s["io_wait"], "phase": s["sync_phase"], "imbalance": s["sync_imbalance"],
               "det": deterministic,
               "best_fit": params.get("packing") == "best_fit",
               "ispan": params.get("classifier") == "ispan"}
        want = naive.simulate(policy, jobs["arrival"].tolist(), jobs["width"].tolist(),
                              jobs["work"].tolist(), jobs["cls"].tolist(), P, K, slices, par, pool)
        label = f"case {case}: P={P} K={K} {jobs} {workload}"
        np.testing.assert_array_equal(got.rec, np.array(want["trace"]), err_msg=label)
        np.testing.assert_array_equal(got.jobs.start, want["start"], err_msg=label)
        np.testing.assert_array_equal(got.jobs.end, want["end"], err_msg=label)
        assert tuple(got.out[-1].tolist()) == (want["idle"], want["empty"], want["busy"], want["held"],
                                      want["held_idle"], want["idle_slots"],
                                      want["task_slices"]), label
