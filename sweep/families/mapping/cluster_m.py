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

**Reading of when processors are free** (``placement``). Fig. 4 matches each
layer's Spec clusters to free Rep clusters "with minimum estimated execution
time" and deletes a matched Rep cluster from the list; it says nothing of the
layers mapped before. ``layer_free`` (the default) starts every layer with
every processor free and estimates a match without the earlier layers' work.
``earliest_free`` (**reading**, off by default) keeps, for each processor, the
time its placed work would end if it never waited (``ready``: the sum of its
tasks' computation over its speed) and uses it where the mapping picks
processors: a Rep cluster's estimate adds the latest ``ready`` of its
processors; a split cluster gives, and a merge takes, the processors free
first (ties: clustering order); the target of a whole Spec cluster is the
part's processor that would finish it first (its heaviest sender's, if that
lies in the part, as before); a spread Spec cluster's tasks, heaviest first,
each go to the part's processor that would finish it first. Everything else
(sizes, the Inequality, the rounds of a layer wider than the machine) is as
above.

Tasks run in layer order (ties by topological position). The clustering of
both graphs is the ``cluster`` hook (T_cm − T_c, not counted in T_c, CSSE00
§2.1); the mapping alone is ``map`` (T_c). All three are compiled loops over
arrays (``_cnug``, ``_cndg``, ``_map_layers``); ``sweep/testing/naive/mapping_cluster_m.py``
is the plain-Python reading they must agree with, cluster for cluster and
processor for processor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweep._numba import jit
from sweep.families import param
from sweep.families.mapping import Instance, Plan, mapping_policy

INEQUALITIES = ("comm_vs_parallelism", "never", "always")


@dataclass(frozen=True)
class ClusterMParams:
    """The readings of what CSSE00 leaves undefined (module docstring)."""

    f_rule: str = param("demand", choices=("demand", "one"),
                        doc="f(u,v): demand per task over capacity per processor (capped at 1), or 1")
    inequality: str = param("comm_vs_parallelism", choices=INEQUALITIES,
                            doc="when a Spec cluster goes whole onto one processor")
    split: str = param("smallest", choices=("smallest", "first"),
                       doc="which free Rep cluster is split: the smallest big enough, or the first (largest)")
    chains: bool = param(True, doc="embed the child of an edge that is neither a fork's nor a join's")
    placement: str = param("layer_free", choices=("layer_free", "earliest_free"),
                           doc="each layer on processors all free (Fig. 4 as printed), or by when the "
                               "earlier layers' work leaves them free (a reading)")


# --------------------------------------------------------------------------- CNUG (system graph)

@dataclass(frozen=True)
class RepGraph:
    """The Rep clusters of every layer (ids: processors first, then merged clusters in creation order).

    ``params[c]`` is (σ, δ, Π, π); ``parent[c]`` the cluster that absorbed c (-1: the root);
    ``order`` the processors in clustering order, in which every cluster is the contiguous run
    ``order[first[c] : first[c] + σ]``; ``ranked`` the clusters by decreasing (σ, δ, Π, π), ties by id.
    """

    params: np.ndarray
    parent: np.ndarray
    order: np.ndarray
    first: np.ndarray
    ranked: np.ndarray
    layers: int

    @property
    def members(self) -> list[np.ndarray]:
        """Each cluster's processors, ascending."""
        return [np.sort(self.order[f:f + int(s)]) for f, s in zip(self.first, self.params[:, 0], strict=True)]


@jit()
def _cnug(speed, la, lb, bw, params, parent):
    """Fig. 2 on the system graph (module docstring). Fills ``params`` and ``parent`` (2N - 1 rows at
    most); returns (clusters made, layers, operations)."""
    n, links = speed.shape[0], la.shape[0]
    for i in range(n):
        params[i, 0], params[i, 1], params[i, 2], params[i, 3] = 1.0, speed[i], 0.0, 0.0
    parent[:] = -1
    cluster_of = np.arange(n)
    current = np.arange(n)  # ids of this layer's clusters, ascending
    k, count, ops, layers = n, n, 0, 1
    pos = np.full(2 * n, -1)
    weight = np.zeros((n, n))
    linked = np.zeros((n, n), dtype=np.bool_)
    ei, ej, ew = np.zeros(links, np.int64), np.zeros(links, np.int64), np.zeros(links)
    group_of = np.full(n, -1)
    members = np.zeros(n, np.int64)
    seeds = np.zeros(n)
    while k > 1:
        for i in range(k):
            pos[current[i]] = i
        weight[:k, :k] = 0.0
        linked[:k, :k] = False
        for e in range(links):  # super-edges: the links between two clusters, summed
            x, y = pos[cluster_of[la[e]]], pos[cluster_of[lb[e]]]
            if x != y:
                i, j = min(x, y), max(x, y)
                weight[i, j] += bw[e]
                linked[i, j] = True
        ops += links
        ne = 0
        for i in range(k):
            for j in range(i + 1, k):
                if linked[i, j]:
                    ei[ne], ej[ne], ew[ne] = i, j, weight[i, j]
                    ne += 1
        rank = np.argsort(-ew[:ne], kind="mergesort")  # heaviest first, ties by cluster ids
        if ne == 0:  # a disconnected system graph (refused by the readers): nothing left to merge
            break
        group_of[:k] = -1
        groups = 0
        for r in range(ne):
            i, j = ei[rank[r]], ej[rank[r]]
            if group_of[i] >= 0 or group_of[j] >= 0:
                continue
            g = groups
            groups += 1
            group_of[i] = group_of[j] = g
            members[0], members[1] = i, j
            size = 2
            seeds[g] = ew[rank[r]]
            for s in range(r + 1, ne):
                x, y = ei[rank[s]], ej[rank[s]]
                ops += 1
                if group_of[x] == g:
                    other = y
                elif group_of[y] == g:
                    other = x
                else:
                    continue
                if group_of[other] >= 0:
                    continue
                clique = True
                for h in range(size):
                    if not linked[min(other, members[h]), max(other, members[h])]:
                        clique = False
                        break
                if clique:
                    ops += size
                    members[size] = other
                    size += 1
                    group_of[other] = g
        for g in range(groups):
            params[count + g, :] = 0.0
            params[count + g, 3] = seeds[g]
        for p in range(n):
            g = group_of[pos[cluster_of[p]]]
            if g >= 0:
                params[count + g, 0] += 1.0
                params[count + g, 1] += speed[p]
        for e in range(links):
            g = group_of[pos[cluster_of[la[e]]]]
            if g >= 0 and g == group_of[pos[cluster_of[lb[e]]]]:
                params[count + g, 2] += bw[e]
        for p in range(n):
            g = group_of[pos[cluster_of[p]]]
            if g >= 0:
                cluster_of[p] = count + g
        nk = 0
        for i in range(k):  # the unmerged clusters go on alone; the new ones have larger ids
            if group_of[i] >= 0:
                parent[current[i]] = count + group_of[i]
            else:
                current[nk] = current[i]
                nk += 1
        for g in range(groups):
            current[nk] = count + g
            nk += 1
        k = nk
        count += groups
        layers += 1
    return count, layers, ops


@jit()
def _clustering_order(parent, ranked, n, order, first):
    """Processors in depth-first order of the cluster tree, sub-clusters in ``ranked`` order (larger
    first): every Rep cluster is a contiguous run, so a split keeps its best-connected sub-clusters
    together. Fills ``order`` and ``first``."""
    count = parent.shape[0]
    kids = np.zeros(count + 1, np.int64)
    for c in range(count):
        if parent[c] >= 0:
            kids[parent[c] + 1] += 1
    for c in range(count):
        kids[c + 1] += kids[c]
    fill = kids[:count].copy()
    child = np.zeros(max(count - 1, 1), np.int64)
    root = 0
    for i in range(count):
        c = ranked[i]
        if parent[c] >= 0:
            child[fill[parent[c]]] = c
            fill[parent[c]] += 1
        else:
            root = c
    stack = np.zeros(count, np.int64)
    top, placed = 1, 0
    stack[0] = root
    while top > 0:
        top -= 1
        c = stack[top]
        if c < n:
            order[placed] = c
            first[c] = placed
            placed += 1
            continue
        for j in range(kids[c + 1] - 1, kids[c] - 1, -1):
            stack[top] = child[j]
            top += 1
    for c in range(count):  # children have smaller ids than their parent
        if parent[c] >= 0 and (first[parent[c]] < 0 or first[c] < first[parent[c]]):
            first[parent[c]] = first[c]


def cnug(inst: Instance) -> tuple[RepGraph, int]:
    """Cluster the system graph (module docstring); the Rep clusters and the operations done."""
    system = inst.system
    n = system.processors
    params = np.zeros((max(2 * n - 1, 1), 4))
    parent = np.zeros(len(params), dtype=np.int64)
    count, layers, ops = _cnug(system.speed.astype(np.float64), system.a.astype(np.int64),
                               system.b.astype(np.int64), system.bandwidth.astype(np.float64), params, parent)
    params, parent = params[:count], parent[:count]
    ranked = np.lexsort(tuple(-params[:, k] for k in (3, 2, 1, 0))).astype(np.int64)
    order, first = np.zeros(n, dtype=np.int64), np.full(count, -1, dtype=np.int64)
    _clustering_order(parent, ranked, n, order, first)
    return RepGraph(params, parent, order, first, ranked, int(layers)), int(ops)


# --------------------------------------------------------------------------- CNDG (task graph)

@dataclass(frozen=True)
class SpecGraph:
    """Task layers, the embedded parent of every task (-1: none) and the Spec cluster of every task."""

    layer: np.ndarray
    embedded_into: np.ndarray
    spec: np.ndarray


@jit(inline="always")
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@jit(inline="always")
def _union(parent, x, y):
    rx, ry = _find(parent, x), _find(parent, y)
    if rx != ry:
        parent[max(rx, ry)] = min(rx, ry)


@jit()
def _layers(a, layer):
    """Each task's depth: the longest path in edges from an entry task."""
    for i in range(a.topo.shape[0]):
        t = a.topo[i]
        depth = 0
        for e in range(a.pstart[t], a.pstart[t + 1]):
            depth = max(depth, layer[a.psrc[e]] + 1)
        layer[t] = depth


@jit()
def _cndg(a, src, dst, edge_order, layer, chains, into, spec):
    """Fig. 3 on the task graph (module docstring): embedding over the edges in ``edge_order`` (by
    layer of the receiver, receiver, sender), then merging of each layer's siblings and co-parents.
    Fills ``into`` and ``spec`` (each task's Spec cluster, its lowest task); returns operations."""
    m = layer.shape[0]
    has_child = np.zeros(m, dtype=np.bool_)
    ops = m + src.shape[0]
    for i in range(edge_order.shape[0]):
        u, v = src[edge_order[i]], dst[edge_order[i]]
        outdeg, indeg = a.sstart[u + 1] - a.sstart[u], a.pstart[v + 1] - a.pstart[v]
        if outdeg > 1 and not has_child[u]:  # a fork embeds its child of largest data
            best, pick = -np.inf, -1
            for e in range(a.sstart[u], a.sstart[u + 1]):
                d = a.sdata[e] if into[a.sdst[e]] < 0 else -1.0
                if d > best:
                    best, pick = d, a.sdst[e]
            ops += outdeg
            if best >= 0:
                into[pick], has_child[u] = u, True
        if indeg > 1 and into[v] < 0:  # a join embeds into its parent of largest data
            best, pick = -np.inf, -1
            for e in range(a.pstart[v], a.pstart[v + 1]):
                d = a.pdata[e] if not has_child[a.psrc[e]] else -1.0
                if d > best:
                    best, pick = d, a.psrc[e]
            ops += indeg
            if best >= 0:
                into[v], has_child[pick] = pick, True
        if chains and outdeg == 1 and indeg == 1 and into[v] < 0 and not has_child[u]:
            into[v], has_child[u] = u, True
    for t in range(m):
        spec[t] = t
    for t in range(m):  # siblings (common parent) and co-parents (common child) on one layer merge
        for side in range(2):
            lo, hi = (a.sstart[t], a.sstart[t + 1]) if side == 0 else (a.pstart[t], a.pstart[t + 1])
            nodes = a.sdst if side == 0 else a.psrc
            ops += hi - lo
            for i in range(lo + 1, hi):
                if layer[nodes[i]] == layer[nodes[lo]]:
                    _union(spec, nodes[lo], nodes[i])
                else:
                    for j in range(lo, i):
                        if layer[nodes[j]] == layer[nodes[i]]:
                            _union(spec, nodes[j], nodes[i])
                            break
    for t in range(m):
        spec[t] = _find(spec, t)
    return ops


def cndg(inst: Instance, chains: bool) -> tuple[SpecGraph, int]:
    """Cluster the task graph (module docstring); the Spec graph and the operations done."""
    g, a = inst.graph, inst.arrays
    layer = np.zeros(g.tasks, dtype=np.int64)
    _layers(a, layer)
    src, dst = g.src.astype(np.int64), g.dst.astype(np.int64)
    edge_order = np.lexsort((src, dst, layer[dst])).astype(np.int64)
    into = np.full(g.tasks, -1, dtype=np.int64)
    spec = np.zeros(g.tasks, dtype=np.int64)
    ops = _cndg(a, src, dst, edge_order, layer, bool(chains), into, spec)
    return SpecGraph(layer, into, spec), int(ops)


def _cluster(inst: Instance, params: ClusterMParams) -> tuple[tuple[SpecGraph, RepGraph], int]:
    spec, spec_ops = cndg(inst, params.chains)
    rep, rep_ops = cnug(inst)
    return (spec, rep), spec_ops + rep_ops


def _system_clustering_operations(inst: Instance, params: ClusterMParams) -> int:
    """CNUG's operations: the clustering of the system graph, done once per machine (CSSE00 §3.1)."""
    return cnug(inst)[1]


# --------------------------------------------------------------------------- mapping (Fig. 4)

@jit(inline="always")
def _mark(p, used, busy, parent):
    """Processor ``p`` gets work in this layer: no Rep cluster holding it is free any more; return
    1 if it was free."""
    if used[p]:
        return 0
    used[p] = True
    c = p
    while c >= 0:
        busy[c] += 1
        c = parent[c]
    return 1


@jit()
def _part(k, weight, send_proc, send_data, nsend, route_bw, rep, position, head, split_smallest,
          used, busy, out, by_ready, cluster_ready, ready):
    """The processors matched to a Spec cluster asking for ``k`` of them (module docstring), in
    ``out``: an exact-size free Rep cluster of least estimated time (members ascending), else the
    first ``k`` of a split one, else of the free processors (clustering order). Returns (how many,
    operations)."""
    delta, size, first, order, ranked = rep
    ops = ranked.shape[0]
    best, pick, exact, bigger = np.inf, -1, 0, -1
    for i in range(ranked.shape[0]):
        c = ranked[i]
        if busy[c] != 0:
            continue
        if size[c] == k:
            exact += 1
            comm = 0.0
            for j in range(nsend):
                q = send_proc[j]
                if not first[c] <= position[q] < first[c] + size[c]:
                    comm += send_data[j] / route_bw[q, head[c]]
            estimate = weight / delta[c] + comm / size[c] + (cluster_ready[c] if by_ready else 0.0)
            if estimate < best or (estimate == best and c < pick):
                best, pick = estimate, c
        elif size[c] > k and (bigger < 0 or split_smallest):
            bigger = c
    if exact:
        ops += exact * (nsend + 1)
        for j in range(size[pick]):
            out[j] = order[first[pick] + j]
        out[:size[pick]].sort()
        return size[pick], ops
    if bigger >= 0:
        if by_ready:  # the k processors of the split cluster free first (ties: clustering order)
            run = order[first[bigger]:first[bigger] + size[bigger]]
            pick_k = run[np.argsort(ready[run], kind="mergesort")[:k]]
            for j in range(k):
                out[j] = pick_k[j]
            ops += size[bigger]
            return k, ops
        for j in range(k):
            out[j] = order[first[bigger] + j]
        return k, ops
    taken = 0  # merge free processors
    if by_ready:  # those free first (ties: clustering order)
        ranked_order = order[np.argsort(ready[order], kind="mergesort")]
        ops += order.shape[0]
    else:
        ranked_order = order
    for i in range(ranked_order.shape[0]):
        if taken == k:
            break
        if not used[ranked_order[i]]:
            out[taken] = ranked_order[i]
            taken += 1
    return taken, ops


@jit()
def _place(members, weight, task_weight, send_proc, send_data, nsend, part, speed, inequality, mean_bw, proc,
           by_ready, ready):
    """Whole onto one processor (a one-processor part, or the Inequality), else round robin:
    tasks heaviest first over the part's processors fastest first. With ``by_ready``
    (``placement: earliest_free``) the processor that would finish first stands for the fastest,
    each spread task goes to the one that would finish it first, and ``ready`` grows by the work
    placed."""
    fastest = part[0]
    for p in part:
        if by_ready:
            if ready[p] + weight / speed[p] < ready[fastest] + weight / speed[fastest]:
                fastest = p
        elif speed[p] > speed[fastest]:
            fastest = p
    target = fastest
    if nsend:
        heaviest = 0
        for j in range(1, nsend):
            if send_data[j] > send_data[heaviest]:
                heaviest = j
        for p in part:
            if p == send_proc[heaviest]:
                target = p
    whole = part.shape[0] == 1 or inequality == 2
    if not whole and inequality == 0:
        saved, largest = 0.0, 0.0
        for j in range(nsend):
            if send_proc[j] == target:
                saved += send_data[j]
        for t in members:
            largest = max(largest, task_weight[t])
        whole = saved / mean_bw > (weight - largest) / speed[target]
    if whole:
        for t in members:
            proc[t] = target
        if by_ready:
            ready[target] += weight / speed[target]
        return
    heavy_first = members[np.argsort(-task_weight[members], kind="mergesort")]
    if by_ready:
        for t in heavy_first:
            best = part[0]
            for p in part:
                if ready[p] + task_weight[t] / speed[p] < ready[best] + task_weight[t] / speed[best]:
                    best = p
            proc[t] = best
            ready[best] += task_weight[t] / speed[best]
        return
    fast_first = part[np.argsort(-speed[part], kind="mergesort")]
    for i in range(heavy_first.shape[0]):
        proc[heavy_first[i]] = fast_first[i % fast_first.shape[0]]


@jit()
def _cluster_ready(ready, parent, cluster_ready):
    """Each Rep cluster's latest ``ready`` over its processors (``placement: earliest_free``)."""
    cluster_ready[:] = 0.0
    for p in range(ready.shape[0]):
        c = p
        while c >= 0:
            cluster_ready[c] = max(cluster_ready[c], ready[p])
            c = parent[c]


@jit()
def _map_layers(a, task_weight, speed, layer, into, spec, rep, parent, f_one, mean_speed, inequality,
                split_smallest, mean_bw, proc, by_ready):
    """Fig. 4 (module docstring), top down, one layer at a time; fills ``proc``; returns operations."""
    m, n = layer.shape[0], speed.shape[0]
    delta, size, first, order, ranked = rep
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    head = np.full(size.shape[0], -1)
    for p in range(n):  # each Rep cluster's fastest processor (the lowest index among equals)
        c = p
        while c >= 0:
            if head[c] < 0 or speed[p] > speed[head[c]]:
                head[c] = p
            c = parent[c]
    used = np.zeros(n, np.bool_)
    busy = np.zeros(size.shape[0], np.int64)
    by_layer = np.argsort(layer, kind="mergesort")
    free = np.zeros(m, np.int64)
    groups = np.zeros(m + 1, np.int64)
    g_size, g_weight, g_sum, g_max, g_first = (np.zeros(m), np.zeros(m), np.zeros(m), np.zeros(m),
                                               np.zeros(m, np.int64))
    send_proc = np.zeros(a.psrc.shape[0] + 1, np.int64)
    send_data = np.zeros(a.psrc.shape[0] + 1)
    out = np.zeros(n, np.int64)
    ready = np.zeros(n)
    cluster_ready = np.zeros(size.shape[0])
    ops, lo = 0, 0
    while lo < m:
        hi = lo
        while hi < m and layer[by_layer[hi]] == layer[by_layer[lo]]:
            hi += 1
        used[:] = False
        busy[:] = 0
        nused, nfree = 0, 0
        for i in range(lo, hi):  # a task embedded into an earlier one follows it
            t = by_layer[i]
            if into[t] >= 0:
                proc[t] = proc[into[t]]
                nused += _mark(proc[t], used, busy, parent)
                if by_ready:
                    ready[proc[t]] += task_weight[t] / speed[proc[t]]
            else:
                free[nfree] = t
                nfree += 1
        ops += hi - lo
        lo = hi
        if nfree == 0:
            continue
        if by_ready:
            _cluster_ready(ready, parent, cluster_ready)
        tasks = free[:nfree][np.argsort(spec[free[:nfree]], kind="mergesort")]  # by Spec cluster
        ng = 0
        groups[0] = 0
        for i in range(1, nfree + 1):
            if i == nfree or spec[tasks[i]] != spec[tasks[i - 1]]:
                ng += 1
                groups[ng] = i
        for g in range(ng):  # the sort key of each Spec cluster: (σ, δ, Π, π, first task)
            nsend, weight, total, largest = 0, 0.0, 0.0, 0.0
            for i in range(groups[g], groups[g + 1]):
                weight += task_weight[tasks[i]]
                for e in range(a.pstart[tasks[i]], a.pstart[tasks[i] + 1]):
                    total += a.pdata[e]
                    largest = max(largest, a.pdata[e])
                    nsend += 1
            ops += groups[g + 1] - groups[g] + nsend
            g_size[g], g_weight[g], g_sum[g], g_max[g] = groups[g + 1] - groups[g], weight, total, largest
            g_first[g] = tasks[groups[g]]
        rank = np.argsort(g_first[:ng])
        for key in (g_max, g_sum, g_weight, g_size):
            rank = rank[np.argsort(-key[:ng][rank], kind="mergesort")]
        for g in rank:
            members = tasks[groups[g]:groups[g + 1]]
            nsend = 0
            for t in members:
                for e in range(a.pstart[t], a.pstart[t + 1]):
                    send_proc[nsend], send_data[nsend] = proc[a.psrc[e]], a.pdata[e]
                    nsend += 1
            count = members.shape[0]
            f = 1.0 if f_one else min(1.0, (g_weight[g] / count) / mean_speed)
            k = max(1, math.ceil(f * count - 1e-9))
            if nused == n:  # a layer wider than the machine: start a new round
                used[:] = False
                busy[:] = 0
                nused = 0
                if by_ready:
                    _cluster_ready(ready, parent, cluster_ready)
            taken, o = _part(k, g_weight[g], send_proc, send_data, nsend, a.route_bw, rep, position, head,
                             split_smallest, used, busy, out, by_ready, cluster_ready, ready)
            ops += o
            part = out[:taken].copy()
            for p in part:
                nused += _mark(p, used, busy, parent)
            _place(members, g_weight[g], task_weight, send_proc, send_data, nsend, part, speed, inequality,
                   mean_bw, proc, by_ready, ready)
            ops += count + taken
    return ops


def _map(inst: Instance, params: ClusterMParams, rng: np.random.Generator | None,
         clusters: tuple[SpecGraph, RepGraph]) -> Plan:
    spec, rep = clusters
    n = inst.processors
    proc = np.full(inst.tasks, -1, dtype=np.int64)
    off = ~np.eye(n, dtype=bool)
    mean_bw = float(np.mean(inst.arrays.route_bw[off])) if n > 1 else math.inf
    table = (rep.params[:, 1].copy(), rep.params[:, 0].astype(np.int64), rep.first, rep.order, rep.ranked)
    ops = _map_layers(inst.arrays, inst.graph.weight.astype(np.float64), inst.system.speed.astype(np.float64),
                      spec.layer, spec.embedded_into, spec.spec, table, rep.parent, params.f_rule == "one",
                      float(inst.system.speed.mean()), INEQUALITIES.index(params.inequality),
                      params.split == "smallest", mean_bw, proc, params.placement == "earliest_free")
    return Plan(proc=proc, key=spec.layer.astype(np.float64), ops=int(ops))


POLICY = mapping_policy("cluster_m", params=ClusterMParams,
                        examples=({}, {"f_rule": "one", "inequality": "never", "split": "first"},
                                  {"inequality": "always", "chains": False}, {"placement": "earliest_free"}),
                        map=_map, cluster=_cluster,
                        system_clustering_operations=_system_clustering_operations)
