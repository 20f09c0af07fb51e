"""Slow, obvious references for the mapping family: the execution model and one per mapper.

Plain Python: dicts of predecessors, explicit routes as lists of
``(link, direction)``, linear scans. Nothing shared with
``sweep.families.mapping`` but the input graphs, so that the compiled
kernels can be checked against something that is easy to read.

Every mapper has a reference registered under its name with
:func:`sweep.testing.naive.reference` (:func:`sweep.testing.mapping.compare_with_reference`
compares them; a plugin's mapper registers its own in its module, docs/plugins.md), a
function ``mapper(inst, params, rng)`` of the instance, the policy's parameters and its
generator that returns what the mapper decides, a :class:`Mapped`: the processor of every
task, the key that orders them (the planned start times, the step at which each was placed,
or Cluster-M's layer) and the makespan the mapper predicts (NaN where it predicts none). A
mapper without one fails that comparison with a line saying where to add it.
"""

from __future__ import annotations

import heapq
import math
from typing import NamedTuple

from sweep.testing.naive import mapping_cluster_m as naive_cluster_m
from sweep.testing.naive import reference


class Mapped(NamedTuple):
    """A reference's decisions (module docstring)."""

    proc: list[int]
    key: list[float]
    planned: float = math.nan


def task_costs(graph, system):
    """Execution time of task t on processor p: the cost matrix, or weight / speed."""
    if graph.cost is not None:
        return lambda t, p: float(graph.cost[t][p])
    return lambda t, p: float(graph.weight[t]) / float(system.speed[p])


def preds_of(graph):
    preds = {t: [] for t in range(graph.tasks)}
    for u, v, d in zip(graph.src.tolist(), graph.dst.tolist(), graph.data.tolist(), strict=True):
        preds[v].append((u, d))
    return preds


def succs_of(graph):
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


def inputs_ready(system, t, p, preds, proc, finish, booked, contention):
    """When every input of ``t`` is on ``p`` by the executor's rule; reserves the channels in ``booked``
    (channel -> reserved ``(start, end)`` intervals)."""
    ready = 0.0
    for u, data in sorted(preds[t], key=lambda ud: (finish[ud[0]], ud[0])):
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
    return ready


def execute(graph, system, proc, order, contention=True):
    """Start and finish of every task when ``proc`` runs in ``order`` (the family's execution model)."""
    cost = task_costs(graph, system)
    preds = preds_of(graph)
    start, finish = {}, {}
    proc_free = {p: 0.0 for p in range(system.processors)}
    booked = {}
    for t in order:
        p = proc[t]
        ready = inputs_ready(system, t, p, preds, proc, finish, booked, contention)
        start[t] = max(ready, proc_free[p])
        finish[t] = start[t] + cost(t, p)
        proc_free[p] = finish[t]
    return [start[t] for t in range(graph.tasks)], [finish[t] for t in range(graph.tasks)]


def mean_costs(graph, system, means=None):
    """Mean computation of each task and mean 1 / bandwidth over ordered pairs of processors
    (Topcuoglu et al. 2002's w̄ and c̄), and the routes' bandwidths.

    ``means``: the instance's own ``(wbar, cbar)``, which the references of the mappers take, so
    that ranks equal in exact arithmetic (CPOP's critical path is made of them) are equal here as in
    the kernels, and their ties break alike (numpy sums eight terms or more in another order than
    ``sum``: the two means then differ in the last bit). The ranks are computed here all the same."""
    cost = task_costs(graph, system)
    n = system.processors
    pairs = [(q, p) for q in range(n) for p in range(n) if q != p]
    width = {(q, p): route(system, q, p)[1] for q, p in pairs}
    if means is not None:
        return [float(w) for w in means[0]], float(means[1]), width
    cbar = sum(1.0 / width[qp] for qp in pairs) / len(pairs) if pairs else 0.0
    wbar = [sum(cost(t, p) for p in range(n)) / n for t in range(graph.tasks)]
    return wbar, cbar, width


def instance_means(inst):
    return inst.wbar, inst.cbar


def upward_rank(graph, wbar, cbar):
    """rank_u(t) = w̄_t + max over successors (c̄ data + rank_u), by memoised recursion (eq. 3);
    with ``cbar = 0`` the static level."""
    succs, rank = succs_of(graph), {}

    def rank_u(t):
        if t not in rank:
            rank[t] = wbar[t] + max([cbar * d + rank_u(v) for v, d in succs[t]], default=0.0)
        return rank[t]

    return [rank_u(t) for t in range(graph.tasks)]


def downward_rank(graph, wbar, cbar):
    """rank_d(t) = max over predecessors (rank_d + w̄ + c̄ data), by memoised recursion (eq. 4)."""
    preds, rank = preds_of(graph), {}

    def rank_d(t):
        if t not in rank:
            rank[t] = max([rank_d(u) + wbar[u] + cbar * d for u, d in preds[t]], default=0.0)
        return rank[t]

    return [rank_d(t) for t in range(graph.tasks)]


def data_ready(t, p, preds, proc, finish, width):
    """Contention-free arrival of every input of ``t`` on ``p``: finish + data / route bandwidth."""
    return max([finish[u] + (0.0 if proc[u] == p else d / width[(proc[u], p)]) for u, d in preds[t]],
               default=0.0)


def earliest_finish(t, processors, cost, preds, proc, finish, width, busy):
    """Insertion into the earliest idle gap (eqs. 5–6): ``(finish, start, processor)`` of the earliest
    finish over ``processors``, the lowest processor among equals."""
    best = None
    for p in processors:
        ready = data_ready(t, p, preds, proc, finish, width)
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
    return best


def ready_list(graph):
    """Each task's count of unplaced predecessors, and the entry tasks."""
    waiting = {t: 0 for t in range(graph.tasks)}
    for v in graph.dst.tolist():
        waiting[v] += 1
    return waiting, {t for t, k in waiting.items() if k == 0}


def release(t, succs, waiting, ready):
    for v, _ in succs[t]:
        waiting[v] -= 1
        if waiting[v] == 0:
            ready.add(v)


def highest_priority(ready, prio):
    """The ready task of highest priority, the lowest index among equals."""
    return min(ready, key=lambda t: (-prio[t], t))


def heft(graph, system, means=None):
    """HEFT (Topcuoglu et al. 2002): processors and start times, plain Python (``means``: as in
    :func:`mean_costs`)."""
    cost = task_costs(graph, system)
    wbar, cbar, width = mean_costs(graph, system, means)
    rank = upward_rank(graph, wbar, cbar)
    position = {t: i for i, t in enumerate(graph.order.tolist())}
    order = sorted(range(graph.tasks), key=lambda t: (-rank[t], position[t]))
    preds = preds_of(graph)
    proc, start, finish = {}, {}, {}
    busy = {p: [] for p in range(system.processors)}  # (start, finish) sorted
    for t in order:
        f, s, p = earliest_finish(t, range(system.processors), cost, preds, proc, finish, width, busy)
        proc[t], start[t], finish[t] = p, s, f
        busy[p] = sorted([*busy[p], (s, f)])
    return [proc[t] for t in range(graph.tasks)], [start[t] for t in range(graph.tasks)]


@reference("heft")
def _heft(inst, params, rng):
    proc, start = heft(inst.graph, inst.system, instance_means(inst))
    cost = task_costs(inst.graph, inst.system)
    return Mapped(proc, start, max(s + cost(t, proc[t]) for t, s in enumerate(start)))


@reference("cpop")
def cpop(inst, params, rng):
    """CPOP (Topcuoglu et al. 2002 §4.2, Fig. 4, with the rank_d condition of
    ``sweep/families/mapping/cpop.py``): the critical path on the processor that runs it fastest."""
    graph, system = inst.graph, inst.system
    cost = task_costs(graph, system)
    wbar, cbar, width = mean_costs(graph, system, instance_means(inst))
    rank_d = downward_rank(graph, wbar, cbar)
    prio = [u + d for u, d in zip(upward_rank(graph, wbar, cbar), rank_d, strict=True)]
    preds, succs = preds_of(graph), succs_of(graph)
    entries = [t for t in range(graph.tasks) if not preds[t]]
    t = min(entries, key=lambda t: (-prio[t], t))
    cp, tol = prio[t], 1e-9 * prio[t]
    path = []
    while t is not None:
        path.append(t)
        onward = [v for v, d in succs[t] if abs(prio[v] - cp) <= tol
                  and abs(rank_d[v] - (rank_d[t] + wbar[t] + cbar * d)) <= tol]
        t = min(onward, default=None)
    cp_proc = min(range(system.processors), key=lambda p: (sum(cost(t, p) for t in sorted(path)), p))
    waiting, ready = ready_list(graph)
    proc, start, finish = {}, {}, {}
    busy = {p: [] for p in range(system.processors)}
    while ready:
        t = highest_priority(ready, prio)
        ready.remove(t)
        processors = [cp_proc] if t in path else range(system.processors)
        f, s, p = earliest_finish(t, processors, cost, preds, proc, finish, width, busy)
        proc[t], start[t], finish[t] = p, s, f
        busy[p] = sorted([*busy[p], (s, f)])
        release(t, succs, waiting, ready)
    return Mapped([proc[t] for t in range(graph.tasks)], [start[t] for t in range(graph.tasks)],
                  max(finish.values()))


@reference("etf")
def etf(inst, params, rng):
    """ETF (Hwang et al. 1989): the ready (task, processor) pair of earliest start, no insertion; ties
    to the higher static level, then the lower task, then the lower processor."""
    graph, system = inst.graph, inst.system
    cost = task_costs(graph, system)
    wbar, _, width = mean_costs(graph, system, instance_means(inst))
    level = upward_rank(graph, wbar, 0.0)
    preds, succs = preds_of(graph), succs_of(graph)
    waiting, ready = ready_list(graph)
    proc, finish, step = {}, {}, {}
    avail = [0.0] * system.processors
    while ready:
        s, _, t, p = min((max(data_ready(t, p, preds, proc, finish, width), avail[p]), -level[t], t, p)
                         for t in ready for p in range(system.processors))
        ready.remove(t)
        proc[t], finish[t], step[t] = p, s + cost(t, p), len(step)
        avail[p] = finish[t]
        release(t, succs, waiting, ready)
    return Mapped([proc[t] for t in range(graph.tasks)], [float(step[t]) for t in range(graph.tasks)],
                  max(finish.values()))


def _by_tables(system, t, p, preds, proc, finish, busy, contention):
    """When every input of ``t`` is on ``p`` with each channel one busy-until time (MH's routing
    tables); pushes those times forward in ``busy``."""
    ready = 0.0
    for u, data in sorted(preds[t], key=lambda ud: (finish[ud[0]], ud[0])):
        q = proc[u]
        arrive = finish[u]
        if q != p and data > 0:
            channels, width = route(system, q, p)
            leave = max([finish[u], *(busy.get(c, 0.0) for c in channels)]) if contention else finish[u]
            if contention:
                for c in channels:
                    busy[c] = leave + data / width
            arrive = leave + data / width
        ready = max(ready, arrive)
    return ready


@reference("mh")
def mh(inst, params, rng):
    """MH (El-Rewini & Lewis 1990, as ``sweep/families/mapping/mh.py`` reconstructs it): the ready task
    of highest priority on the processor of earliest start (or finish), its messages routed through
    the routing tables or by the executor's own rule."""
    graph, system = inst.graph, inst.system
    contention = bool(inst.arrays.contention)
    cost = task_costs(graph, system)
    wbar, cbar, _ = mean_costs(graph, system, instance_means(inst))
    prio = upward_rank(graph, wbar, cbar if params.priority == "upward_rank" else 0.0)
    preds, succs = preds_of(graph), succs_of(graph)
    links = {}  # contention exact: channel -> reserved intervals; tables: channel -> busy until

    def arrival(t, p, links):
        if params.contention == "exact":
            return inputs_ready(system, t, p, preds, proc, finish, links, contention)
        return _by_tables(system, t, p, preds, proc, finish, links, contention)

    def trial(p):
        s = max(arrival(t, p, {c: list(v) if isinstance(v, list) else v for c, v in links.items()}),
                proc_free[p])
        f = s + cost(t, p)
        return (f, s, p) if params.select == "finish" else (s, f, p)

    waiting, ready = ready_list(graph)
    proc, start, finish, step = {}, {}, {}, {}
    proc_free = [0.0] * system.processors
    while ready:
        t = highest_priority(ready, prio)
        ready.remove(t)
        best = min(trial(p) for p in range(system.processors))
        p = best[2]
        arrival(t, p, links)
        proc[t], step[t] = p, len(step)
        start[t], finish[t] = (best[1], best[0]) if params.select == "finish" else best[:2]
        proc_free[p] = finish[t]
        release(t, succs, waiting, ready)
    return Mapped([proc[t] for t in range(graph.tasks)], [float(step[t]) for t in range(graph.tasks)],
                  max(finish.values()))


@reference("map_random")
def map_random(inst, params, rng):
    """Random mapping: ``rng.integers(0, P, M)`` processors, tasks in Kahn's topological order with the
    smallest ready index first."""
    graph = inst.graph
    proc = [int(p) for p in rng.integers(0, inst.processors, size=graph.tasks)]
    waiting, ready = ready_list(graph)
    heap, succs, key = sorted(ready), succs_of(graph), {}
    while heap:
        t = heapq.heappop(heap)
        key[t] = float(len(key))
        for v, _ in succs[t]:
            waiting[v] -= 1
            if waiting[v] == 0:
                heapq.heappush(heap, v)
    return Mapped(proc, [key[t] for t in range(graph.tasks)])


@reference("cluster_m")
def cluster_m(inst, params, rng):
    """Cluster-M (CSSE00 Figs 2–4): :mod:`sweep.testing.naive.mapping_cluster_m`'s processors, keyed
    by layer."""
    proc, layer, *_ = naive_cluster_m.cluster_m(inst, params)
    return Mapped(proc.tolist(), layer.astype(float).tolist())


def critical_path(graph, node_time):
    """Longest path of node times, by memoised recursion."""
    succs = succs_of(graph)
    memo = {}

    def longest(t):
        if t not in memo:
            memo[t] = node_time[t] + max([longest(v) for v, _ in succs[t]], default=0.0)
        return memo[t]

    return max(longest(t) for t in range(graph.tasks)) if graph.tasks else 0.0

