"""Task graphs and system graphs for static mapping (pure numpy; CSSE00 §1.1).

A **task graph** is a DAG: node weight = computation, edge weight = data to
send (CSSE00 §1.1). Optionally it carries a task × processor cost matrix
(unrelated machines, as in the worked example of Topcuoglu, Hariri & Wu 2002);
otherwise a task's time on processor p is its weight over p's speed.

A **system graph** is an undirected connected graph: node weight = processor
speed, edge weight = link bandwidth (CSSE00 §1.1). Messages follow fixed
routes: fewest hops, ties broken by the widest bottleneck, then by the lowest
node index (the routing tables of El-Rewini & Lewis 1990 as the secondary
literature describes them: hop count and a preferred link; reconstruction).
A route's bandwidth is its bottleneck's; a message of data d takes d / that.

Readers (one-line ``TaskGraphError`` naming file and line for bad input):

- :func:`read_stg`: the Standard Task Graph format (Tobita & Kasahara 2002):
  first line the task count n (the two dummy tasks excluded, or included:
  both occur), then one line ``id weight npred pred...`` per task, ``#``
  comment lines at the end. The dummy entry (0) and exit (n+1) tasks, of zero
  weight, are dropped, so critical paths and total work are unchanged. STG
  graphs carry no data: edges get ``data = 0``; callers draw data.
- :func:`read_json_graph`: ``{"weights": [w...], "edges": [[u, v, data]...]}``
  with tasks numbered from 0, or the worked-example layout
  ``{"computation_cost": {"1": [c_p...]...}, "communication_cost": [[u, v, c]...]}``
  with tasks numbered from 1 (a cost matrix).
- :func:`read_edge_list`: plain text, one ``task <id> <weight>`` or
  ``edge <from> <to> <data>`` per line, tasks numbered from 0, every task
  declared, ``#`` comments.
- :func:`read_system`: ``{"speed": [s...], "links": [[a, b, bandwidth]...]}``.

Generators: :func:`random_dag` (layered, ``daggen``-style size / fat /
density / regularity / jump; Suter's generator as used in the list-scheduling
literature), :func:`random_system` (a random spanning tree plus random extra
links to a target mean degree) and :func:`topology` (mesh, torus, hypercube,
fully connected, star).

Shipped graphs (package data, in every wheel): :data:`SHIPPED` holds the
three STG application graphs and the worked example of Topcuoglu et al.
(2002); workload configs name them as ``sweep/data/task_graphs/<file>``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.workloads._files import cannot_read_whole

__all__ = ["SHIPPED", "TOPOLOGIES", "Routes", "SystemGraph", "TaskGraph", "TaskGraphError", "critical_path",
           "random_dag", "random_system", "read_edge_list", "read_json_graph", "read_stg", "read_system",
           "routes", "stg_statistics", "topology"]

TOPOLOGIES = ("mesh", "torus", "hypercube", "full", "star")

#: The task graphs shipped inside the package (``sweep/data/task_graphs``; README.md there).
SHIPPED = Path(__file__).resolve().parents[1] / "data" / "task_graphs"


class TaskGraphError(ValueError):
    """A graph that cannot be used; the message is one line, ``<file>:<line>: <what>`` if from a file."""


@dataclass(frozen=True, eq=False)
class TaskGraph:
    """A DAG of ``M`` tasks: ``weight[t]``, edges ``src[e] -> dst[e]`` carrying ``data[e]``.

    ``cost`` (M × P) overrides weight/speed when given. ``order`` is a
    topological order (checked on construction: a cycle raises).
    """

    weight: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    data: np.ndarray
    cost: np.ndarray | None = None
    name: str = "graph"

    def __post_init__(self) -> None:
        m = len(self.weight)
        for key in ("weight", "data"):
            object.__setattr__(self, key, np.ascontiguousarray(getattr(self, key), dtype=np.float64))
        for key in ("src", "dst"):
            object.__setattr__(self, key, np.ascontiguousarray(getattr(self, key), dtype=np.int64))
        if m == 0:
            raise TaskGraphError(f"{self.name}: a task graph needs at least one task")
        if not (len(self.src) == len(self.dst) == len(self.data)):
            raise TaskGraphError(f"{self.name}: src, dst and data must have one length")
        if np.any(~np.isfinite(self.weight)) or np.any(self.weight < 0):
            raise TaskGraphError(f"{self.name}: task {int(np.argmax(~(self.weight >= 0)))} has a negative "
                                 f"or non-finite weight")
        if len(self.data) and (np.any(~np.isfinite(self.data)) or np.any(self.data < 0)):
            raise TaskGraphError(f"{self.name}: an edge has a negative or non-finite data weight")
        if len(self.src) and (min(self.src.min(), self.dst.min()) < 0 or max(self.src.max(),
                                                                             self.dst.max()) >= m):
            raise TaskGraphError(f"{self.name}: an edge names a task outside 0..{m - 1}")
        if np.any(self.src == self.dst):
            raise TaskGraphError(f"{self.name}: a self-loop at task {int(self.src[self.src == self.dst][0])}")
        if self.cost is not None:
            cost = np.ascontiguousarray(self.cost, dtype=np.float64)
            if cost.ndim != 2 or cost.shape[0] != m or np.any(~np.isfinite(cost)) or np.any(cost < 0):
                raise TaskGraphError(f"{self.name}: the cost matrix must be {m} x P, finite, >= 0")
            object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "order", _topological_order(m, self.src, self.dst, self.name))

    @property
    def tasks(self) -> int:
        return len(self.weight)

    @property
    def edges(self) -> int:
        return len(self.src)

    def with_data(self, data: np.ndarray) -> TaskGraph:
        """The same graph with new edge data."""
        return TaskGraph(self.weight, self.src, self.dst, data, self.cost, self.name)


@jit()
def _kahn(m, src, dst, indeg, order):
    """Kahn's algorithm with a binary heap: the smallest index first among ready tasks. Fills
    ``order``; returns how many tasks it holds (fewer than ``m``: a cycle; ``indeg`` > 0 on it)."""
    start = np.zeros(m + 1, np.int64)
    for e in range(src.shape[0]):
        indeg[dst[e]] += 1
        start[src[e] + 1] += 1
    for t in range(m):
        start[t + 1] += start[t]
    succ, fill = np.zeros(src.shape[0], np.int64), start[:m].copy()
    for e in range(src.shape[0]):
        succ[fill[src[e]]] = dst[e]
        fill[src[e]] += 1
    heap, size, placed = np.zeros(m, np.int64), 0, 0
    for t in range(m):
        if indeg[t] == 0:
            heap[size] = t  # ascending: already a heap
            size += 1
    while size:
        t = heap[0]
        size -= 1
        last, i = heap[size], 0
        while 2 * i + 1 < size:  # sift the last entry down from the root
            child = 2 * i + 1
            if child + 1 < size and heap[child + 1] < heap[child]:
                child += 1
            if heap[child] >= last:
                break
            heap[i] = heap[child]
            i = child
        heap[i] = last
        order[placed] = t
        placed += 1
        for j in range(start[t], start[t + 1]):
            v = succ[j]
            indeg[v] -= 1
            if indeg[v] == 0:
                i = size  # sift up
                size += 1
                while i > 0 and heap[(i - 1) // 2] > v:
                    heap[i] = heap[(i - 1) // 2]
                    i = (i - 1) // 2
                heap[i] = v
    return placed


def _topological_order(m: int, src: np.ndarray, dst: np.ndarray, name: str) -> np.ndarray:
    """Kahn's algorithm, smallest index first among ready tasks; a cycle raises."""
    indeg, order = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64)
    if _kahn(m, src, dst, indeg, order) != m:
        raise TaskGraphError(f"{name}: the task graph has a cycle (through task "
                             f"{int(np.flatnonzero(indeg > 0)[0])})")
    return order


@jit()
def _longest_path(order, src, dst, node, edge):
    m = order.shape[0]
    start = np.zeros(m + 1, np.int64)
    for e in range(dst.shape[0]):
        start[dst[e] + 1] += 1
    for t in range(m):
        start[t + 1] += start[t]
    incoming, fill = np.zeros(dst.shape[0], np.int64), start[:m].copy()
    for e in range(dst.shape[0]):
        incoming[fill[dst[e]]] = e
        fill[dst[e]] += 1
    finish = np.zeros(m)
    for t in order:
        ready = 0.0
        for j in range(start[t], start[t + 1]):
            e = incoming[j]
            ready = max(ready, finish[src[e]] + edge[e])
        finish[t] = ready + node[t]
    return finish.max()


def critical_path(graph: TaskGraph, node_time: np.ndarray | None = None,
                  edge_time: np.ndarray | None = None) -> float:
    """Longest path length, node times (default the weights) plus edge times (default 0)."""
    node = graph.weight if node_time is None else np.asarray(node_time, dtype=np.float64)
    edge = np.zeros(graph.edges) if edge_time is None else np.asarray(edge_time, dtype=np.float64)
    return float(_longest_path(graph.order, graph.src, graph.dst, node, edge))


# --------------------------------------------------------------------------- readers

def _fail(path: Path | str, line: int | None, what: str) -> TaskGraphError:
    where = f"{path}:{line}" if line is not None else f"{path}"
    return TaskGraphError(f"{where}: {what}")


#: The largest task-graph file read: the STG sets' largest graphs are a few MiB.
MAX_GRAPH_BYTES = 64 * 2**20


def _read_text(path: Path) -> str:
    """The text of a regular file of at most :data:`MAX_GRAPH_BYTES` (a device or pipe would be read
    without end)."""
    try:
        if problem := cannot_read_whole(path.stat(), MAX_GRAPH_BYTES, "task graph file"):
            raise _fail(path, None, problem)
        return path.read_text()
    except OSError as error:
        raise _fail(path, None, f"cannot read: {error.strerror or error}") from None


def read_stg(path: str | Path) -> TaskGraph:
    """A Standard Task Graph file (module docstring); dummy tasks dropped, data 0."""
    path = Path(path)
    lines = _read_text(path).splitlines()
    rows: list[tuple[int, list[int]]] = []
    first: int | None = None
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            fields = [int(x) for x in text.split()]
        except ValueError:
            raise _fail(path, number, f"not an STG line (integers expected): {text[:40]!r}") from None
        if first is None:
            if len(fields) != 1 or fields[0] < 1:
                raise _fail(path, number, "not an STG file: the first line must be the task count")
            first = fields[0]
            continue
        if len(fields) < 3 or fields[2] < 0 or len(fields) != 3 + fields[2]:
            raise _fail(path, number, "an STG task line is 'id weight npred pred...' with npred preds")
        if fields[0] != len(rows):
            raise _fail(path, number, f"task id {fields[0]} out of sequence (expected {len(rows)})")
        if fields[1] < 0:
            raise _fail(path, number, f"task {fields[0]} has a negative weight {fields[1]}")
        rows.append((number, fields))
    if first is None:
        raise _fail(path, None, "not an STG file: empty")
    if len(rows) not in (first, first + 2):
        raise _fail(path, None, f"the first line says {first} tasks, the file has {len(rows)} task lines")
    n = len(rows)
    weights, src, dst = np.zeros(n), [], []
    for number, fields in rows:
        t = fields[0]
        weights[t] = fields[1]
        for p in fields[3:]:
            if not 0 <= p < n:
                raise _fail(path, number, f"task {t} names a missing predecessor {p}")
            if p >= t:
                raise _fail(path, number, f"task {t} names predecessor {p} >= itself (a cycle)")
            src.append(p)
            dst.append(t)
    src_a, dst_a = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    # drop the dummy entry (task 0) and exit (task n-1) when both have zero weight
    if n >= 3 and weights[0] == 0 and weights[n - 1] == 0:
        keep = (src_a != 0) & (dst_a != n - 1)
        src_a, dst_a, weights = src_a[keep] - 1, dst_a[keep] - 1, weights[1:n - 1]
    return TaskGraph(weights, src_a, dst_a, np.zeros(len(src_a)), name=path.name)


def stg_statistics(path: str | Path) -> dict[str, float]:
    """The set's own figures printed in an STG file's ``#`` footer (``CP Length``, ``Tasks``...)."""
    found: dict[str, float] = {}
    for line in Path(path).read_text().splitlines():
        if line.startswith("#") and ":" in line:
            key, _, value = line[1:].partition(":")
            token = value.split()[0] if value.split() else ""
            try:
                found[key.strip()] = float(token)
            except ValueError:
                continue
    return found


def _load_json(path: Path) -> Any:
    text = _read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(path, error.lineno, f"not JSON: {error.msg}") from None
    except RecursionError:  # e.g. 100,000 nested "[": deeper than any task graph
        raise _fail(path, None, "not a task graph: JSON nested too deeply") from None


def read_json_graph(path: str | Path) -> TaskGraph:
    """A JSON task graph: the plain layout or the worked-example layout (module docstring)."""
    path = Path(path)
    doc = _load_json(path)
    if not isinstance(doc, Mapping):
        raise _fail(path, None, "a task graph file is a JSON object")
    try:
        if "computation_cost" in doc:
            costs = doc["computation_cost"]
            m = len(costs)
            cost = np.asarray([costs[str(t + 1)] for t in range(m)], dtype=np.float64)
            edges = np.asarray(doc.get("communication_cost", []), dtype=np.float64).reshape(-1, 3)
            src, dst = edges[:, 0].astype(np.int64) - 1, edges[:, 1].astype(np.int64) - 1
            return TaskGraph(cost.mean(axis=1), src, dst, edges[:, 2], cost=cost, name=path.name)
        weights = np.asarray(doc["weights"], dtype=np.float64)
        edges = np.asarray(doc.get("edges", []), dtype=np.float64).reshape(-1, 3)
    except (KeyError, TypeError, ValueError) as error:
        raise _fail(path, None, f"not a task graph ({type(error).__name__}: {error})") from None
    if np.any(edges[:, :2] != np.round(edges[:, :2])):
        raise _fail(path, None, "edge endpoints must be integers")
    try:
        return TaskGraph(weights, edges[:, 0].astype(np.int64), edges[:, 1].astype(np.int64),
                         edges[:, 2], name=path.name)
    except TaskGraphError as error:
        raise _fail(path, None, str(error).split(": ", 1)[-1]) from None


def read_edge_list(path: str | Path) -> TaskGraph:
    """A plain-text task graph (module docstring); errors name the file and the line."""
    path = Path(path)
    lines = _read_text(path).splitlines()
    weights: dict[int, float] = {}
    edges: list[tuple[int, int, float, int]] = []
    for number, raw in enumerate(lines, 1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        kind, values = fields[0], fields[1:]
        try:
            if kind == "task" and len(values) == 2:
                t, w = int(values[0]), float(values[1])
                if t < 0 or t in weights:
                    raise _fail(path, number, f"task {t} is negative or declared twice")
                if not w >= 0 or not np.isfinite(w):
                    raise _fail(path, number, f"task {t} has a negative weight {values[1]}")
                weights[t] = w
            elif kind == "edge" and len(values) == 3:
                u, v, d = int(values[0]), int(values[1]), float(values[2])
                if not d >= 0 or not np.isfinite(d):
                    raise _fail(path, number, f"edge {u} -> {v} has a negative data weight {values[2]}")
                edges.append((u, v, d, number))
            else:
                raise _fail(path, number, "expected 'task <id> <weight>' or 'edge <from> <to> <data>'")
        except ValueError as error:
            if isinstance(error, TaskGraphError):
                raise
            raise _fail(path, number, f"not a number in {raw.strip()[:40]!r}") from None
    if sorted(weights) != list(range(len(weights))) or not weights:
        raise _fail(path, None, "tasks must be numbered 0, 1, ..., n-1 with none missing")
    for u, v, _, number in edges:
        if u not in weights or v not in weights:
            raise _fail(path, number, f"edge {u} -> {v} names a missing task")
    m = len(weights)
    graph_edges = np.asarray([(u, v, d) for u, v, d, _ in edges], dtype=np.float64).reshape(-1, 3)
    try:
        return TaskGraph(np.asarray([weights[t] for t in range(m)]), graph_edges[:, 0].astype(np.int64),
                         graph_edges[:, 1].astype(np.int64), graph_edges[:, 2], name=path.name)
    except TaskGraphError as error:
        raise _fail(path, None, str(error).split(": ", 1)[-1]) from None


# --------------------------------------------------------------------------- random DAGs

def random_dag(rng: np.random.Generator, size: int, *, fat: float = 0.5, density: float = 0.2,
               regularity: float = 0.5, jump: int = 1,
               weights: Callable[[np.random.Generator, int], np.ndarray] | None = None,
               data: Callable[[np.random.Generator, int], np.ndarray] | None = None) -> TaskGraph:
    """A layered random DAG of ``size`` tasks (``daggen``-style; module docstring).

    Levels are filled in order, each with ``round(size**fat * U(regularity, 2 - regularity))``
    tasks (at least 1). A task of level l > 0 gets an edge from each task of
    levels ``l - jump .. l - 1`` with probability ``density``, and at least one
    from level ``l - 1`` (drawn uniformly) so that its level is its depth.
    Weights and data default to U{1..5}.
    """
    if size < 1 or not 0 < fat <= 1 or not 0 <= density <= 1 or not 0 <= regularity <= 1 or jump < 1:
        raise ValueError(f"random_dag: size >= 1, fat in (0, 1], density and regularity in [0, 1], "
                         f"jump >= 1; got {size}, {fat}, {density}, {regularity}, {jump}")
    draw_int = lambda g, n: g.integers(1, 6, size=n).astype(np.float64)  # noqa: E731
    weights = weights or draw_int
    data = data or draw_int
    width = size ** fat
    levels: list[np.ndarray] = []
    placed = 0
    while placed < size:
        count = int(round(width * rng.uniform(regularity, 2.0 - regularity))) if regularity < 1 \
            else int(round(width))
        count = min(max(count, 1), size - placed)
        levels.append(np.arange(placed, placed + count))
        placed += count
    src_parts, dst_parts = [], []
    for level in range(1, len(levels)):
        here = levels[level]
        earlier = np.concatenate(levels[max(0, level - jump):level])
        links = rng.random((len(here), len(earlier))) < density
        previous = levels[level - 1]
        forced = previous[rng.integers(0, len(previous), size=len(here))] - earlier[0]
        links[np.arange(len(here)), forced] = True
        rows, cols = np.nonzero(links)
        src_parts.append(earlier[cols])
        dst_parts.append(here[rows])
    src = np.concatenate(src_parts) if src_parts else np.zeros(0, dtype=np.int64)
    dst = np.concatenate(dst_parts) if dst_parts else np.zeros(0, dtype=np.int64)
    return TaskGraph(weights(rng, size), src, dst, data(rng, len(src)), name=f"random_dag({size})")


# --------------------------------------------------------------------------- system graphs

@dataclass(frozen=True, eq=False)
class SystemGraph:
    """``N`` processors of ``speed[i]`` joined by links ``a[l] - b[l]`` of ``bandwidth[l]``."""

    speed: np.ndarray
    a: np.ndarray
    b: np.ndarray
    bandwidth: np.ndarray
    name: str = "system"

    def __post_init__(self) -> None:
        object.__setattr__(self, "speed", np.ascontiguousarray(self.speed, dtype=np.float64))
        object.__setattr__(self, "bandwidth", np.ascontiguousarray(self.bandwidth, dtype=np.float64))
        lo, hi = np.minimum(self.a, self.b), np.maximum(self.a, self.b)
        object.__setattr__(self, "a", np.ascontiguousarray(lo, dtype=np.int64))
        object.__setattr__(self, "b", np.ascontiguousarray(hi, dtype=np.int64))
        n = len(self.speed)
        if n == 0:
            raise TaskGraphError(f"{self.name}: a system graph needs at least one processor")
        bad = np.flatnonzero(~(self.speed > 0) | ~np.isfinite(self.speed))
        if len(bad):
            value = float(self.speed[bad[0]])
            raise TaskGraphError(f"{self.name}: processor {int(bad[0])} has speed {value}, must be > 0")
        if len(self.a) != len(self.bandwidth) or len(self.b) != len(self.bandwidth):
            raise TaskGraphError(f"{self.name}: link endpoints and bandwidths must have one length")
        if len(self.a) and (self.a.min() < 0 or self.b.max() >= n or np.any(self.a == self.b)):
            raise TaskGraphError(f"{self.name}: a link names a processor outside 0..{n - 1} or itself")
        if np.any(~(self.bandwidth > 0)) or np.any(~np.isfinite(self.bandwidth)):
            raise TaskGraphError(f"{self.name}: every link bandwidth must be > 0 and finite")
        if len(set(zip(self.a.tolist(), self.b.tolist(), strict=True))) != len(self.a):
            raise TaskGraphError(f"{self.name}: a link is listed twice")
        reached = _component(n, self.a, self.b)
        if not reached.all():
            raise TaskGraphError(f"{self.name}: the system graph is disconnected (processor "
                                 f"{int(np.flatnonzero(~reached)[0])} unreachable from 0)")

    @property
    def processors(self) -> int:
        return len(self.speed)

    @property
    def links(self) -> int:
        return len(self.a)


def _component(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        neighbours[x].append(y)
        neighbours[y].append(x)
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    stack = [0]
    while stack:
        for y in neighbours[stack.pop()]:
            if not seen[y]:
                seen[y] = True
                stack.append(y)
    return seen


def _draw_weights(rng: np.random.Generator | None, count: int, value: float,
                  low: int, high: int) -> np.ndarray:
    """``value`` everywhere (uniform weights), or integers U{low..high} when ``rng`` is given."""
    if rng is None:
        return np.full(count, float(value))
    return rng.integers(low, high + 1, size=count).astype(np.float64)


def topology(kind: str, size: tuple[int, ...], *, rng: np.random.Generator | None = None,
             speed: float = 1.0, bandwidth: float = 1.0, low: int = 1, high: int = 5) -> SystemGraph:
    """A named topology: ``mesh``/``torus`` (rows, cols), ``hypercube`` (dim,), ``full`` / ``star`` (n,).

    Weights are ``speed``/``bandwidth`` everywhere, or U{low..high} integers when ``rng`` is given.
    A star is the bus reading of a shared medium: every processor joined to processor 0.
    """
    pairs: list[tuple[int, int]] = []
    if kind in ("mesh", "torus"):
        rows, cols = size
        n = rows * cols
        for r in range(rows):
            for c in range(cols):
                i = r * cols + c
                if c + 1 < cols or (kind == "torus" and cols > 2):
                    pairs.append((i, r * cols + (c + 1) % cols))
                if r + 1 < rows or (kind == "torus" and rows > 2):
                    pairs.append((i, ((r + 1) % rows) * cols + c))
    elif kind == "hypercube":
        n = 1 << size[0]
        pairs = [(i, i ^ (1 << k)) for i in range(n) for k in range(size[0]) if i < i ^ (1 << k)]
    elif kind == "full":
        n = size[0]
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    elif kind == "star":
        n = size[0]
        pairs = [(0, j) for j in range(1, n)]
    else:
        raise ValueError(f"system.topology must be one of {', '.join(TOPOLOGIES)}, got {kind!r}")
    pairs = sorted({(min(p), max(p)) for p in pairs})
    links = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return SystemGraph(_draw_weights(rng, n, speed, low, high), links[:, 0], links[:, 1],
                       _draw_weights(rng, len(links), bandwidth, low, high),
                       name=f"{kind}{'x'.join(map(str, size))}")


def random_system(rng: np.random.Generator, processors: int, *, degree: float = 4.0,
                  low: int = 1, high: int = 5) -> SystemGraph:
    """A random connected graph: a random spanning tree, then extra links to mean ``degree``.

    Processor ``k`` of a random permutation joins a uniformly drawn earlier one
    (a random recursive tree); then each other pair is linked with the
    probability that brings the expected mean degree to ``degree``. Speeds and
    bandwidths U{low..high} (CSSE00 §2.1: "between 1-5"; integers, a reconstruction).
    """
    n = processors
    perm = rng.permutation(n)
    pairs = {(min(perm[k], perm[j]), max(perm[k], perm[j]))
             for k in range(1, n) for j in [int(rng.integers(0, k))]}
    extra_needed = max(0.0, degree * n / 2 - (n - 1))
    candidates = n * (n - 1) / 2 - (n - 1)
    if candidates > 0 and extra_needed > 0:
        p = min(1.0, extra_needed / candidates)
        iu, ju = np.triu_indices(n, 1)
        take = rng.random(len(iu)) < p
        pairs |= set(zip(iu[take].tolist(), ju[take].tolist(), strict=True))
    links = np.asarray(sorted((int(x), int(y)) for x, y in pairs), dtype=np.int64).reshape(-1, 2)
    return SystemGraph(rng.integers(low, high + 1, size=n).astype(np.float64), links[:, 0], links[:, 1],
                       rng.integers(low, high + 1, size=len(links)).astype(np.float64),
                       name=f"random({n})")


def read_system(path: str | Path) -> SystemGraph:
    """A JSON system graph ``{"speed": [...], "links": [[a, b, bandwidth], ...]}``."""
    path = Path(path)
    doc = _load_json(path)
    try:
        speed = np.asarray(doc["speed"], dtype=np.float64)
        links = np.asarray(doc.get("links", []), dtype=np.float64).reshape(-1, 3)
    except (KeyError, TypeError, ValueError) as error:
        raise _fail(path, None, f"not a system graph ({type(error).__name__}: {error})") from None
    try:
        return SystemGraph(speed, links[:, 0].astype(np.int64), links[:, 1].astype(np.int64),
                           links[:, 2], name=path.name)
    except TaskGraphError as error:
        raise _fail(path, None, str(error).split(": ", 1)[-1]) from None


# --------------------------------------------------------------------------- routing

@dataclass(frozen=True, eq=False)
class Routes:
    """Fixed routes between every pair of processors (module docstring).

    ``hops[s, d]`` links on the route, ``bandwidth[s, d]`` its bottleneck
    (``inf`` for ``s == d``), and the route's directed channels
    ``channels[start[s * N + d] : start[s * N + d + 1]]`` in order from s to d.
    Channel ``2 l`` is link l from its lower to its higher end, ``2 l + 1`` back.
    """

    hops: np.ndarray
    bandwidth: np.ndarray
    start: np.ndarray
    channels: np.ndarray

    def route(self, s: int, d: int) -> np.ndarray:
        n = self.hops.shape[0]
        return self.channels[self.start[s * n + d]:self.start[s * n + d + 1]]


def routes(system: SystemGraph) -> Routes:
    """Every pair's route: BFS by hops, widest bottleneck among the shortest, lowest index last."""
    n = system.processors
    neighbours: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for link, (x, y) in enumerate(zip(system.a.tolist(), system.b.tolist(), strict=True)):
        neighbours[x].append((y, link))
        neighbours[y].append((x, link))
    for row in neighbours:
        row.sort()
    hops = np.zeros((n, n), dtype=np.int64)
    width = np.full((n, n), np.inf)
    paths: list[list[int]] = [[] for _ in range(n * n)]
    bw = system.bandwidth
    for s in range(n):
        dist = np.full(n, -1, dtype=np.int64)
        best = np.full(n, -np.inf)
        parent = np.full(n, -1, dtype=np.int64)
        via = np.full(n, -1, dtype=np.int64)
        dist[s], best[s] = 0, np.inf
        frontier = [s]
        while frontier:
            nxt: list[int] = []
            for x in frontier:  # frontier is in increasing index order: lowest parent wins ties
                for y, link in neighbours[x]:
                    if dist[y] == -1:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
                    if dist[y] == dist[x] + 1:
                        w = min(best[x], bw[link])
                        if w > best[y]:
                            best[y], parent[y], via[y] = w, x, link
            frontier = sorted(nxt)
        hops[s] = dist
        width[s] = best
        for d in range(n):
            chain = []
            y = d
            while y != s:
                x, link = int(parent[y]), int(via[y])
                chain.append(2 * link + (0 if x < y else 1))
                y = x
            paths[s * n + d] = chain[::-1]
    start = np.zeros(n * n + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(p) for p in paths])
    channels = np.asarray([c for p in paths for c in p], dtype=np.int64)
    return Routes(hops, width, start, channels)

