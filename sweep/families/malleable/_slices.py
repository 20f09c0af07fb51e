"""The allocate hook of the FB policies: time slices by least acquired service (CV96 §2.1).

FB-PWS and FB-ASP (Parsons & Sevcik) configure each job for a number of
processors when it arrives (their *configure* hooks, the one thing in which
they differ) and then share the machine by time slices of ``quantum`` seconds:
:func:`time_slice`. CV96 §2.1: "At the start of each time slice, jobs are
examined in order of least acquired processing time ... Each job in turn is
scheduled to run on the number of processors it is configured for, until there
are fewer processors left than any of the remaining jobs' configurations. In
this case the scheduler runs the highest priority unscheduled job on the
remaining processors", so that "only the last job scheduled for execution in
each quantum may run on a different number of processors than its initial
configuration" (§1: "and those processors would otherwise be idle").

When the schedule is made (the policy option ``reschedule``):

``slice_boundary`` (the default, the paper's)
    The slices are the intervals ``[kq, (k+1)q)`` of the clock (``q`` the
    quantum); the full schedule above is made only at their boundaries
    (:func:`full_slice`). Between two boundaries no running job is preempted
    or resized. An arrival takes only idle processors until the next boundary,
    and the processors a departure frees are idle processors too: both events
    run :func:`fill_idle`, the same rule restricted to the waiting jobs and the
    idle processors (a waiting job that fits runs on its configured size; the
    highest-priority one that does not fit takes what is left only if no job
    already runs on fewer processors in this slice, so the paper's "at most one
    job per quantum" holds). The paper does not print what a departure does;
    this reading follows §1's "semi-static" and "those processors would
    otherwise be idle": allocations change at slice boundaries, and processors
    are not left idle while a waiting job fits them. A boundary at which every
    job would keep its allocation (no job waits or runs on fewer processors)
    changes nothing, so it is not scheduled as an event.
``every_event``
    The full schedule at every arrival and departure too, each starting a new
    slice: an arrival preempts at once in least-acquired-service order (an
    idealised least-attained-service discipline; the behaviour of this code
    before the option existed, kept for comparison). No slice end is scheduled
    while every job fits.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sweep._numba import jit
from sweep.families.malleable._core import SLICE, by_acquired

#: The choices of the FB policies' option ``reschedule`` (module docstring); the options record
#: holds its index here.
RESCHEDULES = ("slice_boundary", "every_event")
EVERY_EVENT = RESCHEDULES.index("every_event")


class SliceWork(NamedTuple):
    """Work arrays of the FB hooks, allocated by the caller (the loop may not allocate)."""

    sizes: np.ndarray  # per slot: the processors it was configured for on arrival


def workspace(slots: int, cap: int) -> SliceWork:
    """:class:`SliceWork` for ``slots`` job slots (``cap``, the most in the system, is not needed)."""
    return SliceWork(np.zeros(slots))


@jit(inline="always")
def next_boundary(t, quantum, strict):
    """The first multiple of ``quantum`` at or after ``t`` (``strict``: after ``t``).

    A boundary that falls on ``t`` itself is taken after the arrival or departure
    at ``t`` (ties: an arrival before a slice end); ``strict`` after a boundary, so
    that no slice has length 0.
    """
    k = np.ceil(t / quantum)
    if k * quantum < t:
        k += 1.0
    if strict and k * quantum <= t:
        k += 1.0
    return k * quantum


@jit(inline="always")
def full_slice(options, state, sc, work):
    """The schedule at the start of a slice (§2.1); returns whether a job waits or runs on fewer.

    Jobs in order of least acquired service (ties: arrival) run on their
    configured sizes; jobs that do not fit are skipped while later ones fit;
    the highest-priority skipped job then runs on the processors left, so only
    that one job may run on fewer processors than its configuration.
    """
    alloc, byacq, size = state.allocation, state.by_acquired, work.sizes
    free, first = options.processors, -1
    for i in range(by_acquired(state, sc)):
        j = byacq[i]
        if size[j] <= free:
            alloc[j] = size[j]
            free -= size[j]
        else:
            alloc[j] = 0.0
            if first < 0:
                first = j
    if first >= 0 and free > 0:
        alloc[first] = free
    return first >= 0


@jit(inline="always")
def fill_idle(options, state, sc, work):
    """Between two boundaries: the waiting jobs take idle processors only (module docstring).

    Running jobs keep their allocations. Waiting jobs in order of least
    acquired service start on their configured sizes while they fit; the
    highest-priority one that does not fit takes the idle rest unless a job
    already runs on fewer processors than its size. Returns whether a job
    waits or runs on fewer processors after this.
    """
    alloc, byacq, size, act = state.allocation, state.by_acquired, work.sizes, state.active
    free, reduced = options.processors, False
    for k in range(sc.in_system):
        j = act[k]
        free -= alloc[j]
        reduced = reduced or 0.0 < alloc[j] < size[j]
    first, waiting = -1, False
    for i in range(by_acquired(state, sc)):
        j = byacq[i]
        if alloc[j] == 0.0:
            if size[j] <= free:
                alloc[j] = size[j]
                free -= size[j]
            else:
                waiting = True
                if first < 0:
                    first = j
    if first >= 0 and free > 0 and not reduced:
        alloc[first] = free
        reduced = True
    return waiting or reduced


@jit(inline="always")
def time_slice(event, options, columns, state, sc, work):
    """The allocate hook: a full slice at a boundary (or at any event: ``every_event``), else fill idle.

    Schedules the next slice boundary while some job waits or runs on fewer
    processors than its size (module docstring); none otherwise.
    """
    if options.reschedule == EVERY_EVENT:
        partial = full_slice(options, state, sc, work)
        sc.slice_end = sc.t + options.quantum if partial else np.inf
    elif event == SLICE:
        partial = full_slice(options, state, sc, work)
        sc.slice_end = next_boundary(sc.t, options.quantum, True) if partial else np.inf
    elif fill_idle(options, state, sc, work) and sc.slice_end == np.inf:
        sc.slice_end = next_boundary(sc.t, options.quantum, False)
