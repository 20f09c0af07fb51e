"""Concurrent Gang (CSSE00 §2.3, §3.3; Silva & Scherson 1999).

The same matrix as Gang (first fit, or best fit), but each PE has a local
task scheduler under the Gang scheduler: in an empty slot, or when the slot's
task blocks or has finished, the PE runs another ready task of its column,
the one of highest priority ``Pr(T) = max(α·λ_IO, λ_COMP)`` (CSSE00 eq. 1,
α > 1), round robin among equals, none at or below the floor β (such tasks
need coordinated scheduling). The slot's own task takes the PE back as soon
as it is ready again (the Gang scheduler has precedence, §3.3.3); a locally
picked task runs until it blocks or the slice ends.

``classifier: ispan`` replaces eq. 1 by the rule of Silva & Scherson (ISPAN
1999): a task runs uncoordinated while its slot utilisation, averaged over
its last 5 slots, is below 0.5; all such tasks are equal (round robin).

With jobs that never block and a matrix without empty slots the schedule is
Gang's tick for tick (``tests/gang/test_invariants.py``).
"""

from __future__ import annotations

import numba

from sweep.families import Policy
from sweep.families._numba import NO_REFCOUNT
from sweep.families.gang._core import (
    DONE,
    I_DETERMINISTIC,
    NEVER,
    READY,
    local_priority,
    simulate_core,
    task_status,
    wake_tick,
)
from sweep.families.gang._policy import ConcurrentGangParams, GangHooks


@numba.njit(**NO_REFCOUNT)  # not cached: inlines _core's functions (see _run)
def _highest_priority(p, t, row, rows, mat, tasks, jobs, mach, pool, fpar, ipar):
    """The ready task of PE ``p``'s column of highest priority; the first from ``rr[p]`` among equals.

    When none is ready, the PE remembers until which tick none can be
    (``mach.skip``: the earliest end of an I/O wait or opened barrier among
    its eligible tasks, valid while no other barrier opens and within the
    slice, the grades being fixed until its end) and answers −1 at once
    until then: the same schedule, without rescanning an idle column.
    """
    rr = mach.rr
    if t < mach.skip[p] and mach.seen[p] == jobs.opened[0]:
        return -1
    best = -1
    best_row = 0
    top = -1.0
    wake = NEVER
    start = rr[p] if rr[p] < rows else 0
    for i in range(rows):
        r = start + i
        if r >= rows:
            r -= rows
        x = mat[r, p]
        if x < 0 or r == row:
            continue
        st = task_status(x, t, tasks, jobs, pool, fpar, ipar[I_DETERMINISTIC] != 0)
        if st == DONE:
            continue
        pr = local_priority(x, tasks, fpar, ipar)
        if pr < 0:
            continue
        if st != READY:
            wake = min(wake, wake_tick(x, t, tasks, jobs))
        elif pr > top:
            top = pr
            best = x
            best_row = r
    if best >= 0:
        rr[p] = best_row + 1 if best_row + 1 < rows else 0
    else:
        mach.skip[p] = wake
        mach.seen[p] = jobs.opened[0]
    return best


# not cached: the family's loop is inlined here, and numba's cache of this file would not notice
# a change to _core.py (a stale kernel ran the old loop); compiling takes a few seconds a process.
@numba.njit(**NO_REFCOUNT)
def _run(jobs, tasks, mach, pool, fpar, ipar, report, out, rec, owner, active):
    return simulate_core(jobs, tasks, mach, pool, fpar, ipar, report, out, rec, owner, active,
                         _highest_priority)


POLICY = Policy("concurrent_gang", "gang", GangHooks(kernel=_run, local_scheduling=True),
                ConcurrentGangParams,
                examples=({}, {"packing": "best_fit"}, {"alpha": 4.0, "beta": 0.0},
                          {"classifier": "ispan"}))
