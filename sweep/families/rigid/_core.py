"""Compiled machinery shared by the rigid policies (MODEL_NOTES §2, seed 001 §2.1).

A policy kernel is a loop over distinct event timestamps, on a state its caller
made with :func:`new_state` (the FCFS, EASY and conservative loops are compiled
without reference counting, :data:`sweep.families._numba.NO_REFCOUNT`, and may
not allocate)::

    t, done, new = advance(np.inf, submit, run, procs, *state)
    while t < np.inf:
        wake = <policy pass at t>
        t, done, new = advance(wake, submit, run, procs, *state)

:func:`advance` applies, at the next timestamp, first every completion, then every
arrival (in trace order), exactly as MODEL_NOTES §2 prescribes; the policy's pass
then decides which waiting jobs start at ``t``. A pass may ask to be woken at a
time of its own (conservative: its earliest reservation); other passes return
``inf``.

State, all preallocated arrays (no objects, no allocation in the loop):

``start``
    start time per job (``nan`` until started) — the kernel's output.
``queue``
    waiting jobs, ``cnt[1]`` of them, in submit order (= job index order).
``running``
    running jobs, ``cnt[2]`` of them, sorted by requested end ``start + req``.
``cnt``
    ``[next arrival, waiting, running, free processors now]``.
``times``, ``free``
    scratch room for an availability profile (see :func:`running_profile`).

Decisions use requested times only: a running job holds its processors over
``[start, start + req)`` and an early completion frees the rest of that interval
(MODEL_NOTES §2; the STYLE anti-pattern is reserving with actual run times).
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEXT, WAITING, RUNNING, FREE = 0, 1, 2, 3


@njit(cache=True)
def new_state(n, processors):
    """Fresh state for ``n`` jobs on an empty machine of ``processors`` processors."""
    start = np.full(n, np.nan)
    queue = np.empty(n, np.int64)
    running = np.empty(n, np.int64)
    cnt = np.zeros(4, np.int64)
    cnt[FREE] = processors
    times = np.empty(4 * n + 2)  # running ends + 2 per reservation, + 2 per re-placement
    free = np.empty(4 * n + 2, np.int64)
    return start, queue, running, cnt, times, free


@njit(cache=True)
def advance(wake, submit, run, procs, start, queue, running, cnt, times, free):
    """Move to the next distinct event time ``t`` and apply its events.

    ``t`` is the earliest of the next arrival, the next actual completion
    (``start + run``) and ``wake``. All completions at ``t`` free their
    processors first, then all arrivals at ``t`` join the queue in trace order.
    Returns ``(t, done, new)``: ``done`` whether a job completed at ``t``, ``new``
    how many jobs arrived (the last ``new`` entries of the queue). ``t = inf``
    when nothing is left to happen.
    """
    nxt, nq, nr = cnt[NEXT], cnt[WAITING], cnt[RUNNING]
    t = wake
    if nxt < submit.size and submit[nxt] < t:
        t = submit[nxt]
    for k in range(nr):
        end = start[running[k]] + run[running[k]]
        if end < t:
            t = end
    if t == np.inf:
        return t, False, 0
    kept = 0
    for k in range(nr):  # keeps the running list sorted by requested end
        j = running[k]
        if start[j] + run[j] == t:
            cnt[FREE] += procs[j]
        else:
            running[kept] = j
            kept += 1
    new = 0
    while nxt < submit.size and submit[nxt] == t:
        queue[nq + new] = nxt
        new += 1
        nxt += 1
    cnt[NEXT], cnt[WAITING], cnt[RUNNING] = nxt, nq + new, kept
    return t, kept < nr, new


@njit(cache=True)
def start_job(j, t, req, procs, start, running, cnt):
    """Start job ``j`` at ``t``: it joins the running list (kept sorted by requested end).

    The caller removes ``j`` from the queue (see :func:`drop_started`).
    """
    start[j] = t
    end = t + req[j]
    k = cnt[RUNNING]
    while k > 0 and start[running[k - 1]] + req[running[k - 1]] > end:
        running[k] = running[k - 1]
        k -= 1
    running[k] = j
    cnt[RUNNING] += 1
    cnt[FREE] -= procs[j]


@njit(cache=True)
def drop_started(start, queue, cnt):
    """Remove the jobs that have started from the queue, keeping submit order."""
    kept = 0
    for i in range(cnt[WAITING]):
        if np.isnan(start[queue[i]]):
            queue[kept] = queue[i]
            kept += 1
    cnt[WAITING] = kept


@njit(cache=True)
def start_reserved(t, reserved, req, procs, start, queue, running, cnt):
    """Start every waiting job whose reserved start is ``t``; return the next reserved start.

    The reservation-based policies (conservative, slack) keep one planned start per
    waiting job; at each timestamp the due ones start and the event loop wakes at the
    earliest of the others.
    """
    wake = np.inf
    for i in range(cnt[WAITING]):
        j = queue[i]
        if reserved[j] == t:
            start_job(j, t, req, procs, start, running, cnt)
        elif reserved[j] < wake:
            wake = reserved[j]
    drop_started(start, queue, cnt)
    return wake


@njit(cache=True)
def start_heads(t, req, procs, start, queue, running, cnt):
    """Start queue heads in FCFS order while they fit now; returns how many started.

    The started jobs are still at the front of the queue: the caller continues
    from there and calls :func:`drop_started` at the end of its pass.
    """
    h = 0
    while h < cnt[WAITING] and procs[queue[h]] <= cnt[FREE]:
        start_job(queue[h], t, req, procs, start, running, cnt)
        h += 1
    return h


@njit(cache=True)
def running_profile(t, req, procs, start, running, cnt, times, free):
    """Free processors from ``t`` on if only the running jobs held any; returns its length.

    The profile is a step function: ``free[k]`` processors are free over
    ``[times[k], times[k+1])``, and ``free[m-1]`` from ``times[m-1]`` on. Each
    running job holds its processors until its requested end (always ``> t``).
    """
    times[0] = t
    free[0] = cnt[FREE]
    m = 1
    for k in range(cnt[RUNNING]):
        j = running[k]
        end = start[j] + req[j]
        if end != times[m - 1]:
            times[m] = end
            free[m] = free[m - 1]
            m += 1
        free[m - 1] += procs[j]
    return m


@njit(cache=True)
def earliest_fit(times, free, m, n, duration):
    """The earliest profile time from which ``n`` processors stay free for ``duration``."""
    k = 0
    while True:
        while free[k] < n:
            k += 1
        s = times[k]
        e = s + duration
        j = k + 1
        while j < m and times[j] < e and free[j] >= n:
            j += 1
        if j == m or times[j] >= e:
            return s
        k = j + 1


@njit(cache=True)
def fits_at(times, free, m, s, n, duration):
    """Whether ``n`` processors stay free over ``[s, s + duration)`` (``s`` >= the start)."""
    k = np.searchsorted(times[:m], s, side="right") - 1
    e = s + duration
    while k < m and times[k] < e:
        if free[k] < n:
            return False
        k += 1
    return True


@njit(cache=True)
def _breakpoint(times, free, m, x):
    """Index of a breakpoint at ``x`` (inserted, copying the free count, if absent)."""
    k = np.searchsorted(times[:m], x)
    if k < m and times[k] == x:
        return k, m
    for i in range(m, k, -1):
        times[i] = times[i - 1]
        free[i] = free[i - 1]
    times[k] = x
    free[k] = free[k - 1]
    return k, m + 1


@njit(cache=True)
def add_interval(times, free, m, s, e, delta):
    """Add ``delta`` free processors over ``[s, e)`` (``s`` >= the profile's start).

    ``delta = -n`` reserves ``n`` processors, ``+n`` releases them. Returns the
    profile's new length.
    """
    a, m = _breakpoint(times, free, m, s)
    b, m = _breakpoint(times, free, m, e)
    for k in range(a, b):
        free[k] += delta
    return m
