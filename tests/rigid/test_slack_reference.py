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


PAPER_PRIORITIES = (0.0, 0.0, 0.0, 1.0, 2.0, -math.inf)


def _random_case(rng, *, jobs=(4, 20), processors=(1, 7), span=20, longest=12,
                 priorities=PAPER_PRIORITIES, fractional_price=True):
    """A random workload and parameters; ``fractional_price=False`` keeps α_p and α_f at 0 or 1
    (with a priority above 1 or below −½, a ratio or s0 is negative, and a negative number has
    no real fractional power: the reference's Python would give a complex price)."""
    n = int(rng.integers(*jobs))
    processors = int(rng.integers(*processors))
    submit = np.sort(rng.integers(0, span, n)).astype(float)
    req = rng.integers(1, longest, n).astype(float)
    run = np.minimum(req, rng.integers(1, longest, n)).astype(float)
    procs = rng.integers(1, processors + 1, n)
    priority = rng.choice(priorities, n)
    params = {key: str(rng.choice(values)) for key, values in CHOICES.items()}
    for alpha in ("alpha_u", "alpha_t", "alpha_p", "alpha_f"):
        fractional = fractional_price or alpha in ("alpha_u", "alpha_t")
        params[alpha] = float(rng.choice([0.0, 1.0, round(float(rng.random()), 3)] if fractional
                                         else [0.0, 1.0]))
    params["slack_factor"] = float(rng.choice([0.0, 1.0, 3.0, round(float(rng.uniform(0, 6)), 2)]))
    params["awt"] = float(rng.choice([1.0, 6.0, 20.0]))
    return (submit, run, req, procs, priority, processors), params


def _assert_as_reference(case):
    (submit, run, req, procs, priority, processors), params = case
    got = POLICY.hooks.schedule(submit, run, req, procs, priority, processors,
                                POLICY.make_params(params))
    want = naive.simulate(submit.tolist(), run.tolist(), req.tolist(), procs.tolist(),
                          priority.tolist(), processors, **params)
    np.testing.assert_array_equal(got, want, err_msg=str(params))


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(30))
def test_small_random_workloads(seed):
    _assert_as_reference(_random_case(np.random.default_rng([17, seed])))


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(12))
def test_long_queues(seed):
    """20–60 jobs on up to 16 processors: queues long enough that most slots are decided by the
    proof that a job cannot move up and by the bounds of those that can."""
    _assert_as_reference(_random_case(np.random.default_rng([18, seed]), jobs=(20, 60),
                                      processors=(4, 17), span=60, longest=30))


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(20))
def test_priorities_beyond_the_papers(seed):
    """UP + PP of 3.5 (p > 1, s0 < 0: a delay costs less than nothing) and −1.5 (negative
    priority ratios): costs that fall with the delay, where no bound may prune a slot."""
    _assert_as_reference(_random_case(np.random.default_rng([19, seed]), jobs=(8, 40),
                                      processors=(2, 12), span=40, longest=20,
                                      priorities=(0.0, 0.0, 1.0, 2.0, 3.5, -1.5, -math.inf),
                                      fractional_price=False))


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
