"""FCFS: start waiting jobs strictly in submit order (seed 001 §1, MODEL_NOTES §2).

At each event time, after completions and arrivals, the queue head starts while
enough processors are free; the first job that does not fit blocks all others.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sweep.families import NoParams, Policy
from sweep.families._numba import NO_REFCOUNT
from sweep.families.rigid import _core
from sweep.families.rigid._policy import RigidHooks


@njit(cache=True, **NO_REFCOUNT)
def _fcfs(submit, run, req, procs, start, queue, running, cnt, times, free):
    t, done, new = _core.advance(np.inf, submit, run, procs, start, queue, running, cnt, times, free)
    while t < np.inf:
        _core.start_heads(t, req, procs, start, queue, running, cnt)
        _core.drop_started(start, queue, cnt)
        t, done, new = _core.advance(np.inf, submit, run, procs, start, queue, running, cnt, times, free)


def schedule(submit: np.ndarray, run: np.ndarray, requested: np.ndarray, procs: np.ndarray,
             priority: np.ndarray, processors: int, params: NoParams) -> np.ndarray:
    """Start times under FCFS (``priority`` and ``params`` unused)."""
    state = _core.new_state(submit.size, processors)
    _fcfs(submit, run, requested, procs, *state)
    return state[0]


POLICY = Policy("fcfs", "rigid", RigidHooks(schedule))
