"""Hand-worked schedules of the FCFS, EASY and conservative passes and the ordered EASYs (STYLE 6).

Each case lists its jobs as ``(submit, processors, requested, run)``, the
start times worked out by hand in its comment, and the policies it checks.
Times in seconds.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families import NoParams, load_families

POLICIES = load_families()["rigid"].policies


def _starts(policy, jobs, processors):
    submit, procs, req, run = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    return POLICIES[policy].hooks.schedule(submit, run, req, procs.astype(np.int64),
                                           np.zeros(len(jobs)), processors, NoParams()).tolist()


# P = 4. J0 (3 procs) runs 0–10.
# t=1  J1 (2 procs, 10 s) waits. EASY: shadow 10 (J0's end frees 4), extra 4-2 = 2.
#      Conservative: J1 reserves [10, 20).
# t=2  J2 (4 procs, 10 s) cannot start (1 free). Conservative: reserves [20, 30).
# t=3  J3 (1 proc, 20 s) fits now (1 free) but ends at 23 > shadow 10.
#      EASY: 1 <= extra 2, so it backfills at 3 (it delays J2, which EASY does not
#      protect). Conservative: [3, 23) overlaps J2's [20, 30) where 0 are free;
#      [10, 30) too; first fit is 30.
# t=10 J0 ends. EASY: J1 starts (1 free left); J2 needs 4: J1 ends 20 (3 free),
#      J3 ends 23 (4 free) -> J2 starts 23. Conservative: J1 starts on its reservation.
# t=20 conservative: J2 starts; t=30 J3 starts.
# FCFS: J1 10, J2 20, J3 30 (J3 cannot pass J2).
EASY_DELAYS_SECOND = [(0, 3, 10, 10), (1, 2, 10, 10), (2, 4, 10, 10), (3, 1, 20, 20)]

# P = 8. J0 (4 procs) runs 0–10. At t=1 four jobs arrive together.
# EASY pass at 1: head J1 (6 procs) does not fit (4 free); shadow 10, extra 8-6 = 2.
#   J2 (2 procs, 20 s): fits, ends 21 > 10, 2 <= extra -> starts; extra 0, free 2.
#   J3 (2 procs, 20 s): fits now (2 free), but ends after the shadow and extra is
#       0 once J2 is counted -> waits.
#   J4 (2 procs, 5 s): fits, ends 6 <= 10 -> starts; free 0.
# t=6  J4 ends: head J1 still needs 6 (2 free); shadow 10 (J0 frees 4: 6 free),
#      extra 0; J3 would end at 26 > 10 -> waits.
# t=10 J0 ends: J1 starts (0 free). J3 head: J1 ends 20 -> starts 20.
# Conservative at 1, in trace order: J1 reserves [10, 20). J2 needs 2 over [1, 21):
#   4 free over [1, 10), 8-6 = 2 over [10, 20), 8 after -> starts at 1. J3: over
#   [10, 20) nothing is left -> first fit 20 (6 free until J2 ends at 21). J4:
#   [1, 6) has 4-2 = 2 free -> 1. At 6 (J4 ends) compression moves nothing.
# FCFS: J1 blocks everyone until 10; then J1 and J2 start (0 free); at 20 J1 ends
#   and J3, J4 start.
EASY_EXTRA_COUNTS_BACKFILLED = [(0, 4, 10, 10), (1, 6, 10, 10), (1, 2, 20, 20),
                                (1, 2, 20, 20), (1, 2, 5, 5)]

# P = 4. Decisions use requested times: J0 (2 procs) requests 100 s, runs 10 s.
# t=1  J1 (4 procs) waits: shadow 100, extra 0. Conservative: reserves [100, 110).
# t=2  J2 (2 procs, 50 s) ends by 52 <= 100: backfills at 2 under both.
# t=10 J0 ends early. EASY: J1 still needs 4 (2 free); shadow = J2's requested
#      end 52. Conservative compression: J1 re-placed at the first time 4 are free,
#      52. Both start J1 at 52. FCFS: J2 waits behind J1; at 10 J1 starts (4 free),
#      J2 follows at 20.
EARLY_END_FREES_THE_REST = [(0, 2, 100, 10), (1, 4, 10, 10), (2, 2, 50, 50)]

# P = 2. At t=5 J0 completes and J1 arrives: completions come first, so J1
# starts at 5 under every policy. J2 arrives at 5 too (after J1 in trace order)
# and starts when J1 ends, at 8; all policies agree.
COMPLETION_BEFORE_ARRIVAL = [(0, 2, 5, 5), (5, 2, 3, 3), (5, 1, 4, 4)]

# P = 4. J0 (4 procs) requests 20 s but ends at 5.
# t=1 J1 (2 procs, 10 s): conservative reserves [20, 30). t=2 J2 (2 procs, 10 s):
# [20, 30) (2 left). t=3 J3 (4 procs, 5 s): first fit 30.
# t=5 J0 ends early; compression in submit order: J1 -> [5, 15), J2 -> [5, 15),
#     J3 -> [15, 20); both start now. EASY/FCFS: J1, J2 start at 5 (heads);
#     J3 at 15 (no backfill candidate).
COMPRESSION_IN_SUBMIT_ORDER = [(0, 4, 20, 5), (1, 2, 10, 10), (2, 2, 10, 10), (3, 4, 5, 5)]

CASES = {
    "easy_delays_second": (EASY_DELAYS_SECOND, 4, {
        "fcfs": [0, 10, 20, 30], "easy": [0, 10, 23, 3], "conservative": [0, 10, 20, 30]}),
    "easy_extra_counts_backfilled": (EASY_EXTRA_COUNTS_BACKFILLED, 8, {
        "fcfs": [0, 10, 10, 20, 20], "easy": [0, 10, 1, 20, 1],
        "conservative": [0, 10, 1, 20, 1]}),
    "early_end_frees_the_rest": (EARLY_END_FREES_THE_REST, 4, {
        "fcfs": [0, 10, 20], "easy": [0, 52, 2], "conservative": [0, 52, 2]}),
    "completion_before_arrival": (COMPLETION_BEFORE_ARRIVAL, 2, {
        "fcfs": [0, 5, 8], "easy": [0, 5, 8], "conservative": [0, 5, 8]}),
    "compression_in_submit_order": (COMPRESSION_IN_SUBMIT_ORDER, 4, {
        "fcfs": [0, 5, 5, 15], "easy": [0, 5, 5, 15], "conservative": [0, 5, 5, 15]}),
}
CHECKS = [(case, policy) for case, (_, _, expected) in CASES.items() for policy in expected]


@pytest.mark.kernel
@pytest.mark.parametrize("case, policy", CHECKS)
def test_hand_schedule(case, policy):
    jobs, processors, expected = CASES[case]
    assert _starts(policy, jobs, processors) == expected[policy]


@pytest.mark.parametrize("policy, expected", [
    ("fcfs", [0, 10, 30, 30, 33]), ("easy", [0, 10, 30, 30, 33]),
    ("conservative", [0, 10, 30, 30, 33]), ("sjf_easy", [0, 23, 10, 10, 13]),
    ("lxf_easy", [0, 15, 10, 10, 35]), ("wfp_easy", [0, 15, 10, 10, 35])])
@pytest.mark.kernel
def test_ordered_easy_overtakes_the_head(policy, expected):
    """The queue order decides EASY's head (jobs ``(submit, procs, requested = run)``).

    P = 4; every job runs as long as it requests. J0 (4 procs, 10 s) runs 0–10.
    t=1 J1 (4 procs, 20 s), t=2 J2 (2 procs, 5 s), t=3 J3 (2 procs, 3 s) wait: nothing is free.
    FCFS-EASY. t=10 J0 ends: head J1 starts (0 free), 10–30. Head J2 blocked: shadow 30,
      extra 4-2 = 2; J3 does not fit now. t=11 J4 (2 procs, 10 s) arrives: nothing fits.
      t=30 J1 ends: J2 and J3 start (0 free); head J4: J3 ends 33 -> starts 33.
      FCFS and conservative give the same: [0, 10, 30, 30, 33].
    SJF-EASY (shortest requested first). t=10 queue J3 (3), J2 (5), J1 (20): J3 and J2
      start (0 free); head J1: J3 ends 13 (2 free), J2 15 (4 free): reserved for 15.
      t=11 queue J4 (10), J1 (20): the head is now J4, reserved for 13 (extra 0); J1 waits.
      t=13 J3 ends: J4 starts, 13–23; head J1: J2 frees 2 at 15, J4 2 more at 23 -> 23.
      [0, 23, 10, 10, 13]: the short jobs overtake J1 twice.
    LXF-EASY (largest (wait + requested) / requested first). t=10: J1 29/20 = 1.45,
      J2 13/5 = 2.6, J3 10/3 = 3.3: J3, J2 start as under SJF, J1 reserved for 15.
      t=11: J1 30/20 = 1.5 before J4 10/10 = 1: J1 stays the head (shadow 15, extra 0).
      t=13 (2 free): J1 1.6, J4 1.2; J4 fits now but ends 23 > 15 and extra is 0: waits.
      t=15 J2 ends: J1 starts, 15–35; t=35 J4 starts. [0, 15, 10, 10, 35].
    WFP-EASY (largest (wait / requested)^3 * procs first). t=10: J1 (9/20)^3 * 4 = 0.36,
      J2 (8/5)^3 * 2 = 8.2, J3 (7/3)^3 * 2 = 25.4: as LXF. t=11: J1 0.5 before J4 0;
      t=13: J1 0.86 before J4 0.016: the same schedule as LXF.
    """
    jobs = [(0, 4, 10, 10), (1, 4, 20, 20), (2, 2, 5, 5), (3, 2, 3, 3), (11, 2, 10, 10)]
    assert _starts(policy, jobs, 4) == expected
