"""FB-ASP (Parsons & Sevcik; seed 000 §2.1): FB-PWS with the arrival configured for ``P/J``.

An arriving job is configured for ``min(N_j, P/J)`` processors, ``J`` the number
of jobs in the system including it, rounded to the nearest integer, at least 1
(a choice, as in FB-PWS). Slices: :func:`sweep.families.malleable._core.fb_slice`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sweep.families.malleable import _core
from sweep.families.malleable._policy import Outcome, Policy, Quantum, register_policy
from sweep.families.malleable.eqs import caps
from sweep.families.malleable.workload import MalleableJobs


@njit(cache=True)
def _run(arrival, a, b, c, ncap, processors, quantum, warmup, target, cap):
    st = _core.new_state(arrival.size, warmup, target, cap)
    ist = st[6]
    size, ks = np.zeros(arrival.size), np.empty(cap + 1, np.int64)
    j = _core.next_event(arrival, *st)
    while j != _core.DONE:
        if j >= 0:
            size[j] = min(ncap[j], max(1.0, np.floor(processors / ist[_core.I_J] + 0.5)))
        _core.fb_reschedule(processors, quantum, size, a, b, c, ncap, st, ks)
        j = _core.next_event(arrival, *st)
    return st[4], st[1], ist, st[7]


def run(jobs: MalleableJobs, processors: int, params: Quantum, warmup: int, target: int,
        cap: int) -> Outcome:
    """Simulate FB-ASP; see :mod:`sweep.families.malleable._core`."""
    return _run(jobs.arrival, jobs.a, jobs.b, jobs.c, caps(jobs, processors), float(processors),
                float(params.quantum), warmup, target, cap)


register_policy(Policy("fb_asp", run, Quantum))
