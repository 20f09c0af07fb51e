"""LXF-ordered EASY backfilling: the largest expansion factor first.

EASY backfilling (Lifka 1995) whose queue is ordered, at every pass, by the
jobs' current expansion factor ``(wait + requested) / requested``, largest
first, ties by submit order: the "LXF-backfill" of Chiang, Arpaci-Dusseau &
Vernon 2002 ("The impact of more accurate requested runtimes on production
job scheduling performance"), with user estimates as the requested times. A
short job's factor grows fastest, so it is favoured without starving long
ones.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import EASY, easy_pass, rigid_policy, run_loop


@jit()
def _largest_expansion(t, j, submit, requested, procs, priority):
    """Order hook: minus the expansion factor ``(t − submit + requested) / requested``."""
    return -(t - submit[j] + requested[j]) / requested[j]


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, easy_pass, _largest_expansion)


POLICY = rigid_policy("lxf_easy", kernel=_run, discipline=EASY, order=_largest_expansion)
