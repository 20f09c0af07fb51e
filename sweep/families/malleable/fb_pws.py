"""FB-PWS (Parsons & Sevcik; seed 000 §2.1): configured at arrival from pws, then FB slices.

An arriving job is configured for ``min(N_j, w/(S + w)·P)`` processors with
``w = min(pws_j, P)`` and ``S`` the sum of the configured sizes of the jobs
already in the system; the size is rounded to the nearest integer, at least 1
(rounding not printed: a choice). Slices: :func:`sweep.families.malleable._core.fb_reschedule`.
``repartition_overhead`` (§4.3) is charged when a job runs on fewer processors
than its size (the one job that does not fit) or back on its size after that.
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
def _run(arrival, a, b, c, ncap, pws, processors, quantum, size, st):
    act, ist = st[5], st[6]
    j = _core.next_event(arrival, st)
    while j != _core.DONE:
        if j >= 0:
            others = 0.0
            for k in range(ist[_core.I_J] - 1):
                others += size[act[k]]
            w = min(pws[j], processors)
            size[j] = min(ncap[j], max(1.0, np.floor(w / (others + w) * processors + 0.5)))
        _core.fb_reschedule(processors, quantum, size, a, b, c, ncap, st)
        j = _core.next_event(arrival, st)
    return st


def run(jobs: MalleableJobs, processors: int, params: Quantum, stop: _core.Stop) -> Outcome:
    """Simulate FB-PWS; see :mod:`sweep.families.malleable._core`."""
    st = _core.state(len(jobs), stop, params.repartition_overhead)
    return _core.run_batches(_run, jobs.arrival, jobs.a, jobs.b, jobs.c, caps(jobs, processors),
                             jobs.pws.astype(np.float64), float(processors), float(params.quantum),
                             np.zeros(len(jobs)), st)


POLICY = Policy("fb_pws", "malleable", MalleableHooks(run), Quantum)
