"""A plain-Python Cluster-M (CNUG, CNDG and the layer mapping of CSSE00 Figs 2–4).

The readings are those of ``sweep/families/mapping/cluster_m.py`` (its
docstring and ``docs/ipg00-mapping.md``); this is the first, uncompiled
implementation of them, kept so that the compiled kernels can be checked
against it: the same Rep and Spec clusters, the same processor per task, the
same operation counts. Dicts, sets, lists and sorted tuples: easy to read,
slow (40–180 ms of clustering on a 1,000-task graph).
"""

from __future__ import annotations

import math

import numpy as np

# --------------------------------------------------------------------------- CNUG (system graph)

def cnug(inst):
    """Rep clusters: (members, params, order, layers), and the operations done."""
    system = inst.system
    n = system.processors
    members = [np.array([i]) for i in range(n)]
    children: list[list[int]] = [[] for _ in range(n)]
    params = [(1.0, float(system.speed[i]), 0.0, 0.0) for i in range(n)]
    current = list(range(n))
    cluster_of = np.arange(n)
    ops, layers = 0, 1
    while len(current) > 1:
        edges: dict[tuple[int, int], float] = {}
        for x, y, bw in zip(cluster_of[system.a].tolist(), cluster_of[system.b].tolist(),
                            system.bandwidth.tolist(), strict=True):
            if x != y:
                key = (min(x, y), max(x, y))
                edges[key] = edges.get(key, 0.0) + bw
        ops += system.links
        ranked = sorted(edges.items(), key=lambda kv: (-kv[1], kv[0]))
        linked = set(edges)
        merged: dict[int, int] = {}
        groups: list[list[int]] = []
        seeds: list[float] = []
        for i, ((ci, cj), weight) in enumerate(ranked):
            if ci in merged or cj in merged:
                continue
            group = [ci, cj]
            merged[ci] = merged[cj] = len(groups)
            for (cx, cy), _ in ranked[i + 1:]:
                ops += 1
                inside, other = (cx, cy) if cx in group else (cy, cx) if cy in group else (None, None)
                if inside is None or other in merged:
                    continue
                if all((min(other, g), max(other, g)) in linked for g in group):
                    ops += len(group)
                    group.append(other)
                    merged[other] = len(groups)
            groups.append(group)
            seeds.append(weight)
        nxt = []
        for group, seed in zip(groups, seeds, strict=True):
            procs = np.sort(np.concatenate([members[c] for c in group]))
            inside = np.isin(system.a, procs) & np.isin(system.b, procs)
            members.append(procs)
            children.append(list(group))
            params.append((float(len(procs)), float(system.speed[procs].sum()),
                           float(system.bandwidth[inside].sum()), seed))
            nxt.append(len(members) - 1)
            cluster_of[procs] = len(members) - 1
        nxt += [c for c in current if c not in merged]
        current = sorted(nxt)
        layers += 1
    table = np.asarray(params)
    order, stack = [], [current[0]]
    while stack:  # depth first, larger sub-clusters first
        c = stack.pop()
        if not children[c]:
            order.append(c)
            continue
        kids = sorted(children[c], key=lambda k: (*(-table[k]), k))
        stack.extend(reversed(kids))
    return (members, table, np.asarray(order, dtype=np.int64), layers), ops


# --------------------------------------------------------------------------- CNDG (task graph)

def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _union(parent, x, y):
    rx, ry = _find(parent, x), _find(parent, y)
    if rx != ry:
        parent[max(rx, ry)] = min(rx, ry)


def cndg(inst, chains):
    """Spec graph: (layer, embedded_into, spec root of every task), and the operations done."""
    g, a = inst.graph, inst.arrays
    m = g.tasks
    layer = np.zeros(m, dtype=np.int64)
    for t in g.order:
        preds = a.psrc[a.pstart[t]:a.pstart[t + 1]]
        layer[t] = layer[preds].max() + 1 if len(preds) else 0
    outdeg, indeg = np.diff(a.sstart), np.diff(a.pstart)
    into = np.full(m, -1, dtype=np.int64)
    has_child = np.zeros(m, dtype=bool)
    ops = m + g.edges
    for e in np.lexsort((g.src, g.dst, layer[g.dst])):
        u, v = int(g.src[e]), int(g.dst[e])
        if outdeg[u] > 1 and not has_child[u]:
            kids = a.sdst[a.sstart[u]:a.sstart[u + 1]]
            data = np.where(into[kids] < 0, a.sdata[a.sstart[u]:a.sstart[u + 1]], -1.0)
            ops += len(kids)
            if data.max() >= 0:
                child = int(kids[int(np.argmax(data))])
                into[child], has_child[u] = u, True
        if indeg[v] > 1 and into[v] < 0:
            parents = a.psrc[a.pstart[v]:a.pstart[v + 1]]
            data = np.where(~has_child[parents], a.pdata[a.pstart[v]:a.pstart[v + 1]], -1.0)
            ops += len(parents)
            if data.max() >= 0:
                parent = int(parents[int(np.argmax(data))])
                into[v], has_child[parent] = parent, True
        if chains and outdeg[u] == 1 and indeg[v] == 1 and into[v] < 0 and not has_child[u]:
            into[v], has_child[u] = u, True
    spec = np.arange(m)
    for t in range(m):
        for lo, hi, nodes in ((a.sstart[t], a.sstart[t + 1], a.sdst), (a.pstart[t], a.pstart[t + 1], a.psrc)):
            group = nodes[lo:hi]
            ops += len(group)
            for i in range(1, len(group)):
                if layer[group[i]] == layer[group[0]]:
                    _union(spec, int(group[0]), int(group[i]))
                else:
                    for j in range(i):
                        if layer[group[j]] == layer[group[i]]:
                            _union(spec, int(group[j]), int(group[i]))
                            break
    roots = np.asarray([_find(spec, t) for t in range(m)], dtype=np.int64)
    return (layer, into, roots), ops


# --------------------------------------------------------------------------- mapping (Fig. 4)

class _Mapper:
    def __init__(self, inst, rep, params):
        members, table, order, _ = rep
        self.inst, self.members, self.table, self.order, self.params = inst, members, table, order, params
        n = inst.processors
        self.used = np.zeros(n, dtype=bool)
        self.sizes = np.asarray([len(c) for c in members])
        self.ranked = np.lexsort(tuple(-table[:, k] for k in (3, 2, 1, 0)))
        self.member = np.zeros((len(members), n), dtype=np.int64)
        self.head = np.zeros(len(members), dtype=np.int64)
        for c, procs in enumerate(members):
            self.member[c, procs] = 1
            self.head[c] = procs[np.argmax(inst.system.speed[procs])]
        self.mean_speed = float(inst.system.speed.mean())
        off = ~np.eye(n, dtype=bool)
        self.mean_bw = float(np.mean(inst.arrays.route_bw[off])) if n > 1 else math.inf
        self.ops = 0

    def required(self, weight, count):
        f = 1.0 if self.params.f_rule == "one" else min(1.0, (weight / count) / self.mean_speed)
        return max(1, math.ceil(f * count - 1e-9))

    def part(self, k, weight, send_proc, send_data, ready=None):
        """The processors matched to a Spec cluster asking for ``k``; ``ready`` (``placement:
        earliest_free``): when each processor's placed work would end, added to a Rep cluster's
        estimate (its latest member's) and ranking the processors a split or a merge takes."""
        if not (~self.used).any():
            self.used[:] = False
        busy = self.member[self.ranked] @ self.used.astype(np.int64)
        free = self.ranked[busy == 0]
        self.ops += len(self.ranked)
        exact = free[self.sizes[free] == k]
        if len(exact):
            self.ops += len(exact) * (len(send_proc) + 1)
            estimate = []
            for c in exact.tolist():  # one sum per Rep cluster, senders in order
                comm = 0.0
                for q, d in zip(send_proc.tolist(), send_data.tolist(), strict=True):
                    if not self.member[c, q]:
                        comm += d / self.inst.arrays.route_bw[q, self.head[c]]
                waiting = float(ready[self.members[c]].max()) if ready is not None else 0.0
                estimate.append(weight / self.table[c, 1] + comm / self.sizes[c] + waiting)
            return self.members[exact[np.lexsort((exact, np.asarray(estimate)))[0]]]
        bigger = free[self.sizes[free] > k]
        if len(bigger):
            c = bigger[-1] if self.params.split == "smallest" else bigger[0]
            self.ops += len(self.members[c]) if ready is not None else 0  # ranking the cluster's processors
            return self._take(self.members[c], k, ready)
        self.ops += len(self.order) if ready is not None else 0  # ranking every processor
        return self._take(np.flatnonzero(~self.used), k, ready)

    def _take(self, procs, k, ready=None):
        """The first ``k`` of ``procs`` in clustering order, or, given ``ready``, free first (ties:
        clustering order)."""
        position = np.empty(len(self.order), dtype=np.int64)
        position[self.order] = np.arange(len(self.order))
        keys = (position[procs],) if ready is None else (position[procs], ready[procs])
        return procs[np.lexsort(keys)][:k]


def cluster_m(inst, params):
    """Cluster and map: (processor per task, layer per task, clustering ops, mapping ops, rep, spec)."""
    spec_graph, spec_ops = cndg(inst, params.chains)
    rep, rep_ops = cnug(inst)
    proc, map_ops = map_layers(inst, params, spec_graph, rep)
    return proc, spec_graph[0], spec_ops + rep_ops, map_ops, rep, spec_graph


def map_layers(inst, params, spec_graph, rep):
    """Fig. 4 on the clusters: (processor per task, mapping ops)."""
    layer, into, spec = spec_graph
    g, a = inst.graph, inst.arrays
    speed = inst.system.speed
    proc = np.full(g.tasks, -1, dtype=np.int64)
    mapper = _Mapper(inst, rep, params)
    # placement: earliest_free: when each processor's placed work would end if it never waited
    ready = np.zeros(inst.processors) if params.placement == "earliest_free" else None
    by_layer = np.argsort(layer, kind="stable")
    bounds = np.searchsorted(layer[by_layer], np.arange(layer.max() + 2))
    for level in range(len(bounds) - 1):
        tasks = by_layer[bounds[level]:bounds[level + 1]]
        mapper.used[:] = False
        embedded = tasks[into[tasks] >= 0]
        proc[embedded] = proc[into[embedded]]
        mapper.used[proc[embedded]] = True
        if ready is not None:
            for t in embedded.tolist():
                ready[proc[t]] += g.weight[t] / speed[proc[t]]
        free = tasks[into[tasks] < 0]
        mapper.ops += len(tasks)
        if not len(free):
            continue
        keyed = []
        for s in np.unique(spec[free]):
            members = free[spec[free] == s]
            edges = np.concatenate([np.arange(a.pstart[t], a.pstart[t + 1]) for t in members])
            send_proc, send_data = proc[a.psrc[edges]], a.pdata[edges]
            mapper.ops += len(members) + len(send_proc)
            weight = float(g.weight[members].sum())
            keyed.append(((-len(members), -weight, -float(send_data.sum()),
                           -float(send_data.max(initial=0.0)), int(members[0])),
                          members, weight, send_proc, send_data))
        keyed.sort(key=lambda item: item[0])
        for _, members, weight, send_proc, send_data in keyed:
            part = mapper.part(mapper.required(weight, len(members)), weight, send_proc, send_data, ready)
            mapper.used[part] = True
            # the fastest, or the first to finish the cluster (its first in the part's order)
            fastest = part[np.argmax(speed[part]) if ready is None else
                           np.argmin(ready[part] + weight / speed[part])]
            target = fastest
            if len(send_data):
                heaviest = send_proc[int(np.argmax(send_data))]
                target = heaviest if heaviest in part else fastest
            whole = len(part) == 1 or params.inequality == "always"
            if not whole and params.inequality == "comm_vs_parallelism":
                saved = float(send_data[send_proc == target].sum()) / mapper.mean_bw
                lost = (weight - float(g.weight[members].max())) / float(speed[target])
                whole = saved > lost
            mapper.ops += len(members) + len(part)
            if whole:
                proc[members] = target
                if ready is not None:
                    ready[target] += weight / speed[target]
                continue
            heavy_first = members[np.argsort(-g.weight[members], kind="stable")]
            if ready is not None:  # each to the processor that would finish it first
                for t in heavy_first.tolist():
                    best = part[np.argmin(ready[part] + g.weight[t] / speed[part])]
                    proc[t] = best
                    ready[best] += g.weight[t] / speed[best]
                continue
            fast_first = part[np.argsort(-speed[part], kind="stable")]
            proc[heavy_first] = fast_first[np.arange(len(heavy_first)) % len(fast_first)]
    return proc, mapper.ops
