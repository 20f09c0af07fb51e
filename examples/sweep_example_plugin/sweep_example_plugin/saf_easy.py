"""EASY backfilling with the queue in order of job area, smallest first.

EASY (Lifka 1995) whose waiting queue is kept in order of requested processor-seconds,
``requested time x processors``, smallest first, ties by submit order: the head that gets the
reservation is the waiting job of least area, and backfilling scans the others the same way.
One order hook on sweep's shared EASY pass, as ``sjf_easy`` orders by requested time alone
(docs/adding-a-policy.md §4); the slow reference's EASY pass with the same key in Python checks
it start for start (``rigid_policy`` names it by default).
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import EASY, easy_pass, rigid_policy, run_loop

#: The version of sweep's plugin contract this module was written for (docs/plugins.md).
SWEEP_CONTRACT = 1


@jit()
def _smallest_area(t, j, submit, requested, procs, priority):
    """Order hook: the requested processor-seconds, smallest first."""
    return requested[j] * procs[j]


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, easy_pass, _smallest_area)


POLICY = rigid_policy("saf_easy", kernel=_run, discipline=EASY, order=_smallest_area)
