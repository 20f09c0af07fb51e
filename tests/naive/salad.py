"""A slow, obvious reference of the salad family's loop without a balancer.

Plain Python lists, written from ``sweep/families/salad/_loop.py``'s module
docstring: each PE's queue is a list from its head, in the order tasks joined
it (a task joins at the end), the gang matrix a list of rows, a slice visits
the PEs in order. Spawned tasks (the balancing family's rule: a task that has
run ``age`` slices spawns its children of that age, in their order, onto its
PE's queue), both orders of a PE (``mapper``; ``round_robin``: the list
turned so that the task after the one run comes first) and the gang family's
task classes with lengths at their means (``io``: bursts, then waits;
``sync``: phases, then a barrier for every live task of the job) are covered.
Nothing is shared with the kernel; it must match it slice for slice (every
task's end).
"""

from __future__ import annotations

import math


def simulate(jobs, bw, pes, local):
    """Each job's end (:func:`run`, in the mapper's order)."""
    return run(jobs, bw, pes, local)[0]


def run(jobs, bw, pes, local, order="mapper", classes=None):
    """Each job's end and each task's end (job by job: a job's graph tasks, then those it spawns).

    ``jobs``: dicts with ``released`` (slice), per task ``place``, ``rank``, ``life``, ``edges``
    ``(src, dst, data)`` in the job's own task numbers, and optionally ``spawned``: ``(parent, age,
    life)`` per spawned task, numbered after the graph's, ``parent`` a job task number, and ``cls``
    (``compute``, ``io``, ``sync``; with ``classes``, a dict of the lengths ``burst``, ``wait``,
    ``phase`` in slices); ``bw[p][q]`` the route bandwidth."""
    tasks = []  # (job, own number)
    for j, job in enumerate(jobs):
        tasks += [(j, i) for i in range(len(job["life"]) + len(job.get("spawned", [])))]
    index = {key: k for k, key in enumerate(tasks)}
    mapped = [i < len(jobs[j]["life"]) for j, i in tasks]
    place = [jobs[j]["place"][i] if mapped[k] else None for k, (j, i) in enumerate(tasks)]
    rank = [jobs[j]["rank"][i] if mapped[k] else None for k, (j, i) in enumerate(tasks)]
    left = [jobs[j]["life"][i] if mapped[k] else jobs[j]["spawned"][i - len(jobs[j]["life"])][2]
            for k, (j, i) in enumerate(tasks)]
    age = [0] * len(tasks)
    children = {k: [] for k in range(len(tasks))}  # (age, child), in the children's order
    for j, job in enumerate(jobs):
        for s, (parent, when, _) in enumerate(job.get("spawned", [])):
            children[index[(j, parent)]].append((when, index[(j, len(job["life"]) + s)]))
    for k in children:
        children[k].sort()
    finish = [None] * len(tasks)
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
    kind = [jobs[j].get("cls", "compute") if classes else "compute" for j, _ in tasks]
    first = {"io": (classes or {}).get("burst"), "sync": (classes or {}).get("phase")}
    seg = [first.get(kind[k]) or left[k] + 1 for k in range(len(tasks))]
    blocked = [None] * len(tasks)  # None, ("io", until) or ("barrier", job generation seen)
    live, waiting, gen, opens = [0] * len(jobs), [0] * len(jobs), [0] * len(jobs), [0] * len(jobs)

    def may_run(k):
        """Whether task ``k`` may run in slice ``t``; a wait that is over ends here."""
        if blocked[k] is None:
            return True
        what, value = blocked[k]
        j = tasks[k][0]
        if what == "io" and value <= t:
            blocked[k] = None
        elif what == "barrier" and gen[j] > value and opens[j] <= t:
            blocked[k] = None
            seg[k] = classes["phase"]
        return blocked[k] is None

    def open_barrier(j):
        gen[j] += 1
        opens[j] = t + 1
        waiting[j] = 0

    def ran(x):
        """The class mechanics of a slice of ``x`` (its work already counted down)."""
        j = tasks[x][0]
        seg[x] -= 1
        if left[x] == 0:
            live[j] -= 1
            if live[j] > 0 and waiting[j] == live[j]:
                open_barrier(j)
        elif seg[x] == 0 and kind[x] == "io":
            blocked[x] = ("io", t + 1 + classes["wait"])
            seg[x] = classes["burst"]
        elif seg[x] == 0 and kind[x] == "sync":
            blocked[x] = ("barrier", gen[j])
            waiting[j] += 1
            if waiting[j] == live[j]:
                open_barrier(j)

    def first_queued(j, p, spawned_only):
        return next((k for k in queues[p] if tasks[k][0] == j and not (spawned_only and mapped[k])
                     and may_run(k)), None)

    def next_task(j, p):
        if order == "round_robin":
            return first_queued(j, p, False)
        mine = [k for k in range(len(tasks)) if tasks[k][0] == j and mapped[k] and state[k] != "done"
                and place[k] == p and (state[k] != "queued" or may_run(k))]
        best = min(mine, key=lambda k: rank[k]) if mine else None
        if best is not None and state[best] == "queued":
            return best
        return first_queued(j, p, True)

    while any(e is None for e in end):
        while released < len(jobs) and jobs[released]["released"] <= t:
            for k in range(len(tasks)):
                if tasks[k][0] == released and mapped[k] and npred[k] == 0:
                    ready[k] = t
                    pending.append(k)
            released += 1
        for k in [k for k in pending if ready[k] <= t]:
            pending.remove(k)
            queues[place[k]].append(k)
            state[k] = "queued"
            live[tasks[k][0]] += 1
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
            age[x] += 1
            for c in [c for when, c in children[x] if when == age[x]]:
                queues[p].append(c)
                state[c] = "queued"
                place[c] = p
                live[tasks[c][0]] += 1
            if classes:
                ran(x)
            if left[x] > 0 and order == "round_robin":
                i = queues[p].index(x)
                queues[p] = queues[p][i + 1:] + queues[p][:i + 1]
            if left[x] == 0:
                state[x] = "done"
                finish[x] = t + 1
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
    return end, finish
