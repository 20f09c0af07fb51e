"""Shared numba kernels of the malleable family (seed 000 §2, §4.3; STYLE pattern 2).

The system holds ``P`` processors; a job ``j`` on ``x`` processors (``x`` real
or integer) finishes its work at the rate ``1/T_j(x)``, ``T_j(x) = a_j/x + b_j + c_j x``
(:mod:`sweep.workloads.speedup`), so between two events every job's remaining
fraction ``rem_j`` falls linearly and its acquired processing time (processor-
seconds allocated, §2.1) grows by ``x·dt``. An event is an arrival, a departure
or the end of a time slice / repartitioning period; after each one the policy's
driver recomputes the allocations and calls :func:`set_rates`.

Repartitioning overhead (§4.3): when a job's positive allocation differs from
its previous positive one, the whole job stalls for ``overhead`` seconds (it
holds its processors and makes no progress); a change during a stall restarts
the stall. A job's first allocation, and being swapped out and back in to the
same size (FB slices), are not changes. Stall ends are handled inside
:func:`next_event` (they change no allocation).

State, made by :func:`new_state`, passed around as a tuple ``st``:
``rem, acq, alloc, rate, depart`` (0–4, per job, in arrival order), ``act`` (5, the
jobs in the system in arrival order), ``ist``, ``fst`` (6, 7: integer and real
scalars indexed by the ``I_*``/``F_*`` constants), ``stall, last, nrep`` (8–10:
stall end, last positive allocation, allocation changes per job), ``byacq`` (11:
the jobs in the system ordered by acquired service, kept between events), ``bat``
(12, batch sums), ``tq`` (13, Student-t quantiles), ``controls`` (14, per job the
values of the ``q`` control variates, shape ``(n, q)``) and ``control_means``
(15, their known means, :mod:`~sweep.families.malleable.controls`).

Statistics (DESIGN §6): after ``warmup`` departures, departures are cut into
batches of ``blen``; batch 0 is discarded, batches 1..k measured: per batch the
sum of response times, the area under the number in system, the processor-
seconds allocated, the duration and the sums of the departed jobs' controls.
After each batch with ``k ≥ B`` measured, the 90% CI half-width of the
response batch means is checked against ``rel·mean`` (met: stop, unless the number in system grows across the
batches, :func:`growing`: then saturated); with ``q > 0`` controls the mean and
its interval are the control-variate ones
(:func:`sweep.stats.sequential.controlled_halfwidth`). At ``2B + 2`` batches a growing number in system
(:func:`growing`: Mann–Kendall) marks the point saturated (``ist[I_SAT] = 2``)
and stops it; otherwise adjacent pairs merge (``blen`` doubles), so the trend
is tested once per doubling of the run, on ever longer batches. The run also stops after ``target``
departures, or when ``cap`` jobs are in the system (``ist[I_SAT] = 1``).

The event loops are compiled without numba's reference counting
(:data:`sweep.families._numba.NO_REFCOUNT`),
so they may neither allocate nor call a function that does: when a batch is
complete the loop pauses (``ist[I_PENDING]``), :func:`run_batches` evaluates it
(:func:`close_batch`) and resumes the loop where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from scipy import stats

from sweep.families._numba import NO_REFCOUNT
from sweep.stats.sequential import controlled_halfwidth, mann_kendall_pvalue, t_halfwidth

# ist
(I_J, I_NEXT, I_DEP, I_EVENTS, I_SAT, I_TARGET, I_WARM, I_CAP, I_NB, I_BLEN, I_BCNT, I_B,
 I_MET, I_NORD, I_PENDING) = range(15)
# fst
(F_T, F_SLICE, F_BUSY, F_START, F_TOTAL, F_MAX_TOTAL, F_MAX_OVER, F_AREA, F_OVERHEAD, F_REL,
 F_SAT_P) = range(11)
# bat columns: B_CTL + i is control i
B_RESP, B_AREA, B_BUSY, B_TIME, B_CTL = range(5)
# next_event's answers besides an arriving job's index
DONE, DEPARTURE, SLICE = -3, -2, -1


@njit(cache=True)
def new_state(controls, control_means, warmup, target, cap, blen, batches, rel, sat_p, tq, overhead):
    """Empty system at time 0 for the ``n`` pre-drawn jobs of ``controls`` (shape ``(n, q)``)."""
    n = controls.shape[0]
    ist = np.zeros(15, np.int64)
    ist[I_TARGET], ist[I_WARM], ist[I_CAP] = target, warmup, cap
    ist[I_BLEN], ist[I_B] = blen, batches
    fst = np.zeros(11)
    fst[F_SLICE], fst[F_OVERHEAD], fst[F_REL], fst[F_SAT_P] = np.inf, overhead, rel, sat_p
    return (np.ones(n), np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.nan),
            np.empty(cap + 1, np.int64), ist, fst, np.zeros(n), np.zeros(n),
            np.zeros(n, np.int64), np.empty(cap + 1, np.int64),
            np.zeros((2 * batches + 2, B_CTL + controls.shape[1])), tq, controls, control_means)


@njit(cache=True)
def growing(number, sat_p, jobs):
    """Whether batch means of the number in system grow without bound.

    Mann–Kendall ``p < sat_p`` over the batches, and the last quarter's mean
    exceeds the first quarter's by at least 0.5% of the ``jobs`` departed over
    the batches, or by at least 50 jobs and a factor 1.5. A system past
    saturation keeps a fixed fraction of its arrivals (with least-acquired-first
    shares only the largest jobs stay, a small fraction: hence the second
    form); a heavy-tailed transient in a stable system, one huge job holding
    many processors for a while, raises the number in system by a few jobs.
    """
    k = number.size
    q = max(k // 4, 1)
    if k < 8 or not mann_kendall_pvalue(number) < sat_p:
        return False
    first, last = number[:q].mean(), number[k - q:].mean()
    return last - first >= 0.005 * jobs or (last - first >= 50.0 and last >= 1.5 * first)


@njit(cache=True)
def close_batch(ist, fst, bat, tq, control_means):
    """A batch is complete: check the CI target (``I_MET``, unless the number in system grows:
    ``I_SAT = 2``); at ``2B + 2`` batches test for growth, then merge adjacent pairs (the batch
    length doubles). Clears ``I_PENDING``."""
    ist[I_PENDING] = 0
    ist[I_NB] += 1
    ist[I_BCNT] = 0
    k, blen = ist[I_NB] - 1, ist[I_BLEN]
    if k >= ist[I_B] and fst[F_REL] > 0.0:
        means = bat[1:k + 1, B_RESP] / blen
        q = control_means.size
        if q == 0:
            mean, halfwidth = means.mean(), t_halfwidth(means, tq[k])
        else:
            # each control costs a degree of freedom: t_{k-1-q} = tq[k - q]
            controls = bat[1:k + 1, B_CTL:] / blen
            mean, halfwidth = controlled_halfwidth(means, controls, control_means, tq[k - q])
        if halfwidth <= fst[F_REL] * mean:
            if growing(bat[1:k + 1, B_AREA] / bat[1:k + 1, B_TIME], fst[F_SAT_P], k * blen):
                ist[I_SAT] = 2  # a narrow interval around a mean that keeps growing
            else:
                ist[I_MET] = 1
            return
    if ist[I_NB] == bat.shape[0]:
        if growing(bat[1:k + 1, B_AREA] / bat[1:k + 1, B_TIME], fst[F_SAT_P], k * blen):
            ist[I_SAT] = 2
        half = bat.shape[0] // 2
        for i in range(half):
            bat[i] = bat[2 * i] + bat[2 * i + 1]
        bat[half:] = 0.0
        ist[I_NB] = half
        ist[I_BLEN] *= 2


@njit(cache=True, inline="always")
def next_event(arrival, st):
    """Advance to the next event and apply it; ``DONE``, ``DEPARTURE``, ``SLICE`` or the arrival.

    Ties: a stall end before a departure before an arrival before a slice end.
    """
    rem, acq, alloc, rate, depart, act, ist, fst, stall = st[0], st[1], st[2], st[3], st[4], st[5], st[6], \
        st[7], st[8]
    byacq, bat, controls, control_means = st[11], st[12], st[14], st[15]
    nostall = fst[F_OVERHEAD] == 0.0  # then no job ever stalls (set_rates): loops without the test
    while True:
        if ist[I_DEP] >= ist[I_TARGET] or ist[I_SAT] != 0 or ist[I_MET] != 0 or ist[I_PENDING] != 0:
            return DONE
        J, t = ist[I_J], fst[F_T]
        best, kb, stalled = np.inf, -1, False
        if nostall:
            for k in range(J):
                j = act[k]
                if rate[j] > 0.0:
                    d = max(rem[j], 0.0) / rate[j]
                    if d < best:
                        best, kb = d, k
        else:
            for k in range(J):
                j = act[k]
                if stall[j] > t:
                    if stall[j] - t <= best:
                        best, kb, stalled = stall[j] - t, k, True
                elif rate[j] > 0.0:
                    d = max(rem[j], 0.0) / rate[j]
                    if d < best:
                        best, kb, stalled = d, k, False
        nxt = ist[I_NEXT]
        t_arr = arrival[nxt] if nxt < arrival.size else np.inf
        t_dep = t + best
        t_new = min(t_dep, t_arr, fst[F_SLICE])
        if t_new == np.inf:
            return DONE
        dt = t_new - t
        if dt > 0.0:
            if nostall:
                for k in range(J):
                    j = act[k]
                    rem[j] -= rate[j] * dt
                    acq[j] += alloc[j] * dt
            else:
                for k in range(J):
                    j = act[k]
                    if stall[j] <= t:
                        rem[j] -= rate[j] * dt
                    acq[j] += alloc[j] * dt
            if ist[I_DEP] >= ist[I_WARM]:
                cur = ist[I_NB]
                bat[cur, B_AREA] += J * dt
                bat[cur, B_BUSY] += fst[F_TOTAL] * dt
                bat[cur, B_TIME] += dt
        fst[F_T] = t_new
        ist[I_EVENTS] += 1
        if kb >= 0 and stalled and t_dep <= t_arr and t_dep <= fst[F_SLICE]:
            stall[act[kb]] = 0.0
            continue
        if kb >= 0 and t_dep <= t_arr and t_dep <= fst[F_SLICE]:
            j = act[kb]
            depart[j], rem[j], alloc[j], rate[j] = t_new, 0.0, 0.0, 0.0
            for k in range(kb, J - 1):
                act[k] = act[k + 1]
            ist[I_J] = J - 1
            n, shift = ist[I_NORD], False
            for i in range(n):
                shift = shift or byacq[i] == j
                if shift and i + 1 < n:
                    byacq[i] = byacq[i + 1]
            ist[I_NORD] = n - 1
            if ist[I_DEP] >= ist[I_WARM]:
                bat[ist[I_NB], B_RESP] += t_new - arrival[j]
                for i in range(control_means.size):
                    bat[ist[I_NB], B_CTL + i] += controls[j, i]
                ist[I_BCNT] += 1
                if ist[I_BCNT] == ist[I_BLEN]:
                    ist[I_PENDING] = 1  # the kernel pauses before the next event: run_batches
            ist[I_DEP] += 1
            return DEPARTURE
        if t_arr <= fst[F_SLICE]:
            act[J] = nxt
            ist[I_J] = J + 1
            byacq[ist[I_NORD]] = nxt
            ist[I_NORD] += 1
            ist[I_NEXT] = nxt + 1
            if ist[I_CAP] <= J + 1:
                ist[I_SAT] = 1
            return nxt
        return SLICE


class Stop(NamedTuple):
    """The kernels' stopping rule (module docstring; built by ``simulate.stop_rule``)."""

    warmup: int
    target: int
    cap: int
    blen: int
    batches: int = 20
    rel: float = 0.0
    sat_p: float = 1e-3
    controls: np.ndarray | None = None  # per job (n, q): the control variates; None: none
    control_means: np.ndarray | None = None  # (q,): their known means


def state(jobs: int, stop: Stop, overhead: float = 0.0) -> tuple:
    """A fresh :func:`new_state` for ``jobs`` jobs; the 90% t quantiles for 1..2B+1 batches."""
    k = np.arange(2 * stop.batches + 2)
    tq = np.where(k >= 2, stats.t.ppf(0.95, np.maximum(k - 1, 1)), np.nan)
    controls = np.empty((jobs, 0)) if stop.controls is None else np.ascontiguousarray(stop.controls)
    means = np.empty(0) if stop.control_means is None else np.asarray(stop.control_means, np.float64)
    if controls.shape != (jobs, means.size):
        raise ValueError(f"stop.controls must have shape ({jobs}, {means.size}), got {controls.shape}")
    return new_state(controls, means, stop.warmup, stop.target, stop.cap, stop.blen, stop.batches,
                     float(stop.rel), float(stop.sat_p), tq, float(overhead))


def run_batches(loop: Callable[..., tuple], *args: Any) -> tuple:
    """Run the event loop ``loop(*args)`` (its last argument the state ``st``) to its end.

    Each time the loop pauses on a complete batch, the batch is evaluated in
    compiled code with reference counting (:func:`close_batch`) and the loop resumes.
    """
    st = args[-1]
    ist, fst, bat, tq, control_means = st[6], st[7], st[12], st[13], st[15]
    loop(*args)
    while ist[I_PENDING]:
        close_batch(ist, fst, bat, tq, control_means)
        loop(*args)
    return st


@njit(cache=True, inline="always")
def set_rates(a, b, c, ncap, st):
    """Rates ``x/(a + b x + c x²)`` from the allocations; charge repartitionings; safety maxima."""
    alloc, rate, act, ist, fst, stall, last, nrep = st[2], st[3], st[5], st[6], st[7], st[8], st[9], st[10]
    t, overhead, total, over = fst[F_T], fst[F_OVERHEAD], 0.0, fst[F_MAX_OVER]
    for k in range(ist[I_J]):
        j = act[k]
        x = alloc[j]
        if x > 0.0:
            if x != last[j]:
                if last[j] > 0.0:
                    nrep[j] += 1
                    if overhead > 0.0:
                        stall[j] = t + overhead
                last[j] = x
                rate[j] = x / (a[j] + x * (b[j] + c[j] * x))
            elif rate[j] == 0.0:  # back on its last allocation after none (FB swap-in)
                rate[j] = x / (a[j] + x * (b[j] + c[j] * x))
        else:
            rate[j] = 0.0
        total += x
        over = max(over, x - ncap[j])
    fst[F_MAX_OVER] = over
    fst[F_TOTAL] = total
    fst[F_MAX_TOTAL] = max(fst[F_MAX_TOTAL], total)


@njit(cache=True, inline="always")
def by_acquired(st):
    """``byacq[:n]``: the jobs in the system by (acquired service, arrival); returns ``n``.

    :func:`next_event` keeps ``byacq`` holding the jobs in the system (arrivals
    appended, departures removed); this insertion sort restores the order in
    ``O(J + inversions)`` (acquired service changes little between events).
    """
    acq, ist, byacq = st[1], st[6], st[11]
    n = ist[I_NORD]
    for i in range(1, n):
        j = byacq[i]
        key = acq[j]
        m = i - 1
        while m >= 0 and (acq[byacq[m]] > key or (acq[byacq[m]] == key and byacq[m] > j)):
            byacq[m + 1] = byacq[m]
            m -= 1
        byacq[m + 1] = j
    return n


@njit(cache=True, inline="always")
def equipartition(avail, caps, fractional, give, ks, flag, st):
    """Share ``avail`` processors equally among the jobs in the system, each at most ``caps[j]`` (§2.2).

    Jobs whose cap is below the equal share get their cap and the share is
    recomputed for the rest (water-filling). With integer shares the rest get
    ``floor(R/m)`` and the ``R mod m`` of them with the least acquired service
    one more. Writes ``give[j]``; returns the processors given. ``ks`` (length
    ``J`` or more) and ``flag`` (per job, zero) are scratch.
    """
    act, J = st[5], st[6][I_J]
    left, m = avail, 0
    for k in range(J):
        j = act[k]
        give[j] = 0.0
        if caps[j] > 0.0:
            ks[m] = j
            m += 1
    while m > 0:
        changed, low = False, np.inf  # low: the least cap of the jobs kept in this pass
        i = 0
        while i < m:
            j = ks[i]
            if caps[j] * m <= left:
                give[j] = caps[j]
                left -= caps[j]
                m -= 1
                ks[i] = ks[m]
                changed = True
            else:
                low = min(low, caps[j])
                i += 1
        if not changed or low * m > left:  # another pass would cap nobody
            break
    if m == 0:
        return avail - left
    if fractional:
        for i in range(m):
            give[ks[i]] = left / m
        return avail
    base = np.floor(left / m)
    extra = int(left - base * m)
    for i in range(m):
        give[ks[i]] = base
        flag[ks[i]] = 1
    if extra > 0:
        byacq = st[11]
        for i in range(by_acquired(st)):
            j = byacq[i]
            if flag[j]:
                give[j] += 1.0
                extra -= 1
                if extra == 0:
                    break
    for i in range(m):
        flag[ks[i]] = 0
    return avail


@njit(cache=True, inline="always")
def two_phase(processors, first, second, fractional, give, more, ks, flag, st, phase2=True):
    """Equipartition with caps ``first``, then what is left with caps ``second`` on top (§4.2).

    ``phase2 = False`` says every ``second`` cap is zero (EQS): phase two would add nothing.
    """
    act, J = st[5], st[6][I_J]
    used = equipartition(processors, first, fractional, give, ks, flag, st)
    if phase2 and used < processors:
        equipartition(processors - used, second, fractional, more, ks, flag, st)
        for k in range(J):
            give[act[k]] += more[act[k]]


@njit(cache=True, inline="always")
def between_periods(processors, newcomer, target, st):
    """Allocation changes between two full repartitionings (§4.3, Figure 11; MODEL_NOTES §1).

    ``target`` holds the equipartition values the full repartitioning would give
    now. An arriving job (``newcomer ≥ 0``) gets its value: first from idle
    processors, then "judiciously stolen" from as few running jobs as possible
    — those holding more than their equipartition value first, then the
    others, each group most acquired service first, every donor keeping at
    least one processor (so one donor usually gives all; it may drop below its
    value until the next full repartitioning). Then, after an arrival or a
    departure, idle processors go to the jobs holding less than their
    equipartition value, least acquired service first, up to that value; any
    rest stays idle until the next period (the paper does not say what
    happens to processors freed between two repartitionings: a choice).
    """
    alloc, act, byacq = st[2], st[5], st[11]
    J = st[6][I_J]
    free = processors
    for k in range(J):
        free -= alloc[act[k]]
    n = by_acquired(st)
    if newcomer >= 0:
        take = min(free, target[newcomer])
        alloc[newcomer], free = take, free - take
        need = target[newcomer] - take
        for above in (True, False):
            for i in range(n - 1, -1, -1):
                j = byacq[i]
                if need <= 0.0:
                    break
                if j != newcomer and alloc[j] > 1.0 and (alloc[j] > target[j]) == above:
                    take = min(alloc[j] - 1.0, need)
                    alloc[j] -= take
                    alloc[newcomer] += take
                    need -= take
    for i in range(n):
        if free <= 0.0:
            break
        j = byacq[i]
        if alloc[j] < target[j]:
            take = min(target[j] - alloc[j], free)
            alloc[j] += take
            free -= take


def scratch(jobs: int, stop: Stop) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays for :func:`run_equipartition`: two per-job reals, per-job flags, job indices.

    Allocated here, not in the kernel: the kernels are compiled without numba's
    reference counting (:data:`sweep.families._numba.NO_REFCOUNT`), so they may not allocate.
    """
    return np.zeros(jobs), np.zeros(jobs), np.zeros(jobs, np.int8), np.empty(stop.cap + 1, np.int64)


@njit(cache=True, **NO_REFCOUNT)
def run_equipartition(arrival, a, b, c, ncap, first, second, phase2, processors, fractional, period,
                      work, st):
    """The EQS family's loop: two-phase equipartition (:func:`two_phase`) after every event.

    EQS has ``second = 0`` (``phase2`` False); EQS-PWS and EQS-AVG cap phase one below ``N_j``.
    With ``period > 0`` the full repartitioning happens only at multiples of
    ``period`` seconds, and :func:`between_periods` serves arrivals and
    departures in between (§4.3, Figure 11). ``work``: :func:`scratch`. Returns ``st``.
    """
    alloc, ist, fst = st[2], st[6], st[7]
    more, target, flag, ks = work
    if period > 0.0 and ist[I_EVENTS] == 0:  # a first call, not a resumed one (run_batches)
        fst[F_SLICE] = period
    event = next_event(arrival, st)
    while event != DONE:
        if period <= 0.0 or event == SLICE:
            two_phase(processors, first, second, fractional, alloc, more, ks, flag, st, phase2)
            if event == SLICE:
                fst[F_SLICE] += period
        else:
            two_phase(processors, first, second, fractional, target, more, ks, flag, st, phase2)
            between_periods(processors, event, target, st)
        set_rates(a, b, c, ncap, st)
        event = next_event(arrival, st)
    return st


@njit(cache=True, inline="always")
def fb_reschedule(processors, quantum, size, a, b, c, ncap, st):
    """One FB time slice (§2.1) after any FB event: jobs by least acquired service, each on its size.

    Jobs that do not fit are skipped while later ones fit; the highest-priority
    skipped job then runs on the processors left, so only that one job may run
    on fewer processors than its configuration. The slice lasts ``quantum``
    seconds, unless every job fits: then nothing changes until the next
    arrival or departure, and no slice end is scheduled.
    """
    alloc, fst, byacq = st[2], st[7], st[11]
    free, first = processors, -1
    for i in range(by_acquired(st)):
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
    set_rates(a, b, c, ncap, st)
    fst[F_SLICE] = fst[F_T] + quantum if first >= 0 else np.inf
