"""Shared numba kernels of the malleable family (seed 000 §2; STYLE pattern 2).

The system holds ``P`` processors; a job ``j`` on ``x`` processors (``x`` real
or integer) finishes its work at the rate ``1/T_j(x)``, ``T_j(x) = a_j/x + b_j + c_j x``
(:mod:`sweep.workloads.speedup`), so between two events every job's remaining
fraction ``rem_j`` falls linearly and its acquired processing time (processor-
seconds allocated, §2.1) grows by ``x·dt``. An event is an arrival, a departure
or the end of a time slice (FB policies); after each one the policy's driver
(one njit loop per policy file) recomputes the allocations and calls
:func:`set_rates`.

State, made by :func:`new_state`, passed around as a tuple ``st``:
``rem, acq, alloc, rate, depart`` per job (in arrival order), ``act`` (the jobs
in the system, in arrival order, which breaks ties), ``ist`` and ``fst``
(integer and real scalars, indexed by the ``I_*`` and ``F_*`` constants).

The run stops after ``target`` departures, or as soon as ``cap`` jobs are in
the system (``ist[I_SAT] = 1``). Statistics over the measurement window (from
the ``warmup``-th departure on): processor-seconds allocated (``F_BUSY``) and
the area under the number in system (``F_AREA``). Safety checks: the largest
total allocation seen (``F_MAX_TOTAL``) and the largest excess of an
allocation over the job's cap ``min(N_j, P)`` (``F_MAX_OVER``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ist
I_J, I_NEXT, I_DEP, I_EVENTS, I_SAT, I_TARGET, I_WARM, I_CAP = range(8)
# fst
F_T, F_SLICE, F_BUSY, F_START, F_TOTAL, F_MAX_TOTAL, F_MAX_OVER, F_AREA = range(8)
# next_event's answers besides an arriving job's index
DONE, DEPARTURE, SLICE = -3, -2, -1


@njit(cache=True)
def new_state(n, warmup, target, cap):
    """Empty system at time 0 for ``n`` pre-drawn jobs (module docstring)."""
    ist = np.zeros(8, np.int64)
    ist[I_TARGET], ist[I_WARM], ist[I_CAP] = target, warmup, cap
    fst = np.zeros(8)
    fst[F_SLICE] = np.inf
    return (np.ones(n), np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.nan),
            np.empty(cap + 1, np.int64), ist, fst)


@njit(cache=True)
def next_event(arrival, rem, acq, alloc, rate, depart, act, ist, fst):
    """Advance to the next event and apply it; ``DONE``, ``DEPARTURE``, ``SLICE`` or the arrival.

    Ties: a departure before an arrival before a slice end.
    """
    if ist[I_DEP] >= ist[I_TARGET] or ist[I_SAT] != 0:
        return DONE
    J, t = ist[I_J], fst[F_T]
    best, kb = np.inf, -1
    for k in range(J):
        j = act[k]
        if rate[j] > 0.0:
            d = max(rem[j], 0.0) / rate[j]
            if d < best:
                best, kb = d, k
    nxt = ist[I_NEXT]
    t_arr = arrival[nxt] if nxt < arrival.size else np.inf
    t_dep = t + best
    t_new = min(t_dep, t_arr, fst[F_SLICE])
    if t_new == np.inf:
        return DONE
    dt = t_new - t
    if dt > 0.0:
        for k in range(J):
            j = act[k]
            rem[j] -= rate[j] * dt
            acq[j] += alloc[j] * dt
        if ist[I_DEP] >= ist[I_WARM]:
            fst[F_BUSY] += fst[F_TOTAL] * dt
            fst[F_AREA] += J * dt
    fst[F_T] = t_new
    ist[I_EVENTS] += 1
    if kb >= 0 and t_dep <= t_arr and t_dep <= fst[F_SLICE]:
        j = act[kb]
        depart[j], rem[j], alloc[j], rate[j] = t_new, 0.0, 0.0, 0.0
        for k in range(kb, J - 1):
            act[k] = act[k + 1]
        ist[I_J] = J - 1
        ist[I_DEP] += 1
        if ist[I_DEP] == ist[I_WARM]:
            fst[F_START] = t_new
        return DEPARTURE
    if t_arr <= fst[F_SLICE]:
        act[J] = nxt
        ist[I_J] = J + 1
        ist[I_NEXT] = nxt + 1
        if ist[I_CAP] <= J + 1:
            ist[I_SAT] = 1
        return nxt
    return SLICE


@njit(cache=True)
def set_rates(a, b, c, ncap, alloc, rate, act, ist, fst):
    """Rates ``x/(a + b x + c x²)`` from the allocations; record the safety maxima."""
    total = 0.0
    for k in range(ist[I_J]):
        j = act[k]
        x = alloc[j]
        rate[j] = x / (a[j] + x * (b[j] + c[j] * x)) if x > 0.0 else 0.0
        total += x
        fst[F_MAX_OVER] = max(fst[F_MAX_OVER], x - ncap[j])
    fst[F_TOTAL] = total
    fst[F_MAX_TOTAL] = max(fst[F_MAX_TOTAL], total)


@njit(cache=True)
def _by_acquired(act, ks, m, acq):
    """``ks[:m]`` (positions in ``act``) reordered by acquired service, ties by arrival."""
    order = np.sort(ks[:m])
    key = np.empty(m)
    for i in range(m):
        key[i] = acq[act[order[i]]]
    return order[np.argsort(key, kind="mergesort")]


@njit(cache=True)
def equipartition(avail, caps, fractional, act, J, acq, give, ks):
    """Share ``avail`` processors equally among ``act[:J]``, each at most ``caps[j]`` (§2.2).

    Jobs whose cap is below the equal share get their cap and the share is
    recomputed for the rest (water-filling). With integer shares the rest get
    ``floor(R/m)`` and the ``R mod m`` of them with the least acquired service
    one more. Writes ``give[j]``; returns the processors given. ``ks`` is scratch
    of length ``J`` or more.
    """
    left, m = avail, 0
    for k in range(J):
        j = act[k]
        give[j] = 0.0
        if caps[j] > 0.0:
            ks[m] = k
            m += 1
    changed = True
    while changed and m > 0:
        changed = False
        i = 0
        while i < m:
            j = act[ks[i]]
            if caps[j] * m <= left:
                give[j] = caps[j]
                left -= caps[j]
                m -= 1
                ks[i] = ks[m]
                changed = True
            else:
                i += 1
    if m == 0:
        return avail - left
    if fractional:
        for i in range(m):
            give[act[ks[i]]] = left / m
        return avail
    base = np.floor(left / m)
    extra = int(left - base * m)
    for i in range(m):
        give[act[ks[i]]] = base
    if extra > 0:
        first = _by_acquired(act, ks, m, acq)
        for i in range(extra):
            give[act[first[i]]] += 1.0
    return avail


@njit(cache=True)
def fb_slice(processors, size, act, J, acq, alloc, ks):
    """One FB time slice (§2.1): jobs by least acquired service, each on its configured size.

    Jobs that do not fit are skipped while later ones fit; the highest-priority
    skipped job then runs on the processors left, so only that one job may run
    on fewer processors than its configuration.
    """
    for k in range(J):
        ks[k] = k
    free, first = processors, -1
    for k in _by_acquired(act, ks, J, acq):
        j = act[k]
        if size[j] <= free:
            alloc[j] = size[j]
            free -= size[j]
        else:
            alloc[j] = 0.0
            if first < 0:
                first = j
    if first >= 0 and free > 0:
        alloc[first] = free


@njit(cache=True)
def run_equipartition(arrival, a, b, c, ncap, first, second, processors, fractional,
                      warmup, target, cap):
    """The EQS family's loop: two-phase equipartition after every arrival and departure.

    Phase one shares the processors with caps ``first``; processors left over
    are shared with caps ``second`` on top (EQS-PWS, §4.2; EQS has ``second = 0``).
    Returns ``(depart, acq, ist, fst)``.
    """
    st = new_state(arrival.size, warmup, target, cap)
    rem, acq, alloc, rate, depart, act, ist, fst = st
    more, ks = np.zeros(arrival.size), np.empty(cap + 1, np.int64)
    while next_event(arrival, *st) != DONE:
        J = ist[I_J]
        used = equipartition(processors, first, fractional, act, J, acq, alloc, ks)
        if used < processors:
            equipartition(processors - used, second, fractional, act, J, acq, more, ks)
            for k in range(J):
                alloc[act[k]] += more[act[k]]
        set_rates(a, b, c, ncap, alloc, rate, act, ist, fst)
    return depart, acq, ist, fst


@njit(cache=True)
def fb_reschedule(processors, quantum, size, a, b, c, ncap, st, ks):
    """After any FB event a new time slice of ``quantum`` seconds starts (none while empty)."""
    rem, acq, alloc, rate, depart, act, ist, fst = st
    fb_slice(processors, size, act, ist[I_J], acq, alloc, ks)
    set_rates(a, b, c, ncap, alloc, rate, act, ist, fst)
    fst[F_SLICE] = fst[F_T] + quantum if ist[I_J] > 0 else np.inf
