"""Invariants of every registered rigid policy, with each of its ``examples``.

Generic over the registry (no list of policies here): on the whole KTH trace
at 128 and at 100 processors, on KTH split by month, and on small random
workloads, every job starts exactly once, never before its submission, and
never are more than P processors busy. "Exactly once": every job has a start
time, and at the end the machine is empty with all P processors free — a job
started twice would hold processors it never gives back, or give back some
twice. Policy-specific ones: FCFS keeps submit order; conservative never
starts a job later than the reservation it got on arrival. And the yearly
waits the literature reports for EASY and conservative on KTH. The generic checks are
:mod:`sweep.testing.rigid`'s, which a plugin's rigid policies pass too.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sweep.families import NoParams, load_families
from sweep.families.rigid import conservative
from sweep.families.rigid._jobs import prepare
from sweep.families.rigid._simulate import schedule
from sweep.testing.rigid import check_schedule, run_from_empty, small_jobs

POLICIES = load_families()["rigid"].policies
PROCESSORS = (128, 100)
EXAMPLES = [(name, example) for name, policy in POLICIES.items() for example in policy.examples]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in example.items()) or 'defaults'}"
       for name, example in EXAMPLES]


@pytest.fixture(scope="module")
def whole(kth):
    return {p: prepare(kth, processors=p) for p in PROCESSORS}


@pytest.mark.parametrize("processors", PROCESSORS)
@pytest.mark.parametrize("name, example", EXAMPLES, ids=IDS)
def test_whole_kth_trace(whole, name, example, processors):
    jobs = whole[processors]
    check_schedule(jobs, run_from_empty(name, example, jobs, processors), processors)


@pytest.mark.parametrize("name, example", EXAMPLES, ids=IDS)
def test_kth_by_month(kth, name, example):
    jobs = prepare(kth, processors=128, split="month", priority_every=5)
    start = schedule(jobs, name, POLICIES[name].make_params(example))
    for k in range(len(jobs.labels)):  # each month on a machine of its own, empty at first
        s = jobs.part(k)
        month = SimpleNamespace(submit=jobs.submit[s], run=jobs.run[s], procs=jobs.procs[s])
        check_schedule(month, start[s], 128)
        assert start[s].min() == jobs.submit[s][0]


@pytest.mark.parametrize("name, example", EXAMPLES, ids=IDS)
def test_small_random_workloads(name, example):
    rng = np.random.default_rng(11)
    for _ in range(200):
        jobs = small_jobs(rng)
        check_schedule(jobs, run_from_empty(name, example, jobs, jobs.processors), jobs.processors)


@pytest.fixture(scope="module")
def runs(whole):
    """FCFS and conservative start times on the whole trace, at 128 and at 100 processors."""
    return {(name, p): run_from_empty(name, {}, whole[p], p) for name in ("fcfs", "conservative")
            for p in PROCESSORS}


@pytest.mark.parametrize("processors", PROCESSORS)
def test_fcfs_keeps_submit_order(runs, processors):
    assert (np.diff(runs["fcfs", processors]) >= 0).all()


@pytest.mark.parametrize("processors", PROCESSORS)
def test_conservative_never_later_than_its_arrival_reservation(whole, runs, processors):
    jobs, start = whole[processors], runs["conservative", processors]
    again, booked = conservative.reservations(jobs.submit, jobs.run, jobs.requested,
                                              jobs.procs, processors)
    np.testing.assert_array_equal(again, start)
    assert (start <= booked).all()
    assert (start < booked).any()  # early completions do move reservations up


def _yearly_wait(kth, policy, processors):
    """Total wait over total jobs, each calendar month from an empty machine (TF99 §3.2)."""
    jobs = prepare(kth, processors=processors, split="month")
    return float((schedule(jobs, policy, NoParams()) - jobs.submit).mean())


#: "About" as the noise floor of a yearly wait (sweep/papers/tf99/quantities.py, tf99_noise): 0.9%.
ABOUT = 0.009
OUTSIDE = pytest.mark.xfail(strict=True, reason="conservative at 100 processors waits 7163 s, 2.3% "
                            "above the independent simulators' 6.7-7.0 ks; cause not established")


@pytest.mark.parametrize("policy, processors, low, high", [
    ("easy", 128, 1900.0, 2100.0), ("conservative", 128, 1900.0, 2100.0),
    ("easy", 100, 6700.0, 7000.0), pytest.param("conservative", 100, 6700.0, 7000.0, marks=OUTSIDE)])
def test_yearly_wait_on_kth(kth, policy, processors, low, high):
    """Independent simple simulators on the archive trace give yearly waits of about
    1.9–2.1 ks at 128 processors and about 6.7–7.0 ks at 100 (reproduction/tf99.md);
    "about" is the noise floor, 0.9%. Measured (monthly, kill): EASY 1890 s / 6659 s,
    conservative 2015 s / 7163 s. (TF99 itself prints 2401 s for conservative at 128:
    claim ``tf99:table1.conservative_baseline`` of sweep/papers/tf99/claims.yaml.)
    """
    wait = _yearly_wait(kth, policy, processors)
    print(f"{policy} at {processors} processors: yearly average wait {wait:.1f} s")
    assert low * (1 - ABOUT) <= wait <= high * (1 + ABOUT)
