"""Job preparation from SWF traces (Talby & Feitelson 1999 §3.1–3.3; docs/model-notes.md §2)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from sweep.families.rigid._jobs import offered_load, prepare


def _trace(**columns):
    """A tiny trace-like object: defaults for every column the preparation reads."""
    n = len(columns["submit"])
    base = dict(header={}, unix_start_time=None, job_number=np.arange(1, n + 1),
                run_time=np.full(n, 10.0), requested_time=np.full(n, 20.0),
                requested_procs=np.ones(n, np.int64), allocated_procs=np.ones(n, np.int64))
    base.update({k: np.asarray(v) for k, v in columns.items() if k != "header"})
    base["header"] = columns.get("header", {})
    return SimpleNamespace(**base)


def test_drops_are_counted_by_reason_never_silent():
    tr = _trace(submit=[0, 1, 2, 3, 4, -1], run_time=[5, -1, 5, 5, 5, 5],
                requested_procs=[2, 2, -1, -1, 200, 2], allocated_procs=[2, 2, 3, -1, 1, 2])
    jobs = prepare(tr, processors=128)
    assert jobs.job_number.tolist() == [1, 3]
    assert jobs.procs.tolist() == [2, 3]  # field 8, falling back to field 5
    assert jobs.dropped == {"unknown_submit": 1, "unknown_runtime": 1, "no_processors": 1,
                            "too_many_processors": 1}
    assert len(jobs) + sum(jobs.dropped.values()) == 6


def test_runtime_rules_kill_and_extend():
    tr = _trace(submit=[0, 0, 0, 0], run_time=[0, 30, 10, 5], requested_time=[10, 20, -1, 5])
    kill = prepare(tr)
    assert kill.run.tolist() == [1, 20, 10, 5]
    assert kill.requested.tolist() == [10, 20, 10, 5]
    assert kill.adjusted == {"zero_runtime": 1, "estimate_from_runtime": 1, "overrun_kill": 1}
    extend = prepare(tr, overrun="extend")
    assert extend.run.tolist() == [1, 30, 10, 5]
    assert extend.requested.tolist() == [10, 30, 10, 5]


def test_stable_submit_order():
    jobs = prepare(_trace(submit=[5, 3, 3, 0]))
    assert jobs.job_number.tolist() == [4, 2, 3, 1]


@pytest.mark.parametrize("option, value", [("processors", 0), ("overrun", "stretch"),
                                           ("split", "week"), ("priority_every", -1),
                                           ("quota_every", -2)])
def test_bad_options_name_themselves(option, value):
    with pytest.raises(ValueError, match=option):
        prepare(_trace(submit=[0]), **{option: value})


def test_every_kth_job_high_priority_restarts_each_part(kth):
    jobs = prepare(kth, split="month", priority_every=5, priority_gap=2.0)
    for k in range(len(jobs.labels)):
        prio = jobs.priority[jobs.part(k)]
        assert np.flatnonzero(prio).tolist() == list(range(4, prio.size, 5))
        assert set(prio.tolist()) <= {0.0, 2.0}
    assert not prepare(kth).priority.any()


def test_quota_jobs_get_minus_infinity_over_priorities():
    """TF99 §2.2: PP = −∞ for a job over quota; it overrides a high priority."""
    jobs = prepare(_trace(submit=range(12)), priority_every=2, quota_every=3)
    assert jobs.priority.tolist() == [0, 2, -np.inf, 2, 0, -np.inf, 0, 2, -np.inf, 2, 0, -np.inf]


def test_kth_as_the_notes_say(kth):
    """KTH: 28,476 jobs, one dropped (27313), 475 overruns killed, 8 zero run times."""
    jobs = prepare(kth)
    assert len(kth) == 28476 and len(jobs) == 28475
    assert jobs.dropped["no_processors"] == 1 and sum(jobs.dropped.values()) == 1
    assert 27313 not in jobs.job_number
    assert jobs.adjusted == {"zero_runtime": 8, "estimate_from_runtime": 0, "overrun_kill": 475}
    assert (jobs.run >= 1).all() and (jobs.run <= jobs.requested).all()
    assert jobs.labels == ("all",) and jobs.bounds.tolist() == [0, 28475]


def test_kth_calendar_months(kth):
    """Sept 1996 – Aug 1997 in Stockholm time; the paper's months had 85 and 1924–4060 jobs."""
    jobs = prepare(kth, split="month")
    assert jobs.labels == ("1996-09", "1996-10", "1996-11", "1996-12", "1997-01", "1997-02",
                           "1997-03", "1997-04", "1997-05", "1997-06", "1997-07", "1997-08")
    sizes = np.diff(jobs.bounds)
    assert sizes[0] == 92 and sizes.sum() == 28475
    assert sizes[1:].min() >= 1900 and sizes[1:].max() <= 4100
    tz = ZoneInfo("Europe/Stockholm")  # the first and last job of each part lie in its month
    for k, label in enumerate(jobs.labels):
        part = jobs.submit[jobs.part(k)]
        for x in (part[0], part[-1]):
            when = datetime.fromtimestamp(kth.unix_start_time + x, tz)
            assert f"{when.year:04d}-{when.month:02d}" == label


def test_month_split_needs_start_time():
    with pytest.raises(ValueError, match="UnixStartTime"):
        prepare(_trace(submit=[0]), split="month")


def test_month_boundary_in_local_time():
    """UTC 1996-09-30 22:30 is already October in Stockholm (CEST, UTC+2)."""
    start = 843480031  # 1996-09-23 12:00:31 UTC
    oct1_local = 844120800  # 1996-10-01 00:00 CEST = 1996-09-30 22:00 UTC
    tr = _trace(submit=[0, oct1_local - start - 1, oct1_local - start + 1800],
                header={"TimeZoneString": "Europe/Stockholm"})
    tr.unix_start_time = start
    jobs = prepare(tr, split="month")
    assert jobs.labels == ("1996-09", "1996-10") and jobs.bounds.tolist() == [0, 2, 3]


@pytest.mark.parametrize("split", ["none", "month"])
@pytest.mark.parametrize("load", [0.3, 0.9, 1.2])
def test_rescaled_offered_load_equals_target(kth, split, load):
    """Each part's offered load Σ procs·run / (P · span) is the target; gaps keep their ratios."""
    base = prepare(kth, processors=128, split=split)
    jobs = prepare(kth, processors=128, split=split, load=load)
    assert jobs.labels == base.labels and (jobs.run == base.run).all()
    for k in range(len(jobs.labels)):
        s = jobs.part(k)
        assert offered_load(jobs.submit[s], jobs.run[s], jobs.procs[s], 128) == \
            pytest.approx(load, rel=1e-12)
        gaps, base_gaps = np.diff(jobs.submit[s]), np.diff(base.submit[s])
        factor = offered_load(base.submit[s], base.run[s], base.procs[s], 128) / load
        np.testing.assert_allclose(gaps, base_gaps * factor, rtol=1e-9, atol=1e-6)
        assert jobs.submit[s][0] == base.submit[s][0]


def test_kth_offered_load_as_logged(kth):
    """KTH at 128 processors as logged: an offered load of about 0.55 (0.70 at its real 100)."""
    jobs = prepare(kth, processors=128)
    rho = offered_load(jobs.submit, jobs.run, jobs.procs, 128)
    assert 0.4 < rho < 0.7
    assert offered_load(jobs.submit, jobs.run, jobs.procs, 100) == pytest.approx(rho * 1.28)


def test_submit_jitter_moves_each_job_by_at_most_j_and_keeps_parts_and_priorities(kth):
    """submit_jitter = 1: every job (followed by its job number) moves by −1, 0 or +1 s; each
    month keeps its jobs and their priorities; every month stays in submit order; the same
    generator state gives the same trace, another one a different trace."""
    base = prepare(kth, split="month", priority_every=5)
    jittered = prepare(kth, split="month", priority_every=5, submit_jitter=1,
                       rng=np.random.default_rng(1))
    again = prepare(kth, split="month", priority_every=5, submit_jitter=1,
                    rng=np.random.default_rng(1))
    other = prepare(kth, split="month", priority_every=5, submit_jitter=1,
                    rng=np.random.default_rng(2))
    np.testing.assert_array_equal(jittered.submit, again.submit)
    assert not np.array_equal(jittered.submit, other.submit)
    assert jittered.labels == base.labels and np.array_equal(jittered.bounds, base.bounds)
    by_number = dict(zip(base.job_number.tolist(), zip(base.submit, base.priority, strict=True),
                         strict=True))
    moves = np.array([s - by_number[j][0] for j, s in zip(jittered.job_number.tolist(),
                                                           jittered.submit, strict=True)])
    assert set(np.unique(moves)) <= {-1.0, 0.0, 1.0} and (moves != 0).mean() > 0.5
    assert all(by_number[j][1] == p for j, p in zip(jittered.job_number.tolist(), jittered.priority,
                                                    strict=True))
    for k in range(len(base.labels)):
        s = base.part(k)
        assert set(jittered.job_number[s]) == set(base.job_number[s])
        assert (np.diff(jittered.submit[s]) >= 0).all()


@pytest.mark.parametrize("value", [-1, 0.5])
def test_bad_submit_jitter_names_itself(value):
    with pytest.raises(ValueError, match=r"workload.submit_jitter must be a whole number of seconds"):
        prepare(_trace(submit=[0, 1]), submit_jitter=value, rng=np.random.default_rng(0))
