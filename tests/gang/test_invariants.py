"""Invariants of every gang-family policy on random workloads (CSSE00 §3.3.1, §3.3.3).

- a task runs on at most one PE in a tick, and only on the PE of its column;
- Gang runs nothing but the slot's own task; Concurrent Gang runs another
  task only when the slot is empty or its task is blocked or done (a
  compute task never blocks: then only when it is done);
- work conservation: each task runs exactly ``work − left`` ticks, a
  completed job's tasks all ran their whole work, and the busy count is the
  number of (tick, PE) cells that ran a task;
- with compute jobs only, Concurrent Gang's trace is Gang's up to the first
  tick in which Gang idles a PE (only idle PEs give the local scheduler a
  chance), and identical throughout when no slot is ever empty.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.gang.conftest import FAMILY, run

# the hash of the random draws wraps around 2**64 on purpose (a warning only without the JIT)
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

CASES = [(name, i) for name, policy in FAMILY.policies.items() for i in range(len(policy.examples))]


def _jobs(rng, P, K, n, classes=3):
    return {"arrival": np.sort(rng.integers(0, 20 * K, n)), "width": rng.integers(1, P + 1, n),
            "work": rng.integers(1, 30 * K, n), "cls": rng.integers(0, classes, n)}


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "example"), CASES)
def test_slots_and_work_conservation(policy, example):
    rng = np.random.default_rng(7 + example)
    params = FAMILY.policies[policy].examples[example]
    local = FAMILY.policies[policy].hooks.local_scheduling
    for _ in range(25):
        P, K = int(rng.integers(2, 9)), int(rng.integers(1, 5))
        jobs = _jobs(rng, P, K, int(rng.integers(1, 12)))
        result, _ = run(policy, jobs, P, K, 80, example=params, deterministic=False,
                           workload={"io_burst": 0.5, "io_wait": 1.0, "sync_phase": 2.0})
        rec, owner = result.rec, np.repeat(result.owner, K, axis=0)
        ran = rec >= 0
        # one PE per task per tick
        for t in range(rec.shape[0]):
            tasks = rec[t][ran[t]]
            assert len(set(tasks.tolist())) == tasks.size
        # a task runs only in its PE's column: it owns a slot of that PE (tasks move at repacks)
        for p in range(P):
            assert set(rec[:, p][ran[:, p]].tolist()) <= set(result.owner[:, p].tolist())
        foreign = ran & (rec != owner)
        if not local:
            assert not foreign.any()
        else:
            job_of = np.repeat(np.arange(len(jobs["width"])), jobs["width"])
            ticks, pes = np.nonzero(foreign)
            for t, p in zip(ticks, pes, strict=True):
                g = owner[t, p]
                if g >= 0 and jobs["cls"][job_of[g]] == 0:  # a compute owner must be done by then
                    assert (rec[:t] == g).sum() == jobs["work"][job_of[g]]
        # work conservation
        work = np.repeat(jobs["work"], jobs["width"])
        counts = np.bincount(rec[ran], minlength=work.size)
        np.testing.assert_array_equal(counts, work - result.tasks.left)
        for j, end in enumerate(result.jobs.end):
            if end >= 0:
                assert np.all(result.tasks.left[job_of_tasks(jobs, j)] == 0)
        assert result.out["busy"][-1] == ran.sum()
        assert result.out["idle"][-1] == (~ran).sum()


def job_of_tasks(jobs, j):
    first = int(np.sum(jobs["width"][:j]))
    return slice(first, first + int(jobs["width"][j]))


@pytest.mark.kernel
def test_compute_only_concurrent_gang_is_gang_until_gang_idles():
    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(60):
        P, K = int(rng.integers(2, 9)), int(rng.integers(1, 5))
        jobs = _jobs(rng, P, K, int(rng.integers(1, 12)), classes=1)
        jobs["arrival"] = jobs["arrival"] // 8  # a busy start, so Gang idles later
        gang, _ = run("gang", jobs, P, K, 80, deterministic=False)
        cg, _ = run("concurrent_gang", jobs, P, K, 80, deterministic=False)
        idle = np.flatnonzero((gang.rec < 0).any(axis=1))
        upto = idle[0] if idle.size else gang.rec.shape[0]
        np.testing.assert_array_equal(cg.rec[:upto], gang.rec[:upto])
        compared += upto
    assert compared > 200  # ticks compared over the 60 cases (the test has teeth)


@pytest.mark.kernel
def test_compute_only_without_empty_slots_gives_identical_schedules():
    """Whole-machine jobs with whole slices of work: no slot is ever empty, no task blocks."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        P, K = int(rng.integers(1, 9)), int(rng.integers(1, 5))
        n = int(rng.integers(1, 10))
        jobs = {"arrival": np.sort(rng.integers(0, 10 * K, n)), "width": np.full(n, P),
                "work": K * rng.integers(1, 8, n)}
        gang, _ = run("gang", jobs, P, K, 60)
        cg, _ = run("concurrent_gang", jobs, P, K, 60)
        np.testing.assert_array_equal(cg.rec, gang.rec)
        np.testing.assert_array_equal(cg.jobs.end, gang.jobs.end)
        assert (gang.jobs.end >= 0).any()


@pytest.mark.kernel
def test_concurrent_gang_fills_slots_gang_leaves_idle():
    """I/O jobs on one machine: Concurrent Gang idles less and finishes the work sooner."""
    rng = np.random.default_rng(11)
    jobs = {"arrival": np.zeros(6, np.int64), "width": rng.integers(1, 5, 6),
            "work": np.full(6, 40), "cls": np.ones(6, np.int64)}
    gang, _ = run("gang", jobs, 4, 4, 200, deterministic=False)
    cg, _ = run("concurrent_gang", jobs, 4, 4, 200, deterministic=False)
    assert (gang.jobs.end > 0).all() and (cg.jobs.end > 0).all()
    assert cg.jobs.end.max() < gang.jobs.end.max()
    first = (cg.rec >= 0).sum(axis=1)[: 4 * 20].sum()
    assert first > (gang.rec >= 0).sum(axis=1)[: 4 * 20].sum()
