"""Slow, obvious references for the mapping family: the execution model and HEFT.

Plain Python: dicts of predecessors, explicit routes as lists of
``(link, direction)``, linear scans. Nothing shared with
``sweep.families.mapping`` but the input graphs, so that the compiled
kernels can be checked against something that is easy to read.
"""

from __future__ import annotations

import math


def _costs(graph, system):
    """Execution time of task t on processor p: the cost matrix, or weight / speed."""
    if graph.cost is not None:
        return lambda t, p: float(graph.cost[t][p])
    return lambda t, p: float(graph.weight[t]) / float(system.speed[p])


def _preds(graph):
    preds = {t: [] for t in range(graph.tasks)}
    for u, v, d in zip(graph.src.tolist(), graph.dst.tolist(), graph.data.tolist(), strict=True):
        preds[v].append((u, d))
    return preds


def _succs(graph):
    succs = {t: [] for t in range(graph.tasks)}
    for u, v, d in zip(graph.src.tolist(), graph.dst.tolist(), graph.data.tolist(), strict=True):
        succs[u].append((v, d))
    return succs


def route(system, s, d):
    """The channels of the route s -> d and its bottleneck bandwidth.

    Defined recursively: the route to d comes from the lowest-indexed neighbour x
    one hop closer to s (hop distances by plain breadth-first search) among those
    whose route widened by the link x-d has the widest bottleneck, and continues
    along x's own route.
    """
    if s == d:
        return [], math.inf
    adj = {i: [] for i in range(system.processors)}
    for link, (a, b) in enumerate(zip(system.a.tolist(), system.b.tolist(), strict=True)):
        adj[a].append((b, link))
        adj[b].append((a, link))
    dist = {s: 0}
    frontier = [s]
    while frontier:
        nxt = []
        for x in frontier:
            for y, _ in adj[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    options = []
    for x, link in adj[d]:
        if dist[x] == dist[d] - 1:
            channels, width = route(system, s, x)
            options.append((-min(width, float(system.bandwidth[link])), x, channels, link))
    neg_width, x, channels, link = min(options, key=lambda o: (o[0], o[1]))
    return [*channels, 2 * link + (0 if x < d else 1)], -neg_width


def execute(graph, system, proc, order, contention=True):
    """Start and finish of every task when ``proc`` runs in ``order`` (the family's execution model)."""
    cost = _costs(graph, system)
    preds = _preds(graph)
    start, finish = {}, {}
    proc_free = {p: 0.0 for p in range(system.processors)}
    booked = {}  # channel -> reserved (start, end) intervals
    for t in order:
        p = proc[t]
        inputs = sorted(preds[t], key=lambda ud: (finish[ud[0]], ud[0]))
        ready = 0.0
        for u, data in inputs:
            q = proc[u]
            arrive = finish[u]
            if q != p and data > 0:
                channels, width = route(system, q, p)
                duration = data / width
                leave = finish[u]
                if contention:  # the earliest candidate (its finish, or a reservation's end) that fits
                    held = [iv for c in channels for iv in booked.get(c, [])]
                    for when in sorted({leave} | {b for _, b in held if b > leave}):
                        if all(b <= when or a >= when + duration for a, b in held):
                            leave = when
                            break
                    for c in channels:
                        booked.setdefault(c, []).append((leave, leave + duration))
                arrive = leave + duration
            ready = max(ready, arrive)
        start[t] = max(ready, proc_free[p])
        finish[t] = start[t] + cost(t, p)
        proc_free[p] = finish[t]
    return [start[t] for t in range(graph.tasks)], [finish[t] for t in range(graph.tasks)]


def heft(graph, system):
    """HEFT (Topcuoglu et al. 2002): processors and start times, plain Python."""
    cost = _costs(graph, system)
    n = system.processors
    pairs = [(q, p) for q in range(n) for p in range(n) if q != p]
    width = {(q, p): route(system, q, p)[1] for q, p in pairs}
    cbar = sum(1.0 / width[qp] for qp in pairs) / len(pairs) if pairs else 0.0
    wbar = [sum(cost(t, p) for p in range(n)) / n for t in range(graph.tasks)]
    succs, preds = _succs(graph), _preds(graph)
    rank = {}

    def rank_u(t):
        if t not in rank:
            rank[t] = wbar[t] + max([cbar * d + rank_u(v) for v, d in succs[t]], default=0.0)
        return rank[t]

    position = {t: i for i, t in enumerate(graph.order.tolist())}
    order = sorted(range(graph.tasks), key=lambda t: (-rank_u(t), position[t]))
    proc, start, finish = {}, {}, {}
    busy = {p: [] for p in range(n)}  # (start, finish) sorted
    for t in order:
        best = None
        for p in range(n):
            ready = max([finish[u] + (0.0 if proc[u] == p else d / width[(proc[u], p)])
                         for u, d in preds[t]], default=0.0)
            w = cost(t, p)
            s = None
            prev = 0.0
            for a, b in busy[p]:
                if max(ready, prev) + w <= a:
                    s = max(ready, prev)
                    break
                prev = b
            if s is None:
                s = max(ready, prev)
            if best is None or s + w < best[0]:
                best = (s + w, s, p)
        f, s, p = best
        proc[t], start[t], finish[t] = p, s, f
        busy[p] = sorted([*busy[p], (s, f)])
    return [proc[t] for t in range(graph.tasks)], [start[t] for t in range(graph.tasks)]


def critical_path(graph, node_time):
    """Longest path of node times, by memoised recursion."""
    succs = _succs(graph)
    memo = {}

    def longest(t):
        if t not in memo:
            memo[t] = node_time[t] + max([longest(v) for v, _ in succs[t]], default=0.0)
        return memo[t]

    return max(longest(t) for t in range(graph.tasks)) if graph.tasks else 0.0

