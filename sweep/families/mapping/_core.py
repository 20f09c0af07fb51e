"""The compiled core of the mapping family: one execution model and the list-scheduling routines.

**Instance** (:class:`Arrays`, a namedtuple of arrays): ``exec_time[t, p]``
(a task's weight over p's speed, or the cost matrix), predecessor and
successor lists in CSR form (``pstart, psrc, pdata`` by receiving task;
``sstart, sdst, sdata`` by sending task), the routes (``route_bw[q, p]`` the
bottleneck bandwidth, ``inf`` on the diagonal; ``rstart, rchan`` the directed
channels of route ``q -> p`` at ``rstart[q * N + p]``) and ``contention``.

**Execution model** (the same for every mapper, CSSE00 §2.1's T_m; the rule
of contention is a reconstruction): tasks are taken in a given global order
(a topological order: the mapper's planned start times, ties by topological
position). A task runs on its processor after the one before it there in
that order (no preemption), once all its inputs have arrived. Its incoming
messages are sent in the order of their senders' finish times (then sender
index); a message of data d from q to p != q leaves at its sender's finish,
occupies every channel of the route q -> p at once (cut-through) for
``d / route_bw[q, p]``, and, with contention, starts at the earliest time
after its sender's finish at which all those channels are free for that long
(it may use an idle interval before a reservation made earlier). Links are
full duplex (one channel per direction). Without contention a message just
takes ``d / route_bw``. Data 0, or sender and receiver on one processor:
the input is there at the sender's finish.

:func:`route_inputs` is that rule for one task on one processor; :func:`_execute`
applies it to a whole mapping; MH (``mh.py``) with ``contention: exact`` calls
the same :func:`route_inputs` when it chooses processors, so its plan is exactly
what the executor runs.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sweep._numba import jit

Arrays = namedtuple("Arrays", ["exec_time", "pstart", "psrc", "pdata", "sstart", "sdst", "sdata",
                               "route_bw", "rstart", "rchan", "contention", "topo", "channels"])


@jit(inline="always")
def sort_inputs(t, a, finish, buf):
    """Indices into ``psrc`` of ``t``'s inputs in ``buf[:k]``, by sender finish then sender index."""
    k = 0
    for e in range(a.pstart[t], a.pstart[t + 1]):
        j = k
        u = a.psrc[e]
        while j > 0:
            v = a.psrc[buf[j - 1]]
            if finish[v] > finish[u] or (finish[v] == finish[u] and v > u):
                buf[j] = buf[j - 1]
                j -= 1
            else:
                break
        buf[j] = e
        k += 1
    return k


@jit(inline="always")
def _first_after(c, t, chan_f, chan_n):
    """Index of channel c's first reservation ending after t (reservations are disjoint and sorted)."""
    lo = 0
    hi = chan_n[c]
    while lo < hi:
        mid = (lo + hi) >> 1
        if chan_f[c, mid] <= t:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit(inline="always")
def _fit(r0, r1, rchan, t, duration, chan_s, chan_f, chan_n):
    """Earliest time >= t at which every channel of the route is free for ``duration``; and ops."""
    ops = 0
    moved = True
    while moved:
        moved = False
        for r in range(r0, r1):
            c = rchan[r]
            i = _first_after(c, t, chan_f, chan_n)
            ops += 1
            if i < chan_n[c] and chan_s[c, i] < t + duration:
                t = chan_f[c, i]
                moved = True
    return t, ops


@jit(inline="always")
def _reserve(c, s, f, chan_s, chan_f, chan_n):
    """Insert [s, f) into channel c's sorted reservations; its index, or -1 when the table is full."""
    n = chan_n[c]
    if n == chan_s.shape[1]:
        return -1
    i = _first_after(c, s, chan_f, chan_n)
    for j in range(n, i, -1):
        chan_s[c, j] = chan_s[c, j - 1]
        chan_f[c, j] = chan_f[c, j - 1]
    chan_s[c, i] = s
    chan_f[c, i] = f
    chan_n[c] = n + 1
    return i


@jit(inline="always")
def _unreserve(c, i, chan_s, chan_f, chan_n):
    n = chan_n[c] - 1
    for j in range(i, n):
        chan_s[c, j] = chan_s[c, j + 1]
        chan_f[c, j] = chan_f[c, j + 1]
    chan_n[c] = n


@jit(inline="always")
def route_inputs(t, p, a, proc, finish, chan_s, chan_f, chan_n, buf, commit, log_c, log_i):
    """Time at which all inputs of ``t`` are on ``p`` (module docstring), operations, and whether
    a channel's reservation table overflowed (the caller grows it and starts again).

    With ``commit`` the channel reservations are kept; otherwise they are
    undone before returning (``log_c``/``log_i`` record them).
    """
    k = sort_inputs(t, a, finish, buf)
    ready = 0.0
    ops = k
    logged = 0
    full = False
    n = a.route_bw.shape[0]
    for i in range(k):
        e = buf[i]
        u = a.psrc[e]
        q = proc[u]
        data = a.pdata[e]
        arrive = finish[u]
        if q != p and data > 0.0:
            duration = data / a.route_bw[q, p]
            r0 = a.rstart[q * n + p]
            r1 = a.rstart[q * n + p + 1]
            leave = finish[u]
            if a.contention:
                leave, o = _fit(r0, r1, a.rchan, leave, duration, chan_s, chan_f, chan_n)
                ops += o
                for r in range(r0, r1):
                    c = a.rchan[r]
                    at = _reserve(c, leave, leave + duration, chan_s, chan_f, chan_n)
                    if at < 0:
                        full = True
                        break
                    if not commit:
                        log_c[logged] = c
                        log_i[logged] = at
                        logged += 1
                ops += r1 - r0
            arrive = leave + duration
        ready = max(ready, arrive)
        if full:
            break
    for i in range(logged - 1, -1, -1):
        _unreserve(log_c[i], log_i[i], chan_s, chan_f, chan_n)
    return ready, ops, full


@jit()
def _execute(order, proc, a, start, finish, proc_free, chan_s, chan_f, chan_n, buf, log_c, log_i):
    """Run the mapping ``proc`` in the global ``order``; fill ``start``/``finish``.

    Returns the operations done, or -1 when a channel's reservation table overflowed.
    """
    ops = 0
    for i in range(order.shape[0]):
        t = order[i]
        p = proc[t]
        ready, o, full = route_inputs(t, p, a, proc, finish, chan_s, chan_f, chan_n, buf, True, log_c, log_i)
        if full:
            return -1
        ops += o
        s = max(ready, proc_free[p])
        start[t] = s
        finish[t] = s + a.exec_time[t, p]
        proc_free[p] = finish[t]
    return ops


@jit()
def _upward_rank(a, wbar, cbar):
    """Topcuoglu et al. 2002 eq. (3): rank_u(t) = w̄_t + max over successors (c̄ data + rank_u)."""
    m = wbar.shape[0]
    rank = np.zeros(m)
    for i in range(m - 1, -1, -1):
        t = a.topo[i]
        best = 0.0
        for e in range(a.sstart[t], a.sstart[t + 1]):
            best = max(best, cbar * a.sdata[e] + rank[a.sdst[e]])
        rank[t] = wbar[t] + best
    return rank


@jit()
def _downward_rank(a, wbar, cbar):
    """Topcuoglu et al. 2002 eq. (4): rank_d(t) = max over predecessors (rank_d + w̄ + c̄ data)."""
    m = wbar.shape[0]
    rank = np.zeros(m)
    for i in range(m):
        t = a.topo[i]
        best = 0.0
        for e in range(a.pstart[t], a.pstart[t + 1]):
            u = a.psrc[e]
            best = max(best, rank[u] + wbar[u] + cbar * a.pdata[e])
        rank[t] = best
    return rank


@jit(inline="always")
def data_ready(t, p, a, proc, finish):
    """Contention-free arrival of all inputs of ``t`` on ``p`` (the list schedulers' estimate)."""
    ready = 0.0
    for e in range(a.pstart[t], a.pstart[t + 1]):
        u = a.psrc[e]
        q = proc[u]
        arrive = finish[u]
        if q != p:
            arrive += a.pdata[e] / a.route_bw[q, p]
        ready = max(ready, arrive)
    return ready


@jit(inline="always")
def _gap(p, ready, w, slot_s, slot_f, count):
    """Insertion policy (Topcuoglu et al. 2002 §4.1): earliest idle gap of length w from ``ready``.

    Returns (start, index at which the slot goes, slots examined).
    """
    prev = 0.0
    for i in range(count[p]):
        s = max(ready, prev)
        if s + w <= slot_s[p, i]:
            return s, i, i + 1
        prev = slot_f[p, i]
    return max(ready, prev), count[p], count[p] + 1


@jit(inline="always")
def _insert(p, i, s, f, slot_s, slot_f, slot_t, count, t):
    for j in range(count[p], i, -1):
        slot_s[p, j] = slot_s[p, j - 1]
        slot_f[p, j] = slot_f[p, j - 1]
        slot_t[p, j] = slot_t[p, j - 1]
    slot_s[p, i] = s
    slot_f[p, i] = f
    slot_t[p, i] = t
    count[p] += 1


@jit(inline="always")
def place_earliest_finish(t, only, a, proc, start, finish, slot_s, slot_f, slot_t, count):
    """Put task ``t`` where insertion gives it the earliest finish (Topcuoglu et al. 2002 §4.1,
    HEFT's and CPOP's processor selection): on any processor, or on ``only`` when ``only >= 0``
    (CPOP's critical-path processor). Returns the operations counted (slots and inputs examined)."""
    best_f, best_s, best_p, best_i = np.inf, 0.0, 0, 0
    ops = 0
    for p in range(a.exec_time.shape[1]):
        if only >= 0 and p != only:
            continue
        w = a.exec_time[t, p]
        s, at, looked = _gap(p, data_ready(t, p, a, proc, finish), w, slot_s, slot_f, count)
        ops += looked + a.pstart[t + 1] - a.pstart[t]
        if s + w < best_f:
            best_f, best_s, best_p, best_i = s + w, s, p, at
    proc[t], start[t], finish[t] = best_p, best_s, best_f
    _insert(best_p, best_i, best_s, best_f, slot_s, slot_f, slot_t, count, t)
    return ops
