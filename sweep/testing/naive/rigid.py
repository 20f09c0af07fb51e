"""Slow, obvious references for the rigid passes FCFS, EASY and conservative.

Plain Python lists and brute-force availability: the free processors at an
instant are recomputed from every running job and every reservation each time
they are needed. No sorting tricks, no incremental profile, nothing shared with
``sweep.families.rigid``: these exist to be read and trusted, and the kernels
must match them job for job. A policy names the pass it must match and gives
its order key in pure Python (``RigidHooks.reference``); the FCFS and EASY
passes sort their queue by that key, ties by submit order, before every pass.
"""

from __future__ import annotations

import math

#: The passes these references implement; a policy names one (``RigidHooks.reference``).
PASSES = ("fcfs", "easy", "conservative")


def _free_at(x, P, intervals):
    """Processors free at instant ``x`` given ``(start, end, n)`` holdings."""
    return P - sum(n for s, e, n in intervals if s <= x < e)


def _fits(s, d, n, P, intervals):
    """Whether ``n`` processors are free throughout ``[s, s + d)``."""
    points = [s] + [b for a, b, _ in intervals if s < b < s + d]
    points += [a for a, b, _ in intervals if s < a < s + d]
    return all(_free_at(x, P, intervals) >= n for x in points)


def _earliest(t, d, n, P, intervals):
    """Earliest ``s >= t`` from which ``n`` processors stay free for ``d``."""
    for s in sorted({t} | {e for _, e, _ in intervals if e > t}):
        if _fits(s, d, n, P, intervals):
            return s
    raise AssertionError("no feasible start")


def simulate(policy, submit, run, req, procs, P, key=None, priority=None):
    """Start times (list) of every job under the pass ``policy`` in fcfs/easy/conservative.

    ``key(t, j, submit, req, procs, priority)`` orders the FCFS and EASY queue
    at each pass, lowest first, ties by submit order (``None``: submit order);
    ``priority`` defaults to 0 for every job. Returns ``(start, booked)``;
    ``booked`` is the conservative reservation made at each job's arrival
    (``None`` for the other passes).
    """
    if policy not in PASSES:
        raise LookupError(f"no naive rigid pass {policy!r} in sweep/testing/naive/rigid.py; "
                          f"known: {', '.join(PASSES)}")
    if priority is None:
        priority = [0.0] * len(submit)
    n = len(submit)
    start = [None] * n
    booked = [None] * n
    resv = {}
    running, queue = [], []
    nxt = 0
    while nxt < n or running or queue:
        times = [submit[nxt]] if nxt < n else []
        times += [start[j] + run[j] for j in running]
        times += list(resv.values())
        t = min(times)
        finished = [j for j in running if start[j] + run[j] == t]
        running = [j for j in running if j not in finished]
        arrived = []
        while nxt < n and submit[nxt] == t:
            arrived.append(nxt)
            nxt += 1
        queue += arrived
        holding = [(start[j], start[j] + req[j], procs[j]) for j in running]
        if policy == "conservative":
            if finished:
                for j in queue:
                    if j in resv:
                        others = [(resv[k], resv[k] + req[k], procs[k]) for k in resv if k != j]
                        resv[j] = _earliest(t, req[j], procs[j], P, holding + others)
            for j in arrived:
                others = [(resv[k], resv[k] + req[k], procs[k]) for k in resv]
                resv[j] = booked[j] = _earliest(t, req[j], procs[j], P, holding + others)
            for j in [k for k in queue if resv[k] == t]:
                start[j] = t
                running.append(j)
                queue.remove(j)
                del resv[j]
            continue
        if key is not None:
            queue.sort(key=lambda j: (key(t, j, submit, req, procs, priority), j))
        free_now = P - sum(procs[j] for j in running)
        while queue and procs[queue[0]] <= free_now:
            j = queue.pop(0)
            start[j] = t
            running.append(j)
            free_now -= procs[j]
        if policy == "fcfs" or not queue:
            continue
        head = queue[0]
        holding = [(start[j], start[j] + req[j], procs[j]) for j in running]
        shadow = min(s for s in {t} | {e for _, e, _ in holding}
                     if _free_at(s, P, holding) >= procs[head] and s >= t)
        extra = _free_at(shadow, P, holding) - procs[head]
        for j in list(queue[1:]):
            if procs[j] > free_now:
                continue
            if t + req[j] <= shadow or procs[j] <= extra:
                if t + req[j] > shadow:
                    extra -= procs[j]
                start[j] = t
                running.append(j)
                queue.remove(j)
                free_now -= procs[j]
    assert all(s is not None and not math.isnan(s) for s in start)
    return start, booked
