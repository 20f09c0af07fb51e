"""Power of d choices: Random at d = 1, the mean-field limit as h grows, a hand-worked schedule."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.dispatch.power_of_d import mean_field_response

from ._util import FAMILY, FixedDraws, point, schedule


@pytest.mark.kernel
def test_one_choice_is_random_job_for_job():
    """d = 1 draws the same uniform per job as Random and sends the job to the same host."""
    one = FAMILY.simulate(point("power_of_d", "hyperexp2", hosts=4, load=0.8, jobs=20_000,
                                record=True, d=1), np.random.default_rng(3))
    random = FAMILY.simulate(point("random", "hyperexp2", hosts=4, load=0.8, jobs=20_000, record=True),
                             np.random.default_rng(3))
    for name, values in random.jobs.items():
        np.testing.assert_array_equal(one.jobs[name], values, err_msg=name)
    assert one.summary["mean_response"] == random.summary["mean_response"]


def test_mean_field_limit_values():
    """Mitzenmacher (2001) Thm 3.1 at rho = .9: d = 1 is M/M/1 (10 s), d = 2 sums rho^(2^i - 1)."""
    assert mean_field_response(0.9, 1) == pytest.approx(10.0)
    by_hand = sum(0.9 ** (2 ** i - 1) for i in range(1, 30)) / 0.9
    assert mean_field_response(0.9, 2) == pytest.approx(by_hand, rel=1e-12)


def test_approaches_the_mean_field_limit_as_hosts_grow():
    """Exponential sizes, rho = .9, d = 2: the error to the h -> inf limit shrinks with h (O(1/h)),
    and at h = 100 the limit lies within 3% (finite-h correction plus the run's own 90% CI)."""
    limit = mean_field_response(0.9, 2)
    errors = {}
    for hosts in (10, 100):
        p = point("power_of_d", "exponential", hosts=hosts, load=0.9, jobs=1_000_000, warmup=100_000, d=2)
        summary = FAMILY.simulate(p, np.random.default_rng(11)).summary
        errors[hosts] = summary["mean_response"] / limit - 1
    assert errors[100] < errors[10]
    assert abs(errors[100]) < 0.03


@pytest.mark.kernel
def test_hand_worked_schedule():
    """Three hosts, four jobs of size 10 at t = 0, 1, 2, 3; d = 2, uniforms in pairs.

    job 0 samples hosts (0, 2): both empty, the first sampled -> host 0, runs 0..10;
    job 1 samples (0, 1): host 0 has 1 job, host 1 none -> host 1, runs 1..11;
    job 2 samples (1, 0): both have 1 job, the first sampled -> host 1, waits, runs 11..21;
    job 3 samples (1, 2): host 1 has 2 jobs, host 2 none -> host 2, runs 3..13.
    """
    uniforms = [0.1, 0.9, 0.2, 0.5, 0.4, 0.3, 0.6, 0.7]  # floor(3 U): 0 2 | 0 1 | 1 0 | 1 2
    result = schedule("power_of_d", [0.0, 1.0, 2.0, 3.0], [10.0] * 4, hosts=3, rng=FixedDraws(uniforms), d=2)
    assert result.jobs["job_host"].tolist() == [0, 1, 1, 2]
    assert result.jobs["start"].tolist() == [0.0, 1.0, 11.0, 3.0]
