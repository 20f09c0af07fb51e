"""The allocate hook of the equipartition policies (CV96 §2.2, §4.2, §4.3) and their kernel.

:func:`share` is EQS's allocation in the two-phase form of EQS-PWS (§4.2):
equipartition with each job capped at its phase-one cap, then what is left
with the rest of its cap on top (:func:`two_phase`). EQS caps phase one at
``N_j`` (nothing is left for phase two), EQS-PWS at ``min(pws_j, N_j)``,
EQS-AVG at ``min(avg_j, N_j)``: the policies differ only in their phase-one
caps (``Columns.first``), so they share :func:`kernel`. With a
``repartition_period`` the full repartitioning happens only at its multiples
and :func:`between_periods` serves arrivals and departures in between (§4.3,
Figure 11). No job is configured on arrival (:func:`~._core.unconfigured`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.malleable._core import SLICE, by_acquired, run_events, unconfigured


class ShareWork(NamedTuple):
    """Work arrays of :func:`share`, allocated by the caller (the loop may not allocate)."""

    more: np.ndarray    # per slot: phase two's shares
    target: np.ndarray  # per slot: the full repartitioning's values (periodic repartitioning)
    flag: np.ndarray    # per slot (int8, zero between calls): among the uncapped jobs
    uncapped: np.ndarray  # the jobs not capped yet (int64, cap + 1)


def workspace(slots: int, cap: int) -> ShareWork:
    """:class:`ShareWork` for ``slots`` job slots, at most ``cap`` jobs in the system."""
    return ShareWork(np.zeros(slots), np.zeros(slots), np.zeros(slots, np.int8), np.empty(cap + 1, np.int64))


@jit(inline="always")
def equipartition(avail, caps, fractional, give, work, state, sc):
    """Share ``avail`` processors equally among the jobs in the system, each at most ``caps[j]`` (§2.2).

    Jobs whose cap is below the equal share get their cap and the share is
    recomputed for the rest (water-filling). With integer shares the rest get
    ``floor(R/m)`` and the ``R mod m`` of them with the least acquired service
    one more. Writes ``give[j]``; returns the processors given.
    """
    act, J = state.active, sc.in_system
    ks, flag = work.uncapped, work.flag
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
        byacq = state.by_acquired
        for i in range(by_acquired(state, sc)):
            j = byacq[i]
            if flag[j]:
                give[j] += 1.0
                extra -= 1
                if extra == 0:
                    break
    for i in range(m):
        flag[ks[i]] = 0
    return avail


@jit(inline="always")
def two_phase(options, columns, give, work, state, sc):
    """Equipartition with the phase-one caps, then what is left with the phase-two caps on top (§4.2).

    ``options.phase2`` False says every phase-two cap is zero (EQS): phase two would add nothing.
    """
    processors = options.processors
    used = equipartition(processors, columns.first, options.fractional, give, work, state, sc)
    if options.phase2 and used < processors:
        more, act = work.more, state.active
        equipartition(processors - used, columns.second, options.fractional, more, work, state, sc)
        for k in range(sc.in_system):
            give[act[k]] += more[act[k]]


@jit(inline="always")
def between_periods(processors, newcomer, target, state, sc):
    """Allocation changes between two full repartitionings (§4.3, Figure 11; a reconstruction).

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
    alloc, act, byacq = state.allocation, state.active, state.by_acquired
    free = processors
    for k in range(sc.in_system):
        free -= alloc[act[k]]
    n = by_acquired(state, sc)
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


@jit(inline="always")
def share(event, options, columns, state, sc, work):
    """The allocate hook: two-phase equipartition after every event, or once per period (§4.3).

    With ``options.repartition_period > 0`` the full repartitioning happens at each period's
    end (``SLICE``, which also schedules the next one); arrivals and departures
    in between move processors toward its values (:func:`between_periods`).
    """
    if options.repartition_period <= 0.0 or event == SLICE:
        two_phase(options, columns, state.allocation, work, state, sc)
        if event == SLICE:
            sc.slice_end += options.repartition_period
    else:
        two_phase(options, columns, work.target, work, state, sc)
        between_periods(options.processors, event, work.target, state, sc)


@jit(**NO_REFCOUNT)
def kernel(arrivals, columns, options, state, batches, log, scalars, work):
    """The equipartition policies' loop: no configuration, :func:`share` (``_core.run_events``)."""
    run_events(arrivals, columns, options, state, batches, log, scalars, work, unconfigured, share)
