"""WFP-ordered EASY backfilling: the WFP3 utility of Tang et al. 2009, largest first.

EASY backfilling (Lifka 1995) whose queue is ordered, at every pass, by
``(wait / requested)^3 · procs``, largest first, ties by submit order: the
WFP utility function with which Tang, Lan, Desai, Buettner & Yu 2009
("Fault-aware, utility-based job scheduling on Blue Gene/P systems") order
the queue of Argonne's Blue Gene/P, with user estimates as the requested
times. Large jobs rise fast once they wait long relative to their length.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import EASY, easy_pass, rigid_policy, run_loop


@jit()
def _wfp3(t, j, submit, requested, procs, priority):
    """Order hook: minus ``(wait / requested)^3 · procs``, the cube as two products (any Python
    or numba power function would do, but must be the same in the slow reference)."""
    r = (t - submit[j]) / requested[j]
    return -(r * r * r) * procs[j]


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, easy_pass, _wfp3)


POLICY = rigid_policy("wfp_easy", kernel=_run, discipline=EASY, order=_wfp3)
