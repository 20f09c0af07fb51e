"""FB-ASP (Parsons & Sevcik; seed 000 §2.1): FB-PWS with the arrival configured for ``P/J``.

An arriving job is configured for ``min(N_j, P/J)`` processors, ``J`` the number
of jobs in the system including it, rounded to the nearest integer, at least 1
(a choice, as in FB-PWS). Slices and overhead as in
:mod:`~sweep.families.malleable.fb_pws`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sweep.families import Policy
from sweep.families._numba import NO_REFCOUNT
from sweep.families.malleable import _core
from sweep.families.malleable._policy import MalleableHooks, Outcome, Quantum
from sweep.families.malleable.eqs import caps
from sweep.families.malleable.workload import MalleableJobs


# not cached: the _core helpers are inlined here, and numba's cache of this file would not
# notice a change to _core.py (a stale copy of the kernel state's layout crashes)
@njit(**NO_REFCOUNT)
def _run(arrival, a, b, c, ncap, processors, quantum, size, st):
    ist = st[6]
    j = _core.next_event(arrival, st)
    while j != _core.DONE:
        if j >= 0:
            size[j] = min(ncap[j], max(1.0, np.floor(processors / ist[_core.I_J] + 0.5)))
        _core.fb_reschedule(processors, quantum, size, a, b, c, ncap, st)
        j = _core.next_event(arrival, st)
    return st


def run(jobs: MalleableJobs, processors: int, params: Quantum, stop: _core.Stop) -> Outcome:
    """Simulate FB-ASP; see :mod:`sweep.families.malleable._core`."""
    st = _core.state(len(jobs), stop, params.repartition_overhead)
    return _core.run_batches(_run, jobs.arrival, jobs.a, jobs.b, jobs.c, caps(jobs, processors),
                             float(processors), float(params.quantum), np.zeros(len(jobs)), st)


POLICY = Policy("fb_asp", "malleable", MalleableHooks(run), Quantum)
