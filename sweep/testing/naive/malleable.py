"""Slow, obvious references for the malleable policies (CV96 §2).

Plain Python lists and dicts; allocations recomputed from scratch at every
event by sorting: water-filling over the caps in increasing order (EQS), jobs
in order of (acquired service, arrival) for rounding and FB slices. Nothing
shared with ``sweep.families.malleable``; the kernels must match these job for job.

What a policy does differently is a *rule*: an :class:`Equipartition` (phase one's cap) or
:class:`TimeSlices` (an arriving job's size), registered by name in :data:`RULES`; a policy
names its rule in ``MalleableHooks.naive`` (several may share one: EQS-AVG is EQS-PWS's rule
with its own phase one), or registers a rule under its own name with
:func:`sweep.testing.naive.reference` (a plugin's, in its module: docs/plugins.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from sweep.testing.naive._registry import References

__all__ = ["RULES", "Equipartition", "TimeSlices", "declared", "simulate"]

#: The rules by name (module docstring; a policy names one: ``MalleableHooks.naive``).
RULES = References("malleable rule", "register an Equipartition or TimeSlices under that name in "
                                     "sweep.testing.naive.malleable.RULES (sweep's own), or one under the "
                                     "policy's name with @sweep.testing.naive.reference (a plugin's; "
                                     "docs/plugins.md)")


class Equipartition(NamedTuple):
    """Two-phase equipartition (CV96 §4.2), phase one capped at ``first(j, pws, ncap)``."""

    first: Callable[[int, list, list], float]


class TimeSlices(NamedTuple):
    """FB time slices (CV96 §2.1), an arriving job configured for ``size(j, present, size, pws, ncap, P)``."""

    size: Callable[[int, list, list, list, list, int], float]


RULES.register("eqs")(Equipartition(lambda j, pws, ncap: float(ncap[j])))
RULES.register("eqs_pws")(Equipartition(lambda j, pws, ncap: float(min(pws[j], ncap[j]))))


def _working_set_share(j, present, size, pws, ncap, processors):
    """``min(N_j, w/(S + w)·P)``, ``w = min(pws_j, P)``, ``S`` the other jobs' sizes, rounded, ≥ 1."""
    others = sum(size[k] for k in present if k != j)
    w = min(pws[j], processors)
    return min(ncap[j], max(1.0, math.floor(w / (others + w) * processors + 0.5)))


def _equal_share(j, present, size, pws, ncap, processors):
    """``min(N_j, P/J)``, ``J`` the jobs present, rounded, ≥ 1."""
    return min(ncap[j], max(1.0, math.floor(processors / len(present) + 0.5)))


RULES.register("fb_pws")(TimeSlices(_working_set_share))
RULES.register("fb_asp")(TimeSlices(_equal_share))


def _waterfill(avail, caps, present, acq, integer):
    give = {j: 0.0 for j in present}
    remaining = sorted((j for j in present if caps[j] > 0), key=lambda j: caps[j])
    left = avail
    while remaining and caps[remaining[0]] <= left / len(remaining):
        j = remaining.pop(0)
        give[j] = caps[j]
        left -= caps[j]
    if remaining:
        if not integer:
            for j in remaining:
                give[j] = left / len(remaining)
        else:
            base = math.floor(left / len(remaining))
            extra = round(left - base * len(remaining))
            for rank, j in enumerate(sorted(remaining, key=lambda j: (acq[j], j))):
                give[j] = base + (1 if rank < extra else 0)
    return give


def _fb(processors, size, present, acq):
    alloc, free, skipped = {}, processors, []
    for j in sorted(present, key=lambda j: (acq[j], j)):
        if size[j] <= free:
            alloc[j] = size[j]
            free -= size[j]
        else:
            alloc[j] = 0.0
            skipped.append(j)
    if skipped and free > 0:
        alloc[skipped[0]] = free
    return alloc


def _fill_idle(processors, size, present, acq, alloc):
    """FB between slice boundaries: running jobs keep theirs, waiting ones take idle processors."""
    alloc = {j: alloc.get(j, 0.0) for j in present}
    free = processors - sum(alloc.values())
    reduced = any(0 < alloc[j] < size[j] for j in present)
    skipped = []
    for j in sorted(present, key=lambda j: (acq[j], j)):
        if alloc[j] == 0:
            if size[j] <= free:
                alloc[j] = size[j]
                free -= size[j]
            else:
                skipped.append(j)
    if skipped and free > 0 and not reduced:
        alloc[skipped[0]] = free
    return alloc


def _between(processors, newcomer, target, alloc, present, acq):
    """Periodic EQS between quanta: the newcomer steals, then idle processors fill (CV96 §4.3)."""
    free = processors - sum(alloc.get(j, 0.0) for j in present)
    order = sorted(present, key=lambda j: (acq[j], j))
    if newcomer is not None:
        alloc[newcomer] = min(free, target[newcomer])
        free -= alloc[newcomer]
        need = target[newcomer] - alloc[newcomer]
        donors = [j for j in reversed(order) if j != newcomer and alloc.get(j, 0.0) > target[j]]
        donors += [j for j in reversed(order) if j != newcomer and alloc.get(j, 0.0) <= target[j]]
        for j in donors:
            if need <= 0:
                break
            take = min(max(alloc.get(j, 0.0) - 1.0, 0.0), need)
            alloc[j] = alloc.get(j, 0.0) - take
            alloc[newcomer] += take
            need -= take
    for j in order:
        if free <= 0:
            break
        if alloc.get(j, 0.0) < target[j]:
            take = min(target[j] - alloc.get(j, 0.0), free)
            alloc[j] = alloc.get(j, 0.0) + take
            free -= take
    return alloc


def declared(policy: Any) -> Equipartition | TimeSlices | None:
    """A malleable policy's rule where none is registered under its name: the one its hooks name
    (``MalleableHooks.naive``), ``None`` if they name none."""
    return None if policy.hooks.naive is None else RULES[policy.hooks.naive]


def simulate(arrival, a, b, c, ncap, pws, processors, policy, target, fractional=False,
             quantum=10.0, repartition_overhead=0.0, repartition_period=0.0, reschedule="slice_boundary"):
    """Departure times (NaN for jobs not departed) after ``target`` departures.

    ``policy``: a rule (:class:`Equipartition` or :class:`TimeSlices`) or its name in :data:`RULES`.

    FB policies: ``reschedule="every_event"`` makes a new slice at every event;
    ``"slice_boundary"`` makes the slice schedule at every multiple of ``quantum`` while
    jobs are present (also those where nothing changes) and fills idle processors at
    arrivals and departures in between.

    ``repartition_overhead``: a job whose positive allocation differs from its previous
    positive one makes no progress for that long. ``repartition_period`` (EQS, EQS-PWS): full
    repartitioning only at its multiples, :func:`_between` in between.
    """
    rule = RULES[policy] if isinstance(policy, str) else policy  # LookupError: where to add one
    n = len(arrival)
    rem, acq, size = [1.0] * n, [0.0] * n, [0.0] * n
    alloc, last, stall = {}, {}, {}
    depart = [math.nan] * n
    present, t, nxt, done, slice_end = [], 0.0, 0, 0, math.inf
    if repartition_period > 0:
        slice_end = repartition_period

    def rate(j):
        x = alloc.get(j, 0.0)
        if stall.get(j, -math.inf) > t:
            return 0.0
        return x / (a[j] + b[j] * x + c[j] * x * x) if x > 0 else 0.0

    while done < target:
        stalls = [stall[j] for j in present if stall.get(j, -math.inf) > t]
        t_stall = min(stalls, default=math.inf)
        finishing = [(t + max(rem[j], 0.0) / rate(j), pos) for pos, j in enumerate(present)
                     if rate(j) > 0]
        t_dep, pos = min(finishing, default=(math.inf, -1))
        t_arr = arrival[nxt] if nxt < n else math.inf
        t_new = min(t_stall, t_dep, t_arr, slice_end)
        for j in present:
            rem[j] -= rate(j) * (t_new - t)
            acq[j] += alloc.get(j, 0.0) * (t_new - t)
        t = t_new
        if t_stall <= t_new:
            continue  # a stall ends: nothing is reallocated
        newcomer, boundary = None, False
        if pos >= 0 and t_dep <= t_arr and t_dep <= slice_end:
            j = present.pop(pos)
            depart[j] = t
            alloc.pop(j, None)
            done += 1
        elif t_arr <= slice_end:
            j = nxt
            nxt += 1
            present.append(j)
            newcomer = j
            if isinstance(rule, TimeSlices):
                size[j] = rule.size(j, present, size, pws, ncap, processors)
        else:
            boundary = True
        caps = {j: float(ncap[j]) for j in present}
        if isinstance(rule, Equipartition):
            first = {j: rule.first(j, pws, ncap) for j in present}
            want = _waterfill(processors, first, present, acq, not fractional)
            left = processors - sum(want.values())
            if left > 0:
                second = {j: caps[j] - first[j] for j in present}
                more = _waterfill(left, second, present, acq, not fractional)
                want = {j: want[j] + more[j] for j in present}
            if repartition_period <= 0 or boundary:
                new = want
                if boundary:
                    slice_end += repartition_period
            else:
                new = _between(processors, newcomer, want, {j: alloc.get(j, 0.0) for j in present},
                               present, acq)
        elif reschedule == "every_event":
            new = _fb(processors, size, present, acq)
            slice_end = t + quantum if present else math.inf
        else:
            if boundary:
                new = _fb(processors, size, present, acq)
            else:
                new = _fill_idle(processors, size, present, acq, alloc)
            if present and (boundary or slice_end == math.inf):
                slice_end = math.ceil(t / quantum) * quantum  # the next tick; after this one
                while slice_end < t or (boundary and slice_end <= t):
                    slice_end += quantum
            elif not present:
                slice_end = math.inf
        for j in present:
            x = new.get(j, 0.0)
            if x > 0 and last.get(j, 0.0) > 0 and x != last[j] and repartition_overhead > 0:
                stall[j] = t + repartition_overhead
            if x > 0:
                last[j] = x
        alloc = new
    return depart
