"""A slow, obvious reference for the gang family (CSSE00 §3.3; docs/ipg00-gang.md).

Plain Python objects, one tick at a time, in three phases per tick: wake the
tasks whose I/O ends or whose barrier opens now, let every PE decide what it
runs, then run what was decided and collect what happens (blocks, barrier
arrivals, completions). Barrier releases and I/O completions are explicit
lists of wake-up ticks, not the kernel's generation counters and lazy state
checks; nothing is imported from ``sweep.families.gang``. The pool of random
numbers (rows of ``U`` and ``−log(1 − U)``) is read with a copy of the
documented hash.

What a policy does is its local scheduler, registered under its name with
:func:`sweep.testing.naive.reference`: ``local(matrix, cur, p, rr, par)`` -> the task
PE ``p`` runs when its own slot's task cannot run (``None``: it idles); it may move
``rr[p]``. A plugin's gang policy registers its own in its module (docs/plugins.md).
"""

from __future__ import annotations

import math

from sweep.testing.naive import REFERENCES, reference

__all__ = ["simulate"]

M64 = (1 << 64) - 1
COMPUTE, IO, SYNC = 0, 1, 2


def _mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _row(pool, task, count):
    key = (task * 0x9E3779B97F4A7C15 + count) & M64
    return pool[_mix(key) & (len(pool) - 1)]


def _length(pool, task, count, mean, deterministic):
    if deterministic:
        return max(1, round(mean))
    return max(1, math.ceil(float(_row(pool, task, count)[1]) * mean))


def _phase(pool, task, count, mean, imbalance, deterministic):
    if deterministic:
        return max(1, round(mean))
    u = float(_row(pool, task, count)[0])
    return max(1, round(mean * (1.0 + imbalance * (2.0 * u - 1.0))))


class Task:
    def __init__(self, ident, job, work, cls, pool, par):
        self.id, self.job, self.left, self.cls = ident, job, work, cls
        self.state = "ready"
        self.draws = 1
        self.lam_io, self.lam_comp, self.util = 0.0, 1.0, 1.0
        if cls == IO:
            self.seg = _length(pool, ident, 0, par["burst"], par["det"])
        elif cls == SYNC:
            self.seg = _phase(pool, ident, 0, par["phase"], par["imbalance"], par["det"])
        else:
            self.seg = work + 1


def _pack(active, P, best_fit):
    """Rows of task objects (None: empty), the jobs in arrival order, first or best fit."""
    rows = []
    for job in active:
        fitting = [r for r, row in enumerate(rows) if row.count(None) >= len(job["tasks"])]
        if not fitting:
            rows.append([None] * P)
            r = len(rows) - 1
        elif best_fit:
            r = min(fitting, key=lambda q: (rows[q].count(None), q))
        else:
            r = fitting[0]
        free = [p for p in range(P) if rows[r][p] is None]
        for p, task in zip(free, job["tasks"], strict=False):
            rows[r][p] = task
    return rows


def _priority(task, par):
    if par["ispan"]:
        return 1.0 if task.util < 0.5 else None
    pr = max(par["alpha"] * task.lam_io, task.lam_comp)
    return pr if pr > par["beta"] else None


@reference("gang")
def _no_local(matrix, cur, p, rr, par):
    """Gang: the slot idles."""
    return None


@reference("concurrent_gang")
def _highest_priority(matrix, cur, p, rr, par):
    """Concurrent Gang: the ready task of the column with the highest priority, the first
    from ``rr[p]`` among equals; ``rr[p]`` moves past it."""
    rows = len(matrix)
    start = rr[p] if rr[p] < rows else 0
    candidates = []
    for r in [(start + i) % rows for i in range(rows)]:
        x = matrix[r][p]
        if r != cur and x is not None and x.state == "ready":
            pr = _priority(x, par)
            if pr is not None:
                candidates.append((pr, r, x))
    if not candidates:
        return None
    top = max(c[0] for c in candidates)
    _, r, x = next(c for c in candidates if c[0] == top)
    rr[p] = (r + 1) % rows
    return x


def simulate(policy, arrival, width, work, cls, P, K, slices, par, pool):
    """Trace (per tick, per PE: task id or -1), job starts and ends (ticks), the counts.

    Counts: idle, empty-slot and busy PE-ticks, PE-ticks in periods and idle
    ones among them, slots in which the PE ran nothing, tasks in the matrix
    summed over slices.

    ``policy``: ``gang`` or ``concurrent_gang``. ``par``: ``alpha``, ``beta``,
    ``gamma``, ``burst``, ``wait``, ``phase`` (ticks), ``imbalance``, ``det``,
    ``best_fit``, ``ispan``.
    """
    local = REFERENCES[policy]
    jobs, tasks = [], []
    for j in range(len(arrival)):
        job = {"arrival": arrival[j], "tasks": [], "start": -1, "end": -1, "barrier": []}
        for _ in range(width[j]):
            task = Task(len(tasks), j, work[j], cls[j], pool, par)
            tasks.append(task)
            job["tasks"].append(task)
        jobs.append(job)
    wake = {}  # tick -> tasks that become ready then
    matrix, cur, changed, seen = [], 0, False, 0
    rr = [0] * P
    trace, idle, empty, busy, held, held_idle = [], 0, 0, 0, 0, 0
    idle_slots, task_slices = 0, 0
    for s in range(slices):
        if cur == 0:
            while seen < len(jobs) and jobs[seen]["arrival"] <= s * K:
                seen += 1
                changed = True
            if changed:
                active = [job for job in jobs[:seen] if job["end"] < 0]
                matrix = _pack(active, P, par["best_fit"])
                changed = False
        row = matrix[cur] if matrix else [None] * P
        idle_before = idle
        picked = [None] * P
        observed = [[0, 0, 0] for _ in range(P)]
        for k in range(K):
            t = s * K + k
            for task in wake.pop(t, []):
                task.state = "ready"
            choice = []
            for p in range(P):
                own = row[p]
                if own is None:
                    empty += 1
                elif own.state == "ready":
                    observed[p][0] += 1
                    choice.append(own)
                    continue
                elif own.state == "io":
                    observed[p][1] += 1
                elif own.state == "barrier":
                    observed[p][2] += 1
                if picked[p] is not None and picked[p].state == "ready":
                    choice.append(picked[p])
                    continue
                picked[p] = None
                if matrix:
                    picked[p] = local(matrix, cur, p, rr, par)
                choice.append(picked[p])
            trace.append([-1 if x is None else x.id for x in choice])
            for x in choice:
                if x is None:
                    idle += 1
                    continue
                busy += 1
                job = jobs[x.job]
                if job["start"] < 0:
                    job["start"] = t
                x.left -= 1
                x.seg -= 1
                alive = [y for y in job["tasks"] if y.state != "done"]
                if x.left == 0:
                    x.state = "done"
                    alive.remove(x)
                    if not alive:
                        job["end"] = t + 1
                        changed = True
                elif x.seg == 0 and x.cls == IO:
                    x.state = "io"
                    wait = _length(pool, x.id, x.draws, par["wait"], par["det"])
                    x.seg = _length(pool, x.id, x.draws + 1, par["burst"], par["det"])
                    x.draws += 2
                    wake.setdefault(t + 1 + wait, []).append(x)
                elif x.seg == 0 and x.cls == SYNC:
                    x.state = "barrier"
                    job["barrier"].append(x)
                if job["barrier"] and len(job["barrier"]) == len(alive):
                    for y in job["barrier"]:
                        y.seg = _phase(pool, y.id, y.draws, par["phase"], par["imbalance"], par["det"])
                        y.draws += 1
                        wake.setdefault(t + 1, []).append(y)
                    job["barrier"] = []
        if matrix:
            held += P * K
            held_idle += idle - idle_before
        ran = trace[-K:]
        idle_slots += sum(all(tick[p] < 0 for tick in ran) for p in range(P))
        task_slices += sum(x is not None for slots in matrix for x in slots)
        for p in range(P):
            own = row[p]
            run, io, sync = observed[p]
            if own is not None and run + io + sync > 0:
                g = par["gamma"]
                own.lam_io = (1 - g) * own.lam_io + g * io / (run + io + sync)
                own.lam_comp = (1 - g) * own.lam_comp + g * run / (run + io + sync)
                own.util += (run / K - own.util) / 5
        cur = cur + 1 if cur + 1 < len(matrix) else 0
    return {"trace": trace, "start": [j["start"] for j in jobs], "end": [j["end"] for j in jobs],
            "idle": idle, "empty": empty, "busy": busy, "held": held, "held_idle": held_idle,
            "idle_slots": idle_slots, "task_slices": task_slices}
