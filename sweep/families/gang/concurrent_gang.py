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

from dataclasses import dataclass

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import Policy, param
from sweep.families.gang import (
    DONE,
    NEVER,
    PACKINGS,
    READY,
    GangHooks,
    first_row_from,
    group_end,
    simulate_core,
    task_status,
    wake_tick,
)

CLASSIFIERS = ("fuzzy", "ispan")
#: ``par.classifier`` of the ISPAN rule: its index in :data:`CLASSIFIERS` (the kernel's record
#: holds a choice as its index).
ISPAN = CLASSIFIERS.index("ispan")
#: The ISPAN rule: a task is scheduled locally while its slot utilisation, averaged over its last
#: 5 slots (the family's grades), is below this.
ISPAN_THRESHOLD = 0.5


@dataclass(frozen=True)
class ConcurrentGangParams:
    """Parameters of Concurrent Gang (CSSE00 §3.3.3, eq. 1); α, β, γ are reconstructions.

    Each reaches the kernel's record ``par`` by its name; ``packing`` and
    ``smoothing`` are also read by the family's loop (the matrix, the grades).
    """

    packing: str = param("first_fit", choices=PACKINGS,
                         doc="how jobs are packed into the matrix rows (as Gang)")
    alpha: float = param(2.0, gt=1, doc="weight of the I/O grade in Pr(T) = max(α λ_IO, λ_COMP); "
                                        "α > 1 (CSSE00 eq. 1); the value 2 is a reconstruction")
    beta: float = param(0.5, ge=0, le=1, doc="priority floor: no task at or below it runs "
                                             "uncoordinated (CSSE00 §3.3.3); 0.5 reconstructed")
    smoothing: float = param(0.5, gt=0, le=1, doc="weight of the last slot in the membership grades "
                                                  "(exponential average; reconstructed)")
    classifier: str = param("fuzzy", choices=CLASSIFIERS,
                            doc="fuzzy: Pr(T) of CSSE00 eq. 1; ispan: run locally the tasks whose "
                                "slot utilisation averaged over 5 slots is below 0.5 (Silva & "
                                "Scherson 1999), round robin among them")


@jit(inline="always", **NO_REFCOUNT)
def _priority(x, tasks, par):
    """Task ``x``'s local priority from its grades: ``Pr(T) = max(α λ_IO, λ_COMP)`` (CSSE00 eq. 1),
    −1 at or below the floor β; under ISPAN 1 below the utilisation threshold, else −1."""
    if par.classifier == ISPAN:
        return 1.0 if tasks.util[x] < ISPAN_THRESHOLD else -1.0
    pr = max(par.alpha * tasks.lam_io[x], tasks.lam_comp[x])
    return pr if pr > par.beta else -1.0


@jit(inline="always", **NO_REFCOUNT)
def _highest_priority(p, t, row, rows, mat, tasks, jobs, mach, pool, par):
    """The ready task of PE ``p``'s column of highest priority; the first from ``rr[p]`` among equals.

    Reads the column in its local scheduler's order (``_column``: priority
    descending, then row): the first group of equal priority holding a ready
    task (other than the slot's own) gives the pick, the first ready one in
    round-robin order from ``rr[p]`` (found by binary search in the group,
    which is in row order). The groups below the floor β are never read.

    When none is ready, the PE remembers until which tick none can be
    (``mach.skip``: the earliest end of an I/O wait or opened barrier among
    its eligible tasks, valid while no other barrier opens and within the
    slice, the grades being fixed until its end) and answers −1 at once
    until then: the same schedule, without rereading an idle column.
    """
    if t < mach.skip[p] and mach.seen[p] == jobs.opened[0]:
        return -1
    det = par.deterministic != 0
    start = mach.rr[p] if mach.rr[p] < rows else 0
    size = mach.size[p]
    wake = NEVER
    i = 0
    while i < size and mach.key[p, i] >= 0.0:
        j = group_end(p, i, mach)
        m = first_row_from(p, i, j, start, mach)
        for c in range(j - i):
            e = m + c
            if e >= j:
                e -= j - i
            r = mach.order[p, e]
            if r == row:
                continue
            x = mat[r, p]
            st = task_status(x, t, tasks, jobs, pool, par, det)
            if st == READY:
                mach.rr[p] = r + 1 if r + 1 < rows else 0
                return x
            if st != DONE:
                wake = min(wake, wake_tick(x, t, tasks, jobs))
        i = j
    mach.skip[p] = wake
    mach.seen[p] = jobs.opened[0]
    return -1


@jit(**NO_REFCOUNT)
def _run(jobs, tasks, mach, pool, settings, report, out, rec, owner, active):
    return simulate_core(jobs, tasks, mach, pool, settings, report, out, rec, owner, active,
                         _highest_priority, _priority, True)


POLICY = Policy("concurrent_gang", "gang", GangHooks(kernel=_run, local_scheduling=True),
                ConcurrentGangParams,
                examples=({}, {"packing": "best_fit"}, {"alpha": 4.0, "beta": 0.0},
                          {"classifier": "ispan"}))
