"""A slow, obvious reference of the salad family's loop without a balancer.

Plain Python lists, written from ``sweep/families/salad/_loop.py``'s module
docstring: each PE's queue is a list in the order tasks joined it, the gang
matrix a list of rows, a slice visits the PEs in order. Nothing is shared with
the kernel; it must match it slice for slice (every job's end).
"""

from __future__ import annotations

import math


def simulate(jobs, bw, pes, local):
    """Each job's end. ``jobs``: dicts with ``released`` (slice), per task ``place``, ``rank``, ``life``,
    and ``edges`` ``(src, dst, data)`` in the job's own task numbers; ``bw[p][q]`` the route bandwidth."""
    tasks = []  # (job, own number)
    for j, job in enumerate(jobs):
        tasks += [(j, i) for i in range(len(job["life"]))]
    index = {key: k for k, key in enumerate(tasks)}
    place = [jobs[j]["place"][i] for j, i in tasks]
    rank = [jobs[j]["rank"][i] for j, i in tasks]
    left = [jobs[j]["life"][i] for j, i in tasks]
    succ = {k: [] for k in range(len(tasks))}
    npred = [0] * len(tasks)
    for j, job in enumerate(jobs):
        for a, b, data in job["edges"]:
            succ[index[(j, a)]].append((index[(j, b)], data))
            npred[index[(j, b)]] += 1
    ready = [0] * len(tasks)
    state = ["unborn"] * len(tasks)
    queues = [[] for _ in range(pes)]
    pending = []
    end = [None] * len(jobs)
    released, rows, cur, t = 0, [], 0, 0

    def next_task(j, p):
        mine = [k for k in range(len(tasks)) if tasks[k][0] == j and state[k] != "done" and place[k] == p]
        if not mine:
            return None
        best = min(mine, key=lambda k: rank[k])
        return best if state[best] == "queued" else None

    while any(e is None for e in end):
        while released < len(jobs) and jobs[released]["released"] <= t:
            for k in range(len(tasks)):
                if tasks[k][0] == released and npred[k] == 0:
                    ready[k] = t
                    pending.append(k)
            released += 1
        for k in [k for k in pending if ready[k] <= t]:
            pending.remove(k)
            queues[place[k]].append(k)
            state[k] = "queued"
        if cur == 0:
            rows = []
            for j in range(released):
                if end[j] is not None:
                    continue
                foot = {place[k] for k in range(len(tasks)) if tasks[k][0] == j and state[k] == "queued"}
                if not foot:
                    continue
                row = next((r for r in rows if all(r[p] is None for p in foot)), None)
                if row is None:
                    row = [None] * pes
                    rows.append(row)
                for p in foot:
                    row[p] = j
        for p in range(pes):
            owner = rows[cur][p] if rows else None
            x = next_task(owner, p) if owner is not None else None
            if x is None and local:
                x = next((k for k in queues[p] if tasks[k][0] != owner and next_task(tasks[k][0], p) == k),
                         None)
            if x is None:
                continue
            left[x] -= 1
            if left[x] == 0:
                state[x] = "done"
                queues[p].remove(x)
                for y, data in succ[x]:
                    delay = 0 if place[y] == p else math.ceil(data / bw[p][place[y]] - 1e-9)
                    ready[y] = max(ready[y], t + 1 + delay)
                    npred[y] -= 1
                    if npred[y] == 0:
                        pending.append(y)
                j = tasks[x][0]
                if all(state[k] == "done" for k in range(len(tasks)) if tasks[k][0] == j):
                    end[j] = t + 1
        cur = cur + 1 if cur + 1 < len(rows) else 0
        t += 1
    return end
