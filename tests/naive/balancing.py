"""A slow, obvious reference for the balancing family without balancing (no_balancing).

Plain Python lists: each PE's round-robin queue is a list, the running task
is taken from the front and put back at the end after the tasks it spawned
in that slice. Nothing shared with ``sweep.families.balancing``: the kernel
must match it slice for slice (every task's completion time).
"""

from __future__ import annotations


def simulate(life, parent, spawn_age, home, release, pes):
    """Completion time of every task (list) when every task runs where it is placed or spawned."""
    n = len(life)
    children = {k: [] for k in range(n)}
    for k in range(n):
        if parent[k] >= 0:
            children[parent[k]].append(k)
    for k in children:
        children[k].sort(key=lambda c: (spawn_age[c], c))
    roots = sorted((k for k in range(n) if parent[k] < 0), key=lambda k: (release[k], k))
    queues = [[] for _ in range(pes)]
    left = list(life)
    used = [0] * n
    finish = [None] * n
    t = 0
    done = 0
    while done < n:
        while roots and release[roots[0]] <= t:
            k = roots.pop(0)
            queues[home[k]].append(k)
        for pe in range(pes):
            if not queues[pe]:
                continue
            k = queues[pe].pop(0)
            left[k] -= 1
            used[k] += 1
            queues[pe].extend(c for c in children[k] if spawn_age[c] == used[k])
            if left[k] == 0:
                finish[k] = t + 1
                done += 1
            else:
                queues[pe].append(k)
        t += 1
    return finish
