"""Slack-based priority backfilling (seed 001 §2; MODEL_NOTES §2): hand schedule and KTH."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.rigid._policy import POLICIES
from sweep.families.rigid.jobs import prepare
from sweep.families.rigid.simulate import schedule
from sweep.families.rigid.slack import SlackParams

# P = 2, SF = 1, AWT = 6 s, α = 1, AST, all UP = PP = 0. A job inserted with SP = ½ has
# p = 1/6; after its start is fixed, SP = min(wait / 12, 1), p = SP / 3, s = s0 = (1 - p)·6.
# Jobs (submit, procs, requested = run):
#   J0 (0, 2, 10): starts at 0 (price 0).
#   J1 (1, 1, 10): slots 1 (no fit: J0), 10 -> te 10, price 9. SP = 9/12, p = 1/4, s = 4.5.
#   J2 (2, 2, 3): slots {2, 10, 20}. ts = 2: no fit. ts = 10: J2 at [10, 13), J1 re-placed
#       at 13 (delay 3 <= 4.5): price (10-2)·2 + 1·3·(1/4)/(1/6)·1 = 16 + 4.5 = 20.5.
#       ts = 20 (conservative's slot): price 18·2 = 36. -> J2 at 10, J1 delayed to 13 within
#       its slack, which drops to 1.5. J2: SP = 8/12, s = (1 - 2/9)·6 = 4.67.
#   J3 (3, 2, 3): slots {3, 10, 13, 23}. ts = 3: no fit. ts = 10 and 13 would push J1 to
#       16, a delay of 3 > its remaining slack 1.5: infinite price. ts = 23: J3 after J1,
#       price 20·2 = 40 -> J3 at 23: J1 is never delayed beyond its slack.
# The completions at 10 and 13 compress nothing (no hole opens). Starts: 0, 13, 10, 23.
# With SF = 3 (slack 13.5 for J1) J3 jumps ahead at 13, J1 goes to 16: 0, 16, 10, 13.
JOBS = [(0, 2, 10), (1, 1, 10), (2, 2, 3), (3, 2, 3)]


def _starts(params, jobs=JOBS, processors=2):
    submit, procs, req = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    return POLICIES["slack"].schedule(submit, req, req, procs.astype(np.int64),
                                      np.zeros(len(jobs)), processors, params).tolist()


def test_delayed_within_slack_never_beyond():
    assert _starts(SlackParams(slack_factor=1.0, awt=6.0)) == [0, 13, 10, 23]


def test_more_slack_lets_the_later_job_in():
    assert _starts(SlackParams(slack_factor=3.0, awt=6.0)) == [0, 16, 10, 13]


def test_no_slack_is_conservative():
    """SF = 0: no job may be delayed at all; only placements that delay nobody remain."""
    assert _starts(SlackParams(slack_factor=0.0, awt=6.0)) == [0, 10, 20, 23]


@pytest.mark.parametrize("option, value", [("heuristic", "xyz"), ("alpha_u", 2.0),
                                           ("fairness_exponent", "both")])
def test_bad_parameters_name_themselves(option, value):
    with pytest.raises(ValueError, match=option):
        POLICIES["slack"].make_params({option: value})


def test_paper_claim_lower_wait_than_conservative(kth):
    """Seed 001 Table 1: SF = 3, α = 1, AST, AWT = 2401 s beats conservative (paper: 16.5%)."""
    jobs = prepare(kth, split="month")
    slack = float((schedule(jobs, "slack", SlackParams()) - jobs.submit).mean())
    conservative = float((schedule(jobs, "conservative", None) - jobs.submit).mean())
    print(f"yearly wait: slack {slack:.1f} s, conservative {conservative:.1f} s, "
          f"{1 - slack / conservative:.1%} lower")
    assert slack < 0.9 * conservative
