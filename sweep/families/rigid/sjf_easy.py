"""SJF-ordered EASY backfilling: the queue by shortest requested time first.

EASY backfilling (Lifka 1995) whose queue is kept in order of requested
time, shortest first, ties by submit order: the head that gets the
reservation is the shortest waiting job, and backfilling scans the others
shortest first. This is the "SJF-backfill" of Chiang, Arpaci-Dusseau &
Vernon 2002 ("The impact of more accurate requested runtimes on production
job scheduling performance"), with user estimates as the requested times.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import EASY, easy_pass, rigid_policy, run_loop


@jit()
def _shortest_requested(t, j, submit, requested, procs, priority):
    """Order hook: the requested time, shortest first."""
    return requested[j]


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, easy_pass, _shortest_requested)


POLICY = rigid_policy("sjf_easy", kernel=_run, discipline=EASY, order=_shortest_requested)
