"""Slack-based priority backfilling (Talby & Feitelson 1999, TF99 §2): hand schedules and a KTH month.

The paper's claims on the KTH year (§3.2–3.3, Tables 1–5) are records of
sweep/papers/tf99/claims.yaml, judged by ``sweep-reproduce``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sweep.families import load_families
from sweep.families.rigid._jobs import prepare
from sweep.families.rigid.slack import SlackParams

POLICIES = load_families()["rigid"].policies

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


def _starts(params, jobs=JOBS, processors=2, priority=None):
    submit, procs, req = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    priority = np.zeros(len(jobs)) if priority is None else np.array(priority, dtype=float)
    return POLICIES["slack"].hooks.schedule(submit, req, req, procs.astype(np.int64),
                                      priority, processors, params).tolist()


def test_delayed_within_slack_never_beyond():
    assert _starts(SlackParams(slack_factor=1.0, awt=6.0)) == [0, 13, 10, 23]


def test_more_slack_lets_the_later_job_in():
    assert _starts(SlackParams(slack_factor=3.0, awt=6.0)) == [0, 16, 10, 13]


def test_no_slack_is_conservative():
    """SF = 0: no job may be delayed at all; only placements that delay nobody remain."""
    assert _starts(SlackParams(slack_factor=0.0, awt=6.0)) == [0, 10, 20, 23]


def test_quota_job_is_delayed_beyond_any_slack():
    """J1 over quota (PP = −∞, s = ∞), same jobs and SF = 1 as above.

    J2 at 2: ts = 10 pushes J1 to 13 at no cost: price 8·2 = 16 (< 36 at 20).
    J3 at 3: ts = 10 shifts J2 to 13, J1 to 16 (J2 delayed 3 <= its 4.67 s:
    2·3·(2/9)/(1/6) = 8, price 14 + 8 = 22); ts = 13 leaves J2 and pushes only J1,
    for free: price 10·2 = 20. J1 ends up 3 s later than its 13 with equal
    priorities, beyond the 1.5 s of slack it would have had.
    """
    assert _starts(SlackParams(slack_factor=1.0, awt=6.0), priority=[0, -np.inf, 0, 0]) == \
        [0, 16, 10, 13]


def test_quota_job_delays_nobody():
    """J2 over quota: it may not take 10 before J1 (as it does above); conservative's
    slot 20. J3 then takes 10, J1 goes to 13 (price 14 + 4.5) and J2, free to move, to 23.
    """
    assert _starts(SlackParams(slack_factor=1.0, awt=6.0), priority=[0, 0, -np.inf, 0]) == \
        [0, 13, 23, 10]


def _run_starts(params, jobs, processors=2, priority=None):
    """Like :func:`_starts` for jobs (submit, procs, requested, run) that may end early."""
    submit, procs, req, run = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    priority = np.zeros(len(jobs)) if priority is None else np.array(priority, dtype=float)
    return POLICIES["slack"].hooks.schedule(submit, run, req, procs.astype(np.int64), priority,
                                            processors, params).tolist()


# P = 2, SF = 1, AWT = 6 s. J0 (0, 2 procs, requested 10, run 4); J1 (1, 2, 3, 3) is placed at
# 10 (after J0's requested end); J0 ends early at 4, opening [4, 10).
EARLY = [(0, 2, 10, 4), (1, 2, 3, 3)]


@pytest.mark.parametrize("completion", ["compress", "remove"])
def test_a_completion_compresses(completion):
    """completion=compress (the default: conservative's compression) moves J1 up from 10 to its
    earliest start, 4; so does remove (Remove() of §2.1 with the dummy job: a profit of
    2 · 6 · ratio > 0)."""
    assert _run_starts(SlackParams(slack_factor=1.0, awt=6.0, completion=completion), EARLY) == [0, 4]


def test_tick_at_a_completion_replans_nothing():
    """completion=tick (Tick() of §2.1 read literally): J1 keeps its slot at 10."""
    assert _run_starts(SlackParams(slack_factor=1.0, awt=6.0, completion="tick"), EARLY) == [0, 10]


def test_move_up_in_an_insertion():
    """tick; J2 (5, 1 proc, 1 s) arrives in the hole. ts = 5: J2 at [5, 6), J1 delayed to 11 and
    compressed to 6, t_1 = −4: cost 2·(−4)·(p1/p2 = (1/4)/(1/6))·1 = −12, price −12 < 0, the
    price of conservative's schedule (J2 at 5, nobody moved). move_up=allow: J1 at 6. clamp: J1
    may not start before its 10, the move is worth 0 and conservative's schedule stays."""
    jobs = [*EARLY, (5, 1, 1, 1)]
    params = SlackParams(slack_factor=1.0, awt=6.0, completion="tick")
    assert _run_starts(params, jobs) == [0, 6, 5]
    assert _run_starts(replace(params, move_up="clamp"), jobs) == [0, 10, 5]
    # with Remove() J1 already runs from 4 to 7 when J2 arrives: J2 at 7
    assert _run_starts(replace(params, completion="remove"), jobs) == [0, 4, 7]


def test_moved_up_slack():
    """tick; J2 moves J1 up from 10 to 6 at t = 5 as above (t_1 = −4), then J3 (5, 1 proc, 7 s,
    UP + PP = 2: p = 5/6) arrives. ts = 5: J3 at [5, 12), J1 delayed and compressed to 12, a
    delay of 6 at cost 2·6·((1/4)/(5/6))·(4.5/8.5) = 1.9, below conservative's (9 − 5)·1 = 4.
    moved_up_slack=regained (as printed, s −= t_i): J1's slack grew to 4.5 + 4 = 8.5 >= 6, so
    J3 goes first. kept: J1 still has 4.5 < 6 s, J3 waits for J1's end at 9."""
    jobs = [*EARLY, (5, 1, 1, 1), (5, 1, 7, 7)]
    params = SlackParams(slack_factor=1.0, awt=6.0, completion="tick")
    assert _run_starts(params, jobs, priority=[0, 0, 0, 2]) == [0, 12, 5, 5]
    assert _run_starts(replace(params, moved_up_slack="kept"), jobs, priority=[0, 0, 0, 2]) == \
        [0, 6, 5, 9]


def test_no_slack_is_conservative_start_for_start_on_a_kth_month(kth):
    """The module docstring's claim: completion=compress, SF = 0, move_up=clamp and
    moved_up_slack=kept give conservative's schedule exactly (October 1996, 2407 jobs)."""
    jobs = prepare(kth, split="month")
    s = jobs.part(jobs.labels.index("1996-10"))
    columns = (jobs.submit[s], jobs.run[s], jobs.requested[s], jobs.procs[s], jobs.priority[s], 128)
    conservative = POLICIES["conservative"].hooks.schedule(*columns, None)
    slack = POLICIES["slack"].hooks.schedule(*columns, SlackParams(slack_factor=0.0, move_up="clamp",
                                                                  moved_up_slack="kept"))
    np.testing.assert_array_equal(slack, conservative)


def test_running_awt():
    """awt_estimate=running on JOBS (SF = 1, AWT = 6 s counting as one job): J0 starts at 0 with
    no wait, so from t = 1 the AWT is (6 + 0)/2 = 3 s. J1 at 10: SP = min(9/6, 1) = 1, p = 1/3,
    s0 = (2/3)·1·3 = 2 s, so J2 may not push it by 3 s (it could with AWT 6 s: 13, 10 above);
    J2 takes conservative's 20, J3 its 23 (at 20 it would push J2, whose slack is 2 s too)."""
    params = SlackParams(slack_factor=1.0, awt=6.0, awt_estimate="running")
    assert _starts(params) == [0, 10, 20, 23]


@pytest.mark.parametrize("option, value, allowed", [
    ("heuristic", "xyz", "one of ast, aat, du, dc, dp"), ("alpha_u", 2.0, "a number in [0, 1]"),
    ("alpha_f", -0.5, "a number in [0, 1]"), ("slack_factor", -1, "a number >= 0"),
    ("awt", 0, "a number of seconds > 0"), ("fairness_exponent", "both", "one of printed, alpha_f"),
    ("zero_slack_weight", "one", "one of neutral, zero"),
    ("completion", "end", "one of compress, remove, tick"),
    ("moved_up_slack", "lost", "one of regained, kept"),
    ("move_up", "no", "one of allow, clamp"), ("tie", "first", "one of moved, delayed"),
    ("awt_estimate", "monthly", "one of fixed, running")])
def test_bad_parameters_name_themselves(option, value, allowed):
    """One line: the option, the allowed values, the value given."""
    with pytest.raises(ValueError) as error:
        POLICIES["slack"].make_params({option: value})
    assert str(error.value) == f"policy.{option} must be {allowed}, got {value!r}"
