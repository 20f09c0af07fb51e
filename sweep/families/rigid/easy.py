"""EASY backfilling (Lifka 1995, seed 001 §1 ref. [10]; pass as in MODEL_NOTES §2).

One pass at every event time ``t``, after all completions and arrivals at ``t``:

1. Start queue heads in FCFS order while they fit now.
2. Give the (blocked) head a reservation at its *shadow time*: the earliest time
   at which enough processors are free, counting every running job as holding
   its processors until its *requested* end. The *extra* processors are those
   free at the shadow time beyond what the head needs.
3. Scan every other waiting job once, in queue order; start it now if it fits
   now and does not delay the head: it ends (by its requested time) by the
   shadow time, or it uses only extra processors, and then the extra shrinks by
   its size (jobs backfilled earlier in the same pass count).

The shadow time is computed once per pass; jobs backfilled in the pass cannot
move it later by construction.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sweep.families import NoParams, Policy
from sweep.families._numba import NO_REFCOUNT
from sweep.families.rigid import _core
from sweep.families.rigid._policy import RigidHooks


@njit(cache=True)
def _pass(t, req, procs, start, queue, running, cnt, times, free):
    h = _core.start_heads(t, req, procs, start, queue, running, cnt)
    if h < cnt[_core.WAITING]:
        need = procs[queue[h]]
        m = _core.running_profile(t, req, procs, start, running, cnt, times, free)
        k = 0
        while k < m - 1 and free[k] < need:  # free processors only grow with time here
            k += 1
        shadow, extra = times[k], free[k] - need
        for i in range(h + 1, cnt[_core.WAITING]):
            j = queue[i]
            if procs[j] > cnt[_core.FREE]:
                continue
            if t + req[j] <= shadow:
                _core.start_job(j, t, req, procs, start, running, cnt)
            elif procs[j] <= extra:
                extra -= procs[j]
                _core.start_job(j, t, req, procs, start, running, cnt)
    _core.drop_started(start, queue, cnt)


@njit(cache=True, **NO_REFCOUNT)
def _easy(submit, run, req, procs, start, queue, running, cnt, times, free):
    t, done, new = _core.advance(np.inf, submit, run, procs, start, queue, running, cnt, times, free)
    while t < np.inf:
        _pass(t, req, procs, start, queue, running, cnt, times, free)
        t, done, new = _core.advance(np.inf, submit, run, procs, start, queue, running, cnt, times, free)


def schedule(submit: np.ndarray, run: np.ndarray, requested: np.ndarray, procs: np.ndarray,
             priority: np.ndarray, processors: int, params: NoParams) -> np.ndarray:
    """Start times under EASY backfilling (``priority`` and ``params`` unused)."""
    state = _core.new_state(submit.size, processors)
    _easy(submit, run, requested, procs, *state)
    return state[0]


POLICY = Policy("easy", "rigid", RigidHooks(schedule))
