"""Schedules of 4–5 jobs worked out by hand, one per policy.

Each docstring gives the arrivals and sizes, the host chosen at every arrival
and why, and the resulting start and end times. Hosts are 0-based (the
paper's host 1 is host 0). FCFS per host: a job starts at max(arrival, the
end of the job before it on its host).
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.dispatch import sita_u_fair, sita_u_opt
from sweep.families.dispatch._workload import workload_of

from ._util import WORKLOADS, FixedDraws, schedule

pytestmark = pytest.mark.kernel  # rerun without the JIT (tests/test_without_jit.py)


def _check(result, host, start, end):
    jobs = result.jobs
    np.testing.assert_array_equal(jobs["job_host"], host)
    np.testing.assert_allclose(jobs["start"], start, rtol=0, atol=1e-12)
    np.testing.assert_allclose(jobs["end"], end, rtol=0, atol=1e-12)


def test_random():
    """h = 2, arrivals 0, 1, 2, 3, sizes 3, 1, 2, 1, uniforms .1 .2 .7 .4 -> hosts 0 0 1 0.

    host = floor(2 U). Host 0: job 0 runs 0–3, job 1 waits for it, 3–4, job 3
    (arrives 3) waits for job 1, 4–5. Host 1: job 2 runs 2–4.
    """
    result = schedule("random", [0, 1, 2, 3], [3, 1, 2, 1], rng=FixedDraws([.1, .2, .7, .4]))
    _check(result, [0, 0, 1, 0], [0, 3, 2, 4], [3, 4, 4, 5])


def test_round_robin():
    """h = 2, arrivals 0, .5, 1, 1.5, 2, sizes 2, 2, 1, 1, 1 -> hosts 0 1 0 1 0 (i mod h).

    Host 0: job 0 0–2, job 2 waits, 2–3, job 4 waits, 3–4.
    Host 1: job 1 .5–2.5, job 3 waits, 2.5–3.5.
    """
    result = schedule("round_robin", [0, .5, 1, 1.5, 2], [2, 2, 1, 1, 1])
    _check(result, [0, 1, 0, 1, 0], [0, .5, 2, 2.5, 3], [2, 2.5, 3, 3.5, 4])


def test_round_robin_cycle_carries_across_chunks():
    """The same five jobs fed two at a time: the cycle goes on where it stopped."""
    result = schedule("round_robin", [0, .5, 1, 1.5, 2], [2, 2, 1, 1, 1], chunk_jobs=2)
    _check(result, [0, 1, 0, 1, 0], [0, .5, 2, 2.5, 3], [2, 2.5, 3, 3.5, 4])


def test_shortest_queue():
    """h = 2, arrivals 0, .1, .2, .3, 4, sizes 4, 1, 1, 1, 1.

    t=0:  counts (0, 0), tie -> host 0, runs 0–4.
    t=.1: (1, 0) -> host 1, .1–1.1.
    t=.2: (1, 1), tie -> host 0 (Least-Work-Left would pick host 1: 3.8 vs .9 left),
          waits for job 0: 4–5.
    t=.3: (2, 1) -> host 1, waits for job 1: 1.1–2.1.
    t=4:  job 0 leaves at exactly 4, so host 0 holds 1 job (job 2); host 1 is empty
          (job 3 left at 2.1): (1, 0) -> host 1, 4–5.
    """
    result = schedule("shortest_queue", [0, .1, .2, .3, 4], [4, 1, 1, 1, 1])
    _check(result, [0, 1, 0, 1, 1], [0, .1, 4, 1.1, 4], [4, 1.1, 5, 2.1, 5])


def test_shortest_queue_departure_at_arrival_has_left():
    """h = 2, arrivals 0, 0, 1, sizes 1, .5, 1: job 0 leaves host 0 as job 2 arrives.

    t=0: (0, 0) -> host 0, 0–1; (1, 0) -> host 1, 0–.5. t=1: job 0 leaves at exactly
    1, so the counts are (0, 0) and the tie goes to host 0, 1–2. (Counting the
    leaving job would give (1, 0) and host 1.)
    """
    result = schedule("shortest_queue", [0, 0, 1], [1, .5, 1])
    _check(result, [0, 1, 0], [0, 0, 1], [1, .5, 2])


def test_lwl():
    """h = 2, arrivals 0, .1, .2, 5, sizes 4, 1, 1, 1.

    t=0:  work (0, 0), tie -> host 0, 0–4.
    t=.1: (3.9, 0) -> host 1, .1–1.1.
    t=.2: (3.8, .9) -> host 1, waits: 1.1–2.1.
    t=5:  both idle, work (0, 0), tie -> host 0 (lowest index), 5–6.
    """
    result = schedule("lwl", [0, .1, .2, 5], [4, 1, 1, 1])
    _check(result, [0, 1, 1, 0], [0, .1, 1.1, 5], [4, 1.1, 2.1, 6])


def test_central_queue():
    """The same jobs as Least-Work-Left: same times, but the last job goes to host 1.

    t=0: both idle since 0, tie -> host 0, 0–4. t=.1: host 1 idle -> .1–1.1.
    t=.2: no host idle: the job waits at the dispatcher; host 1 frees first (1.1)
    and takes it: 1.1–2.1. t=5: both idle, host 1 since 2.1, host 0 since 4: the
    host idle longest, host 1, takes it, 5–6.
    """
    result = schedule("central_queue", [0, .1, .2, 5], [4, 1, 1, 1])
    _check(result, [0, 1, 1, 1], [0, .1, 1.1, 5], [4, 1.1, 2.1, 6])


def test_sita_e():
    """Exponential sizes, mean 1, h = 2: the cutoff c solves 1 − e^{−c}(1 + c) = 1/2.

    c = 1.67835 (host 0 gets half the work). Arrivals 0, .5, 1, 1.5, sizes 3, .5, 2, 1
    -> hosts 1 0 1 0. Host 1: job 0 0–3, job 2 waits, 3–5. Host 0: job 1 .5–1,
    job 3 1.5–2.5.
    """
    result = schedule("sita_e", [0, .5, 1, 1.5], [3, .5, 2, 1])
    _check(result, [1, 0, 1, 0], [0, .5, 3, 1.5], [3, 1, 5, 2.5])


def test_sita_u_rule():
    """Exponential sizes, mean 1, h = 2, ρ = .5: host 0 gets the fraction ρ/2 = 1/4 of the work.

    c solves 1 − e^{−c}(1 + c) = 1/4: c = .96128 (SITA-E's would be 1.678). Arrivals
    0, .2, .4, .6, sizes 1.2, .5, .9, 2 -> hosts 1 0 0 1. Host 1: job 0 0–1.2, job 3
    waits, 1.2–3.2. Host 0: job 1 .2–.7, job 2 waits, .7–1.6.
    """
    result = schedule("sita_u_rule", [0, .2, .4, .6], [1.2, .5, .9, 2], load=0.5)
    _check(result, [1, 0, 0, 1], [0, .2, .7, 1.2], [1.2, .7, 1.6, 3.2])


def test_sita_u_rule_fixed_fraction():
    """``host1_fraction = .5`` is SITA-E: the same jobs now split at 1.678 -> hosts 0 0 0 1.

    Host 0: job 0 0–1.2, job 1 waits, 1.2–1.7, job 2 waits, 1.7–2.6. Host 1: job 3 .6–2.6.
    """
    result = schedule("sita_u_rule", [0, .2, .4, .6], [1.2, .5, .9, 2], load=0.5,
                      host1_fraction=0.5)
    _check(result, [0, 0, 0, 1], [0, 1.2, 1.7, .6], [1.2, 1.7, 2.6, 2.6])


@pytest.mark.parametrize("module", [sita_u_fair, sita_u_opt], ids=["sita_u_fair", "sita_u_opt"])
def test_sita_u_numeric_cutoff(module):
    """C90 reconstruction, h = 2, ρ = .5: the cutoff is numeric, but lies in (10, 10^5).

    (SITA-U-fair: about 11,970 s; SITA-U-opt: about 6,530 s.) Sizes 2 and 5 go to host 0,
    2e5 and 3e5 to host 1. Arrivals 0, 1, 2, 3, sizes 2e5, 2, 3e5, 5 -> hosts 1 0 1 0.
    Host 1: job 0 0–2e5, job 2 waits, 2e5–5e5. Host 0: job 1 1–3, job 3 3–8.
    """
    cutoff, = module.rule(workload_of(WORKLOADS["c90"]).cutoffs, 2, 0.5, {})
    assert 10 < cutoff < 1e5
    result = schedule(module.__name__.rsplit(".", 1)[1], [0, 1, 2, 3], [2e5, 2, 3e5, 5],
                      workload="c90", load=0.5)
    _check(result, [1, 0, 1, 0], [0, 1, 2e5, 3], [2e5, 3, 5e5, 8])


def test_warmup_jobs_run_but_are_not_measured():
    """Round-Robin, h = 1 (every job on host 0), arrivals 0, 1, 2, sizes 2, 2, 2, warm-up 1.

    Job 0 runs 0–2 (warm-up), job 1 waits, 2–4, job 2 waits, 4–6: measured are jobs 1
    and 2, with waits 1 and 2, responses 3 and 4, slowdowns 1.5 and 2.
    Utilization over [1, 2] (first to last measured arrival): the host is busy all along: 1.
    """
    result = schedule("round_robin", [0, 1, 2], [2, 2, 2], hosts=1, warmup=1)
    _check(result, [0, 0], [2, 4], [4, 6])
    summary = result.summary
    assert summary["jobs"] == 2
    assert summary["mean_wait"] == pytest.approx(1.5)
    assert summary["mean_response"] == pytest.approx(3.5)
    assert summary["mean_slowdown"] == pytest.approx(1.75)
    assert summary["var_slowdown"] == pytest.approx(0.125)
    assert summary["utilization"] == pytest.approx(1.0)
