"""Conservative backfilling (Feitelson & Mu'alem Weil 1998, seed 001 §1 ref. [5]).

Every waiting job holds a reservation; semantics as MODEL_NOTES §2:

- an arriving job reserves the earliest time from which its processors stay
  free for its *requested* time, given the running jobs (each holding its
  processors until its requested end) and every existing reservation;
- at a timestamp with completions, once all of them are applied, every waiting
  job in submit order is removed and re-placed at its earliest feasible start —
  never later than before, as its old slot is still free ("compression");
- then the arrivals at that timestamp reserve one by one, in trace order;
- a job whose reservation is now starts.

The profile is rebuilt at each event from the running jobs and the stored
reservations (both change only at events), which keeps the kernel free of any
profile bookkeeping between events. The kernel also wakes at the earliest
reservation, so a reservation never waits for an unrelated event.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sweep.families import NoParams, Policy
from sweep.families._numba import NO_REFCOUNT
from sweep.families.rigid import _core
from sweep.families.rigid._policy import RigidHooks


@njit(cache=True)
def _pass(t, done, new, resv, booked, req, procs, start, queue, running, cnt, times, free):
    """Reserve, compress and start at ``t``; returns the earliest remaining reservation.

    ``booked`` keeps each job's reservation made at its arrival.
    """
    m = _core.running_profile(t, req, procs, start, running, cnt, times, free)
    nq = cnt[_core.WAITING]
    old = nq - new
    for i in range(old):
        j = queue[i]
        m = _core.add_interval(times, free, m, resv[j], resv[j] + req[j], -procs[j])
    for i in range(0 if done else old, nq):  # compression, then the arrivals
        j = queue[i]
        if i < old:
            if resv[j] == t:
                continue  # cannot move earlier
            m = _core.add_interval(times, free, m, resv[j], resv[j] + req[j], procs[j])
        resv[j] = _core.earliest_fit(times, free, m, procs[j], req[j])
        m = _core.add_interval(times, free, m, resv[j], resv[j] + req[j], -procs[j])
        if i >= old:
            booked[j] = resv[j]
    return _core.start_reserved(t, resv, req, procs, start, queue, running, cnt)


@njit(cache=True, **NO_REFCOUNT)
def _loop(submit, run, req, procs, resv, booked, start, queue, running, cnt, times, free):
    t, done, new = _core.advance(np.inf, submit, run, procs, start, queue, running, cnt, times, free)
    while t < np.inf:
        wake = _pass(t, done, new, resv, booked, req, procs, start, queue, running, cnt, times, free)
        t, done, new = _core.advance(wake, submit, run, procs, start, queue, running, cnt, times, free)


def _conservative(submit: np.ndarray, run: np.ndarray, req: np.ndarray, procs: np.ndarray,
                  processors: int) -> tuple[np.ndarray, np.ndarray]:
    """Start times and the reservation each job got at its arrival."""
    state = _core.new_state(submit.size, processors)
    resv, booked = np.full(submit.size, np.nan), np.full(submit.size, np.nan)
    _loop(submit, run, req, procs, resv, booked, *state)
    return state[0], booked


def schedule(submit: np.ndarray, run: np.ndarray, requested: np.ndarray, procs: np.ndarray,
             priority: np.ndarray, processors: int, params: NoParams) -> np.ndarray:
    """Start times under conservative backfilling (``priority`` and ``params`` unused)."""
    return _conservative(submit, run, requested, procs, processors)[0]


def reservations(submit: np.ndarray, run: np.ndarray, requested: np.ndarray,
                 procs: np.ndarray, processors: int) -> tuple[np.ndarray, np.ndarray]:
    """Start times and each job's reservation made at its arrival (never exceeded)."""
    return _conservative(submit, run, requested, procs, processors)


POLICY = Policy("conservative", "rigid", RigidHooks(schedule))
