"""The shared passes FCFS, EASY and conservative: what starts at each event time.

A pass runs once per distinct event time ``t`` of the shared loop
(:func:`~sweep.families.rigid._core.run`), after every completion and then
every arrival at ``t`` has been applied, with the loop's step signature::

    step(t, done, new, jobs, state, aux, order) -> wake

``done`` says whether a job completed at ``t``, ``new`` how many jobs arrived
(the last ``new`` of the queue); ``aux`` is the pass's own state
(:class:`~sweep.families.rigid._policy.Discipline`); the loop also wakes the
pass at ``wake`` (``inf``: at the next event only). The passes are inlined
into each policy's kernel with its ``order`` hook; the FCFS and EASY passes
first put the queue in the hook's order
(:func:`~sweep.families.rigid._core.order_queue`: nothing for FCFS order).
All decisions use requested times (:mod:`~sweep.families.rigid._core`).
The papers define the policies, not their event-level semantics: the order
of completions and arrivals, when a shadow time is computed and when
reservations are compressed below are a reconstruction (docs/model-notes.md
§2), checked against slow references and hand-worked schedules in the tests.

FCFS (Talby & Feitelson 1999 §1)
    Start queue heads while they fit; the first that does not fit blocks all others.

EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001; Talby & Feitelson 1999 §1)
    1. Start queue heads while they fit now.
    2. Give the (blocked) head a reservation at its *shadow time*: the earliest
       time at which enough processors are free, counting every running job as
       holding its processors until its requested end. The *extra* processors
       are those free at the shadow time beyond what the head needs.
    3. Scan every other waiting job once, in queue order; start it now if it
       fits now and does not delay the head: it ends (by its requested time)
       by the shadow time, or it uses only extra processors, and then the
       extra shrinks by its size (jobs backfilled earlier in the pass count).

    The shadow time is computed once per pass; jobs backfilled in the pass
    cannot move it later by construction. With an order hook the head is the
    first job in the hook's order, and the scan follows that order: the
    SJF-, LXF- and WFP-ordered variants of EASY.

Conservative backfilling (Feitelson & Mu'alem Weil 1998; Mu'alem & Feitelson 2001)
    Every waiting job holds a reservation:

    - an arriving job reserves the earliest time from which its processors
      stay free for its requested time, given the running jobs (each holding
      its processors until its requested end) and every existing reservation;
    - at a timestamp with completions, once all of them are applied, every
      waiting job in submit order is removed and re-placed at its earliest
      feasible start — never later than before, as its old slot is still free
      ("compression");
    - then the arrivals at that timestamp reserve one by one, in trace order;
    - a job whose reservation is now starts.

    The profile is rebuilt at each event from the running jobs and the stored
    reservations (both change only at events), so no profile is kept between
    events. The pass wakes the loop at the earliest reservation, so a
    reservation never waits for an unrelated event. It keeps submit order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sweep._numba import jit
from sweep.families.rigid import _core
from sweep.families.rigid._core import Columns
from sweep.families.rigid._policy import Discipline


@jit(inline="always")
def fcfs_pass(t, done, new, jobs, state, aux, order):
    """FCFS in the hook's order (module docstring)."""
    _core.order_queue(t, jobs, state, order)
    _core.start_heads(t, jobs, state)
    _core.drop_started(state)
    return np.inf


@jit(inline="always")
def easy_pass(t, done, new, jobs, state, aux, order):
    """EASY backfilling in the hook's order (module docstring)."""
    _core.order_queue(t, jobs, state, order)
    h = _core.start_heads(t, jobs, state)
    c = state.counts[0]
    if h < c.waiting:
        queue, times, free = state.queue, state.times, state.free
        req, procs = jobs.requested, jobs.procs
        need = procs[queue[h]]
        m = _core.running_profile(t, jobs, state)
        k = 0
        while k < m - 1 and free[k] < need:  # free processors only grow with time here
            k += 1
        shadow, extra = times[k], free[k] - need
        for i in range(h + 1, c.waiting):
            j = queue[i]
            if procs[j] > c.free:
                continue
            if t + req[j] <= shadow:
                _core.start_job(j, t, jobs, state)
            elif procs[j] <= extra:
                extra -= procs[j]
                _core.start_job(j, t, jobs, state)
    _core.drop_started(state)
    return np.inf


class Reservations(NamedTuple):
    """Conservative's own state: each waiting job's reserved start, and the one it got on arrival."""

    planned: np.ndarray
    booked: np.ndarray


def _reservations(jobs: Columns, params: object) -> Reservations:
    n = len(jobs.submit)
    return Reservations(np.full(n, np.nan), np.full(n, np.nan))


@jit(inline="always")
def conservative_pass(t, done, new, jobs, state, aux, order):
    """Conservative backfilling (module docstring): reserve, compress and start at ``t``.

    Returns the earliest remaining reservation; ``order`` is submit order.
    """
    resv, booked = aux.planned, aux.booked
    times, free, queue = state.times, state.free, state.queue
    req, procs = jobs.requested, jobs.procs
    m = _core.running_profile(t, jobs, state)
    nq = state.counts[0].waiting
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
    return _core.start_reserved(t, resv, jobs, state)


FCFS = Discipline("fcfs", ordered=True)
EASY = Discipline("easy", ordered=True)
CONSERVATIVE = Discipline("conservative", ordered=False, aux=_reservations)
