"""The slack kernel matches the slow reference ``tests/naive/slack.py`` start for start (issue 17).

Small random workloads with integer times (many equal timestamps, early
completions, zero slack, jobs over quota) and random parameters: every option
of :class:`~sweep.families.rigid.slack.SlackParams`, α weights drawn from
[0, 1] (also exactly 0 and 1). The prices of both are summed in the same order,
so equal prices compare equal and ties resolve the same way.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import slack as naive

from sweep.families import load_families
from sweep.families.rigid import _slack

POLICY = load_families()["rigid"].policies["slack"]
CHOICES = {"heuristic": _slack.HEURISTICS, "fairness_exponent": _slack.FAIRNESS,
           "zero_slack_weight": _slack.ZERO_SLACK, "completion": _slack.COMPLETION,
           "move_up": _slack.MOVE_UP, "tie": _slack.TIE, "moved_up_slack": _slack.MOVED_UP_SLACK,
           "awt_estimate": _slack.AWT_ESTIMATE}


def _random_case(rng):
    n = int(rng.integers(4, 20))
    processors = int(rng.integers(1, 7))
    submit = np.sort(rng.integers(0, 20, n)).astype(float)
    req = rng.integers(1, 12, n).astype(float)
    run = np.minimum(req, rng.integers(1, 12, n)).astype(float)
    procs = rng.integers(1, processors + 1, n)
    priority = rng.choice([0.0, 0.0, 0.0, 1.0, 2.0, -math.inf], n)
    params = {key: str(rng.choice(values)) for key, values in CHOICES.items()}
    for alpha in ("alpha_u", "alpha_t", "alpha_p", "alpha_f"):
        params[alpha] = float(rng.choice([0.0, 1.0, round(float(rng.random()), 3)]))
    params["slack_factor"] = float(rng.choice([0.0, 1.0, 3.0, round(float(rng.uniform(0, 6)), 2)]))
    params["awt"] = float(rng.choice([1.0, 6.0, 20.0]))
    return (submit, run, req, procs, priority, processors), params


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(30))
def test_small_random_workloads(seed):
    (submit, run, req, procs, priority, processors), params = _random_case(
        np.random.default_rng([17, seed]))
    got = POLICY.hooks.schedule(submit, run, req, procs, priority, processors,
                                POLICY.make_params(params))
    want = naive.simulate(submit.tolist(), run.tolist(), req.tolist(), procs.tolist(),
                          priority.tolist(), processors, **params)
    np.testing.assert_array_equal(got, want, err_msg=str(params))


def test_the_cases_are_not_conservative():
    """Not vacuous: in most cases some job starts elsewhere than under conservative backfilling."""
    conservative = load_families()["rigid"].policies["conservative"]
    differ = 0
    for seed in range(30):
        (submit, run, req, procs, priority, processors), params = _random_case(
            np.random.default_rng([17, seed]))
        slack = POLICY.hooks.schedule(submit, run, req, procs, priority, processors,
                                      POLICY.make_params(params))
        plain = conservative.hooks.schedule(submit, run, req, procs, priority, processors, None)
        differ += not np.array_equal(slack, plain)
    assert differ >= 15
