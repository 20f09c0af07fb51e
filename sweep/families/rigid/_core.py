"""The compiled core of the rigid family: one event loop, its state and the passes' parts.

Model (Talby & Feitelson 1999 §1, §3.1): ``P`` processors; each job asks for
``procs`` of them for a *requested* time and holds them, without preemption,
for its actual ``run`` time. Every scheduling decision uses requested times
only: a running job holds its processors over ``[start, start + requested)``
and an early completion frees the rest of that interval. Reserving with actual
run times would be clairvoyant.

:func:`run` is the one event loop of every policy, over distinct event
timestamps::

    t, done, new = advance(inf)
    while t < inf:
        wake = step(t, done, new, jobs, state, aux, order)   # the policy's pass
        t, done, new = advance(wake)

:func:`advance` applies, at the next timestamp, first every completion, then
every arrival (in trace order); the pass then decides which waiting jobs start
at ``t`` and may ask to be woken at a time of its own (a reservation), or
return ``inf``. The passes are in :mod:`~sweep.families.rigid._passes` (FCFS,
EASY, conservative) and :mod:`~sweep.families.rigid._slack`; ``order`` is the
policy's queue-order hook (:func:`submit_order` and :func:`order_queue`).

``run`` and the passes are inlined (``inline="always"``) into a two-line
kernel in each policy's file, so the pass and the order hook are compile-time
constants there: numba's on-disk cache cannot hold a kernel that receives a
compiled function at run time. Every kernel is compiled without reference
counting (:data:`sweep._numba.NO_REFCOUNT`) and allocates nothing:
the passes' work room comes with their state.
The functions called at every event (:func:`advance`, :func:`start_job`,
:func:`start_heads`, :func:`drop_started`, :func:`running_profile`,
:func:`start_reserved`) are inlined too, and so compiled with the kernel's
own options: compiled apart, taking the named tuples, they made FCFS and
EASY about 10% slower than the loops on positional arrays they replaced
(measured on KTH).

State (:class:`RigidState`), all preallocated by :func:`new_state`:

``start``
    start time per job (``nan`` until started): the kernel's output.
``queue``
    the waiting jobs, ``counts.waiting`` of them, in queue order (submit order
    unless the order hook says otherwise).
``running``
    the running jobs, ``counts.running`` of them, sorted by requested end.
``counts``
    one record (:data:`COUNTS`): ``next`` arrival, jobs ``waiting`` and
    ``running``, processors ``free`` now.
``times``, ``free``
    room for an availability profile (:func:`running_profile`).
``key``
    the order hook's key of each queue position, for :func:`order_queue`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from sweep._numba import jit, record

#: The loop's counters, one record: the next job to arrive, jobs waiting, jobs running,
#: processors free now.
COUNTS = np.dtype([("next", np.int64), ("waiting", np.int64), ("running", np.int64),
                   ("free", np.int64)], align=True)


class Columns(NamedTuple):
    """The jobs of one simulated part, in submit order (:mod:`~sweep.families.rigid._jobs`)."""

    submit: np.ndarray
    run: np.ndarray
    requested: np.ndarray
    procs: np.ndarray
    priority: np.ndarray


class RigidState(NamedTuple):
    """The event loop's state (module docstring)."""

    start: np.ndarray
    queue: np.ndarray
    running: np.ndarray
    counts: np.ndarray
    times: np.ndarray
    free: np.ndarray
    key: np.ndarray


def columns(submit: np.ndarray, run: np.ndarray, requested: np.ndarray, procs: np.ndarray,
            priority: np.ndarray) -> Columns:
    """The kernel's job columns: float64 times and priorities, int64 processor counts."""
    as_float = [np.ascontiguousarray(c, dtype=np.float64) for c in (submit, run, requested, priority)]
    return Columns(*as_float[:3], np.ascontiguousarray(procs, dtype=np.int64), as_float[3])


def new_state(n: int, processors: int) -> RigidState:
    """Fresh state for ``n`` jobs on an empty machine of ``processors`` processors."""
    counts = record(COUNTS)
    counts[0]["free"] = processors
    room = 4 * n + 2  # running ends + 2 per reservation, + 2 per re-placement
    return RigidState(np.full(n, np.nan), np.empty(n, np.int64), np.empty(n, np.int64), counts,
                      np.empty(room), np.empty(room, np.int64), np.empty(n))


@jit(inline="always")
def run(jobs, state, aux, step, order):
    """The event loop of every policy (module docstring): ``step`` is the policy's pass."""
    t, done, new = advance(np.inf, jobs, state)
    while t < np.inf:
        wake = step(t, done, new, jobs, state, aux, order)
        t, done, new = advance(wake, jobs, state)


@jit(inline="always")
def advance(wake, jobs, state):
    """Move to the next distinct event time ``t`` and apply its events.

    ``t`` is the earliest of the next arrival, the next actual completion
    (``start + run``) and ``wake``. All completions at ``t`` free their
    processors first, then all arrivals at ``t`` join the queue in trace order.
    Returns ``(t, done, new)``: ``done`` whether a job completed at ``t``, ``new``
    how many jobs arrived (the last ``new`` entries of the queue). ``t = inf``
    when nothing is left to happen.
    """
    submit, run, procs = jobs.submit, jobs.run, jobs.procs
    start, queue, running = state.start, state.queue, state.running
    c = state.counts[0]
    nxt, nq, nr = c.next, c.waiting, c.running
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
            c.free += procs[j]
        else:
            running[kept] = j
            kept += 1
    new = 0
    while nxt < submit.size and submit[nxt] == t:
        queue[nq + new] = nxt
        new += 1
        nxt += 1
    c.next, c.waiting, c.running = nxt, nq + new, kept
    return t, kept < nr, new


@jit(inline="always")
def start_job(j, t, jobs, state):
    """Start job ``j`` at ``t``: it joins the running list (kept sorted by requested end).

    The caller removes ``j`` from the queue (see :func:`drop_started`).
    """
    start, running, req = state.start, state.running, jobs.requested
    c = state.counts[0]
    start[j] = t
    end = t + req[j]
    k = c.running
    while k > 0 and start[running[k - 1]] + req[running[k - 1]] > end:
        running[k] = running[k - 1]
        k -= 1
    running[k] = j
    c.running += 1
    c.free -= jobs.procs[j]


@jit(inline="always")
def drop_started(state):
    """Remove the jobs that have started from the queue, keeping the queue's order."""
    start, queue = state.start, state.queue
    c = state.counts[0]
    kept = 0
    for i in range(c.waiting):
        if np.isnan(start[queue[i]]):
            queue[kept] = queue[i]
            kept += 1
    c.waiting = kept


@jit(inline="always")
def start_heads(t, jobs, state):
    """Start queue heads in queue order while they fit now; returns how many started.

    The started jobs are still at the front of the queue: the caller continues
    from there and calls :func:`drop_started` at the end of its pass.
    """
    queue, procs = state.queue, jobs.procs
    c = state.counts[0]
    h = 0
    while h < c.waiting and procs[queue[h]] <= c.free:
        start_job(queue[h], t, jobs, state)
        h += 1
    return h


@jit(inline="always")
def start_reserved(t, reserved, jobs, state):
    """Start every waiting job whose reserved start is ``t``; return the next reserved start.

    The reservation-based passes (conservative, slack) keep one planned start per
    waiting job; at each timestamp the due ones start and the event loop wakes at the
    earliest of the others.
    """
    queue = state.queue
    wake = np.inf
    for i in range(state.counts[0].waiting):
        j = queue[i]
        if reserved[j] == t:
            start_job(j, t, jobs, state)
        elif reserved[j] < wake:
            wake = reserved[j]
    drop_started(state)
    return wake


# --- queue order ---------------------------------------------------------------------------


@jit()
def submit_order(t, j, submit, requested, procs, priority):
    """The order hook of FCFS order: the job's index (:func:`order_queue` then does nothing).

    Every order hook has this signature: the key of waiting job ``j`` at pass
    time ``t``, lower first; ties go to the earlier submitted job.
    """
    return float(j)


def _sort_by_key(t, jobs, state, order):
    queue, key = state.queue, state.key
    n = state.counts[0].waiting
    for i in range(n):
        key[i] = order(t, queue[i], jobs.submit, jobs.requested, jobs.procs, jobs.priority)
    sort_queue(key, queue, n)


def _keep(t, jobs, state, order):
    """The queue is already in submit order."""


def order_queue(t, jobs, state, order):
    """Sort the waiting jobs by ``(order(t, j, ...), j)``; nothing at all for :func:`submit_order`.

    The queue is then in the order hook's order, ties by submit order. Which of
    the two is compiled is decided from the hook's identity at compile time, so
    FCFS-order policies pay nothing for the hook (this body is what runs
    without the JIT; the overload below is what numba compiles).
    """
    (_keep if order is submit_order else _sort_by_key)(t, jobs, state, order)


@overload(order_queue)
def _order_queue(t, jobs, state, order):
    if isinstance(order, types.Dispatcher) and order.dispatcher is submit_order:
        return _keep
    return _sort_by_key


@jit()
def _before(key, queue, a, b):
    """Whether queue position ``a`` comes before ``b``: lower key, then lower job index."""
    return key[a] < key[b] or (key[a] == key[b] and queue[a] < queue[b])


@jit()
def _swap(key, queue, a, b):
    key[a], key[b] = key[b], key[a]
    queue[a], queue[b] = queue[b], queue[a]


@jit()
def _sift_down(key, queue, root, end):
    """Restore the max-heap below ``root`` in positions ``[0, end)``."""
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and _before(key, queue, child, child + 1):
            child += 1
        if not _before(key, queue, root, child):
            return
        _swap(key, queue, root, child)
        root = child


@jit()
def sort_queue(key, queue, n):
    """Sort ``queue[:n]`` with its ``key[:n]`` by (key, job), in place: heapsort, no allocation.

    Any sort gives the same order, as no two entries compare equal. An already
    sorted queue (a static key, no arrival since the last pass) costs one check.
    """
    i = 1
    while i < n and not _before(key, queue, i, i - 1):
        i += 1
    if i >= n:
        return
    for root in range(n // 2 - 1, -1, -1):
        _sift_down(key, queue, root, n)
    for end in range(n - 1, 0, -1):
        _swap(key, queue, 0, end)
        _sift_down(key, queue, 0, end)


# --- availability profiles -----------------------------------------------------------------


@jit(inline="always")
def running_profile(t, jobs, state):
    """Free processors from ``t`` on if only the running jobs held any; returns its length.

    The profile is a step function in ``state.times`` and ``state.free``:
    ``free[k]`` processors are free over ``[times[k], times[k+1])``, and
    ``free[m-1]`` from ``times[m-1]`` on. Each running job holds its processors
    until its requested end (always ``> t``).
    """
    start, running, times, free = state.start, state.running, state.times, state.free
    req, procs = jobs.requested, jobs.procs
    c = state.counts[0]
    times[0] = t
    free[0] = c.free
    m = 1
    for k in range(c.running):
        j = running[k]
        end = start[j] + req[j]
        if end != times[m - 1]:
            times[m] = end
            free[m] = free[m - 1]
            m += 1
        free[m - 1] += procs[j]
    return m


@jit()
def _fit_from(times, free, m, n, duration, k, s):
    """The earliest time ``>= s``, ``s`` within profile step ``k``, from which ``n`` processors
    stay free for ``duration`` (the scan :func:`earliest_fit` and :func:`earliest_fit_from` share)."""
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
        s = times[k]


@jit()
def earliest_fit(times, free, m, n, duration):
    """The earliest profile time from which ``n`` processors stay free for ``duration``."""
    return _fit_from(times, free, m, n, duration, 0, times[0])


@jit()
def earliest_fit_from(times, free, m, n, duration, lo):
    """The earliest time ``>= lo`` (``lo`` >= the profile's start) from which ``n`` processors
    stay free for ``duration``: :func:`earliest_fit` with a lower bound."""
    return _fit_from(times, free, m, n, duration, _step(times, m, lo), lo)


@jit()
def _first_at_or_after(times, m, x):
    """The first index ``k < m`` with ``times[k] >= x``, or ``m`` (a binary search: the profile's
    times are sorted and never NaN, which ``np.searchsorted`` would have to check)."""
    lo, hi = 0, m
    while lo < hi:
        mid = (lo + hi) >> 1
        if times[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit()
def _step(times, m, x):
    """Index of the profile step containing ``x`` (``x`` >= the profile's start)."""
    k = _first_at_or_after(times, m, x)
    return k if k < m and times[k] == x else k - 1


@jit()
def fits_at(times, free, m, s, n, duration):
    """Whether ``n`` processors stay free over ``[s, s + duration)`` (``s`` >= the start)."""
    k = _step(times, m, s)
    e = s + duration
    while k < m and times[k] < e:
        if free[k] < n:
            return False
        k += 1
    return True


@jit()
def _open_at(times, free, m, k, x, value):
    """Insert a breakpoint at ``x`` as index ``k`` with ``value`` free processors."""
    for i in range(m, k, -1):
        times[i] = times[i - 1]
        free[i] = free[i - 1]
    times[k] = x
    free[k] = value
    return m + 1


@jit()
def add_interval(times, free, m, s, e, delta):
    """Add ``delta`` free processors over ``[s, e)`` (``s`` >= the profile's start).

    ``delta = -n`` reserves ``n`` processors, ``+n`` releases them. Returns the
    profile's new length. One search, then one pass from ``s`` to ``e``: breakpoints
    at ``s`` and ``e`` are added where absent, each copying the count it splits.
    """
    a = _first_at_or_after(times, m, s)
    if a == m or times[a] != s:
        m = _open_at(times, free, m, a, s, free[a - 1])
    b = a
    while b < m and times[b] < e:
        free[b] += delta
        b += 1
    if b == m or times[b] != e:
        m = _open_at(times, free, m, b, e, free[b - 1] - delta)
    return m
