"""Cluster-M (Chen & Eshaghian 1995; CSSE00 §2.1, §3.1, Figs 2–4): cluster both graphs, map layer by layer.

CSSE00 prints the three algorithms as pseudo-code and leaves their
quantities undefined. What follows is one reading of each; every step the
paper does not pin down is marked **reading**, and where another reading is
as plausible it is a parameter (``docs/ipg00-mapping.md`` lists them).

**CNUG, the system graph (Fig. 2).** Layer 1: one cluster per processor with
parameters (1, B_i, 0, 0) — read as (size σ, computing capacity δ = the
processor's speed, and two communication terms Π, π). At each layer the
links between clusters are summed into one edge per pair of clusters (the
figure's "add the weight of (c_x, c_y) to the edge between the two
super-clusters") and sorted by decreasing weight (ties: lower cluster
indices). The first edge whose ends are both unmerged seeds a new cluster;
the rest of the list is scanned in order and a cluster joins it when it is
linked to it and **connected to every sub-cluster already in it** (the
figure's test: clusters grow as cliques). Clusters left unmerged at the end
of a layer are carried to the next one alone (**reading**). The loop ends
with one cluster (the system graph is connected). Parameters of a merged
cluster (**reading**): σ = processors, δ = total speed, Π = total bandwidth
of the links inside it, π = the weight of the edge that seeded it.

**CNDG, the task graph (Fig. 3).** Layers: a task's depth (the longest path
in edges from an entry task) — the "horizontal layers in top-down fashion".
Vertical partitioning by embedding: over the edges into each layer, in
order, a fork node embeds its child of largest data, a join node its parent
of largest data (first come first served: a task has at most one embedded
parent and one embedded child, so embedded tasks form paths, **reading**);
with ``chains: true`` an edge that is neither a fork's nor a join's embeds
its child too (§3.1: "the task nodes along a path may be embedded into one
another", **reading**). Horizontal partitioning by merging: the tasks of a
layer that share a parent or a child are merged into one Spec cluster
(§3.1: "all the nodes in a layer are merged to form a cluster if they have a
common parent node in the layer above or a common child node in the layer
below"). A Spec cluster's parameters (**reading**): σ = tasks not embedded
into an earlier task, δ = their total computation, Π = the data they
receive, π = the largest single message.

**Mapping (Fig. 4).** Top down, one task layer at a time (§3.1: "the
layers are to be executed one at a time. Therefore, the mapping is done one
layer at a time"); a task embedded into an earlier task goes to that task's
processor. The layer's Spec clusters, sorted by decreasing (σ, δ, Π, π),
each ask for a Rep cluster of size ⌈f σ⌉ with f(u, v) = (δ_S / σ_S) /
(δ_sys / N) capped at 1 — the computing demand per task over the capacity
per processor (**reading**; ``f_rule: one`` takes f = 1). Among the Rep
clusters of exactly that size with no processor used yet in this layer, the
one of least estimated time (δ_S / δ_R, plus the data the Spec cluster
receives from senders outside the Rep cluster over the route bandwidth to
its fastest processor, over the Rep cluster's size; ties by lower index)
is matched; if
none, a free Rep cluster is split (``split: smallest``, the smallest one big
enough, **reading**; ``split: first``, the first — largest — of the sorted
list, the figure's words) or free processors are merged until the size is
reached; a layer wider than the machine starts again with every processor
free. Within a matched pair: if the Rep part has one processor, or the
**Inequality** holds, the whole Spec cluster goes to one processor, the
target: the processor of its heaviest sender if that lies in the part, else
the part's fastest (embedding the sub-clusters onto the one holding their
common parent); otherwise its tasks, heaviest first, go round robin over the
part's processors, fastest first (the figure's recursion into sub-clusters,
flattened to its leaves). The Inequality (**reading**, ``inequality:
comm_vs_parallelism``): the communication saved — the data the Spec
cluster receives from the target, which becomes local, over the mean route
bandwidth — exceeds the parallelism lost — its computation on one processor
minus its largest task, at the target's speed; ``never`` and ``always`` are
the alternatives.

Tasks run in layer order (ties by topological position). The clustering of
both graphs is the ``cluster`` hook (T_cm − T_c, not counted in T_c, CSSE00
§2.1); the mapping alone is ``map`` (T_c).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweep.families import param
from sweep.families.mapping._instance import Instance
from sweep.families.mapping._policy import Plan, mapping_policy


@dataclass(frozen=True)
class ClusterMParams:
    """The readings of what CSSE00 leaves undefined (module docstring)."""

    f_rule: str = param("demand", choices=("demand", "one"),
                        doc="f(u,v): demand per task over capacity per processor (capped at 1), or 1")
    inequality: str = param("comm_vs_parallelism", choices=("comm_vs_parallelism", "never", "always"),
                            doc="when a Spec cluster goes whole onto one processor")
    split: str = param("smallest", choices=("smallest", "first"),
                       doc="which free Rep cluster is split: the smallest big enough, or the first (largest)")
    chains: bool = param(True, doc="embed the child of an edge that is neither a fork's nor a join's")


# --------------------------------------------------------------------------- CNUG (system graph)

@dataclass(frozen=True)
class RepGraph:
    """The Rep clusters (every layer's): processors, (σ, δ, Π, π), and processors in clustering order."""

    members: list[np.ndarray]
    params: np.ndarray
    order: np.ndarray
    layers: int


def _superedges(cluster_of: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray) -> dict:
    edges: dict[tuple[int, int], float] = {}
    for x, y, bw in zip(cluster_of[a].tolist(), cluster_of[b].tolist(), w.tolist(), strict=True):
        if x != y:
            key = (min(x, y), max(x, y))
            edges[key] = edges.get(key, 0.0) + bw
    return edges


def cnug(inst: Instance) -> tuple[RepGraph, int]:
    """Cluster the system graph (module docstring); the Rep clusters and the operations done."""
    system = inst.system
    n = system.processors
    members = [np.array([i]) for i in range(n)]
    children: list[list[int]] = [[] for _ in range(n)]
    params = [(1.0, float(system.speed[i]), 0.0, 0.0) for i in range(n)]
    current = list(range(n))  # cluster ids of the current layer
    cluster_of = np.arange(n)
    ops, layers = 0, 1
    while len(current) > 1:
        edges = _superedges(cluster_of, system.a, system.b, system.bandwidth)
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
    order = _clustering_order(children, table, current[0])
    return RepGraph(members, table, order, layers), ops


def _clustering_order(children: list[list[int]], params: np.ndarray, root: int) -> np.ndarray:
    """Processors in depth-first order of the cluster tree, larger sub-clusters first: every Rep
    cluster is a contiguous run, so a split keeps its best-connected sub-clusters together."""
    order, stack = [], [root]
    while stack:
        c = stack.pop()
        if not children[c]:
            order.append(c)
            continue
        kids = sorted(children[c], key=lambda k: (*(-params[k]), k))
        stack.extend(reversed(kids))
    return np.asarray(order, dtype=np.int64)


# --------------------------------------------------------------------------- CNDG (task graph)

@dataclass(frozen=True)
class SpecGraph:
    """Task layers, the embedded parent of every task (-1: none) and the Spec cluster of every task."""

    layer: np.ndarray
    embedded_into: np.ndarray
    spec: np.ndarray


def _find(parent: np.ndarray, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _union(parent: np.ndarray, x: int, y: int) -> None:
    rx, ry = _find(parent, x), _find(parent, y)
    if rx != ry:
        parent[max(rx, ry)] = min(rx, ry)


def cndg(inst: Instance, chains: bool) -> tuple[SpecGraph, int]:
    """Cluster the task graph (module docstring); the Spec graph and the operations done."""
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
    for t in range(m):  # siblings (common parent) and co-parents (common child) on one layer merge
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
    return SpecGraph(layer, into, roots), ops


def _cluster(inst: Instance, params: ClusterMParams) -> tuple[tuple[SpecGraph, RepGraph], int]:
    spec, spec_ops = cndg(inst, params.chains)
    rep, rep_ops = cnug(inst)
    return (spec, rep), spec_ops + rep_ops


# --------------------------------------------------------------------------- mapping (Fig. 4)

def _senders(inst: Instance, tasks: np.ndarray, proc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = inst.arrays
    edges = np.concatenate([np.arange(a.pstart[t], a.pstart[t + 1]) for t in tasks]) if len(tasks) \
        else np.zeros(0, dtype=np.int64)
    return proc[a.psrc[edges]], a.pdata[edges]


class _Mapper:
    """The state of one mapping: processors used in the current layer, the Rep clusters by size."""

    def __init__(self, inst: Instance, rep: RepGraph, params: ClusterMParams) -> None:
        self.inst, self.rep, self.params = inst, rep, params
        n = inst.processors
        self.used = np.zeros(n, dtype=bool)
        self.sizes = np.asarray([len(c) for c in rep.members])
        ranking = np.lexsort(tuple(-rep.params[:, k] for k in (3, 2, 1, 0)))
        self.ranked = ranking  # sorted by decreasing (σ, δ, Π, π)
        self.member = np.zeros((len(rep.members), n), dtype=np.int64)
        self.head = np.zeros(len(rep.members), dtype=np.int64)
        for c, procs in enumerate(rep.members):
            self.member[c, procs] = 1
            self.head[c] = procs[np.argmax(inst.system.speed[procs])]
        self.mean_speed = float(inst.system.speed.mean())
        off = ~np.eye(n, dtype=bool)
        self.mean_bw = float(np.mean(inst.arrays.route_bw[off])) if n > 1 else math.inf
        self.ops = 0

    def required(self, weight: float, count: int) -> int:
        f = 1.0 if self.params.f_rule == "one" else min(1.0, (weight / count) / self.mean_speed)
        return max(1, math.ceil(f * count - 1e-9))

    def _free_ranked(self) -> np.ndarray:
        """The Rep clusters (in ranked order) with no processor used yet in this layer."""
        busy = self.member[self.ranked] @ self.used.astype(np.int64)
        return self.ranked[busy == 0]

    def _estimates(self, clusters: np.ndarray, weight: float, send_proc: np.ndarray,
                   send_data: np.ndarray) -> np.ndarray:
        """Estimated time of the Spec cluster on each Rep cluster (module docstring), vectorised."""
        heads = self.head[clusters]
        outside = self.member[clusters][:, send_proc] == 0
        comm = (send_data[None, :] / self.inst.arrays.route_bw[send_proc[None, :], heads[:, None]])
        comm = np.where(outside, comm, 0.0).sum(axis=1)
        return weight / self.rep.params[clusters, 1] + comm / self.sizes[clusters]

    def part(self, k: int, weight: float, send_proc: np.ndarray, send_data: np.ndarray) -> np.ndarray:
        """The processors matched to a Spec cluster asking for ``k`` of them."""
        if not (~self.used).any():
            self.used[:] = False  # a layer wider than the machine: start a new round
        free = self._free_ranked()
        self.ops += len(self.ranked)
        exact = free[self.sizes[free] == k]
        if len(exact):
            self.ops += len(exact) * (len(send_proc) + 1)
            estimate = self._estimates(exact, weight, send_proc, send_data)
            return self.rep.members[exact[np.lexsort((exact, estimate))[0]]]
        bigger = free[self.sizes[free] > k]
        if len(bigger):
            c = bigger[-1] if self.params.split == "smallest" else bigger[0]
            return self._take(self.rep.members[c], k)
        return self._take(np.flatnonzero(~self.used), k)  # merge free processors

    def _take(self, procs: np.ndarray, k: int) -> np.ndarray:
        position = np.empty(len(self.rep.order), dtype=np.int64)
        position[self.rep.order] = np.arange(len(self.rep.order))
        return procs[np.argsort(position[procs], kind="stable")][:k]


def _map(inst: Instance, params: ClusterMParams, rng: np.random.Generator | None,
         clusters: tuple[SpecGraph, RepGraph]) -> Plan:
    spec, rep = clusters
    g = inst.graph
    speed = inst.system.speed
    proc = np.full(g.tasks, -1, dtype=np.int64)
    mapper = _Mapper(inst, rep, params)
    by_layer = np.argsort(spec.layer, kind="stable")
    bounds = np.searchsorted(spec.layer[by_layer], np.arange(spec.layer.max() + 2))
    for level in range(len(bounds) - 1):
        tasks = by_layer[bounds[level]:bounds[level + 1]]
        mapper.used[:] = False
        embedded = tasks[spec.embedded_into[tasks] >= 0]
        proc[embedded] = proc[spec.embedded_into[embedded]]
        mapper.used[proc[embedded]] = True
        free = tasks[spec.embedded_into[tasks] < 0]
        mapper.ops += len(tasks)
        if not len(free):
            continue
        groups = [free[spec.spec[free] == s] for s in np.unique(spec.spec[free])]
        keyed = []
        for members in groups:
            send_proc, send_data = _senders(inst, members, proc)
            mapper.ops += len(members) + len(send_proc)
            weight = float(g.weight[members].sum())
            keyed.append(((-len(members), -weight, -float(send_data.sum()),
                           -float(send_data.max(initial=0.0)), int(members[0])),
                          members, weight, send_proc, send_data))
        keyed.sort(key=lambda item: item[0])
        for _, members, weight, send_proc, send_data in keyed:
            k = mapper.required(weight, len(members))
            part = mapper.part(k, weight, send_proc, send_data)
            mapper.used[part] = True
            _place(inst, params, members, part, send_proc, send_data, weight, proc, speed, mapper)
    key = spec.layer.astype(np.float64)
    return Plan(proc=proc, key=key, ops=mapper.ops)


def _place(inst, params, members, part, send_proc, send_data, weight, proc, speed, mapper) -> None:
    """Whole onto one processor (one-processor part, or the Inequality), else round robin."""
    fastest = part[np.argmax(speed[part])]
    target = fastest
    if len(send_data):
        heaviest = send_proc[int(np.argmax(send_data))]
        target = heaviest if heaviest in part else fastest
    whole = len(part) == 1 or params.inequality == "always"
    if not whole and params.inequality == "comm_vs_parallelism":
        saved = float(send_data[send_proc == target].sum()) / mapper.mean_bw
        lost = (weight - float(inst.graph.weight[members].max())) / float(speed[target])
        whole = saved > lost
    mapper.ops += len(members) + len(part)
    if whole:
        proc[members] = target
        return
    heavy_first = members[np.argsort(-inst.graph.weight[members], kind="stable")]
    fast_first = part[np.argsort(-speed[part], kind="stable")]
    proc[heavy_first] = fast_first[np.arange(len(heavy_first)) % len(fast_first)]


POLICY = mapping_policy("cluster_m", params=ClusterMParams,
                        examples=({}, {"f_rule": "one", "inequality": "never", "split": "first"},
                                  {"inequality": "always", "chains": False}),
                        map=_map, cluster=_cluster)
