"""From a point's ``workload`` and ``system`` sections to a task graph, a system graph and kernel arrays.

Workload kinds (``conf/workload/*.yaml``):

- ``random_dag``: :func:`~sweep.workloads.task_graphs.random_dag` with ``size``,
  ``fat``, ``density``, ``regularity``, ``jump`` and the ``weights`` and
  ``data`` distributions; one new graph per replication.
- ``stg``: an STG file (``path``); its edges get data from ``data`` each replication.
- ``json``: a JSON task graph (``path``), data as in the file (a cost
  matrix, as in the worked example of Topcuoglu et al. 2002, if it has one).
- ``edges``: a plain-text edge list (``path``), data as in the file.

A distribution is ``{kind: uniform_int, low, high}`` (integers, both ends
included: U{1..5}, the reconstructed default of CSSE00 Table 1), ``{kind:
constant, value}``, or any kind of :func:`sweep.workloads.make_distribution`.

System kinds (``conf/system/*.yaml``): ``random`` (``processors``, ``degree``,
``low``, ``high``), ``topology`` (``topology``, ``size``, ``weights`` uniform
or random, ``speed``, ``bandwidth``, ``low``, ``high``) and ``file`` (``path``).
``seed``: an integer fixes the system graph for every replication (CSSE00 ran
one random 100-processor system); ``null`` draws one per replication.
``contention``: whether messages compete for links (``_core``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.families.mapping._core import Arrays
from sweep.workloads.config import make_distribution
from sweep.workloads.named import resolve_trace_path
from sweep.workloads.task_graphs import (
    TOPOLOGIES,
    Routes,
    SystemGraph,
    TaskGraph,
    TaskGraphError,
    random_dag,
    random_system,
    read_edge_list,
    read_json_graph,
    read_stg,
    read_system,
    routes,
    topology,
)

_READERS = {"stg": read_stg, "json": read_json_graph, "edges": read_edge_list}


def _u1to5() -> dict[str, Any]:
    """U{1..5}: the reconstructed weight and data distribution of CSSE00 Table 1."""
    return {"kind": "uniform_int", "low": 1, "high": 5}


@dataclass(frozen=True)
class RandomDag:
    """``kind: random_dag`` (module docstring; :func:`~sweep.workloads.task_graphs.random_dag`)."""

    size: int = 100
    fat: float = 0.5
    density: float = 0.2
    regularity: float = 0.5
    jump: int = 1
    weights: Mapping[str, Any] = field(default_factory=_u1to5)
    data: Mapping[str, Any] = field(default_factory=_u1to5)


@dataclass(frozen=True)
class StgGraph:
    """``kind: stg``: an STG file; its edges' data drawn from ``data`` each replication."""

    path: str
    data: Mapping[str, Any] = field(default_factory=_u1to5)


@dataclass(frozen=True)
class GraphFile:
    """``kind: json`` or ``kind: edges``: a task graph file, data as in the file."""

    path: str


#: The workload kinds of the mapping family and their options (the config schemas).
WORKLOADS = {"random_dag": RandomDag, "stg": StgGraph, "json": GraphFile, "edges": GraphFile}
WORKLOAD_KINDS = tuple(WORKLOADS)


@dataclass(frozen=True)
class RandomSystem:
    """``kind: random``: a random connected graph, speeds and bandwidths U{low..high}."""

    kind: str = "random"
    processors: int = 100
    degree: float = 4.0
    low: int = 1
    high: int = 5
    seed: int | None = None
    contention: bool = True


@dataclass(frozen=True)
class TopologySystem:
    """``kind: topology``: a named topology with uniform or random weights."""

    kind: str = "topology"
    topology: str = "mesh"
    size: Any = field(default_factory=lambda: [4, 4])
    weights: str = "uniform"
    speed: float = 1.0
    bandwidth: float = 1.0
    low: int = 1
    high: int = 5
    seed: int | None = None
    contention: bool = True


@dataclass(frozen=True)
class SystemFile:
    """``kind: file``: a system graph read from a JSON file."""

    path: str
    kind: str = "file"
    seed: int | None = None
    contention: bool = True


#: The kinds of system graph and their options (the config schemas).
SYSTEMS = {"random": RandomSystem, "topology": TopologySystem, "file": SystemFile}
SYSTEM_KINDS = tuple(SYSTEMS)


@dataclass(frozen=True, eq=False)
class Instance:
    """One mapping problem: the graphs, the routes and the kernels' arrays."""

    graph: TaskGraph
    system: SystemGraph
    routes: Routes
    arrays: Any
    wbar: np.ndarray
    cbar: float

    @property
    def tasks(self) -> int:
        return self.graph.tasks

    @property
    def processors(self) -> int:
        return self.system.processors


# --------------------------------------------------------------------------- distributions

def sampler(spec: Any, option: str):
    """``draw(rng, n)`` for a distribution spec (module docstring); one-line ValueError otherwise."""
    if not isinstance(spec, Mapping) or "kind" not in spec:
        raise ValueError(f"{option} must be a mapping with a 'kind', got {spec!r}")
    kind = spec["kind"]
    if kind == "uniform_int":
        low, high = spec.get("low", 1), spec.get("high", 5)
        integers = all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high))
        if not integers or not 0 <= low <= high:
            raise ValueError(f"{option}: uniform_int needs integers 0 <= low <= high, got {low!r}, {high!r}")
        return lambda rng, n: rng.integers(low, high + 1, size=n).astype(np.float64)
    if kind == "constant":
        value = spec.get("value")
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(f"{option}: constant needs a value >= 0, got {value!r}")
        return lambda rng, n: np.full(n, float(value))
    try:
        dist = make_distribution(spec)
    except ValueError as error:
        raise ValueError(f"{option}: {error}") from None
    return lambda rng, n: dist.sample(rng, n)


# --------------------------------------------------------------------------- task graphs

def _require(cfg: Mapping[str, Any], key: str, section: str) -> Any:
    if cfg.get(key) in (None, "???"):
        raise ValueError(f"{section}.{key} is required")
    return cfg[key]


@functools.lru_cache(maxsize=16)
def _read_graph(kind: str, path: str) -> TaskGraph:
    resolved = resolve_trace_path(path)
    if not resolved.exists():
        raise TaskGraphError(f"{path}: no such task graph file")
    return _READERS[kind](resolved)


def _int_option(cfg: Mapping[str, Any], key: str, default: int, minimum: int, section: str) -> int:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{section}.{key} must be an integer >= {minimum}, got {value!r}")
    return value


def _float_option(cfg: Mapping[str, Any], key: str, default: float, low: float, high: float,
                  section: str) -> float:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"{section}.{key} must be a number in [{low}, {high}], got {value!r}")
    return float(value)


def task_graph(cfg: Mapping[str, Any], rng: np.random.Generator) -> TaskGraph:
    """The workload's task graph (drawn with ``rng`` where random)."""
    kind = cfg.get("kind")
    if kind == "random_dag":
        size = _int_option(cfg, "size", 100, 1, "workload")
        fat = _float_option(cfg, "fat", 0.5, 1e-9, 1.0, "workload")
        density = _float_option(cfg, "density", 0.2, 0.0, 1.0, "workload")
        regularity = _float_option(cfg, "regularity", 0.5, 0.0, 1.0, "workload")
        jump = _int_option(cfg, "jump", 1, 1, "workload")
        weights = sampler(cfg.get("weights", {"kind": "uniform_int"}), "workload.weights")
        data = sampler(cfg.get("data", {"kind": "uniform_int"}), "workload.data")
        return random_dag(rng, size, fat=fat, density=density, regularity=regularity, jump=jump,
                          weights=weights, data=data)
    if kind in _READERS:
        graph = _read_graph(kind, str(_require(cfg, "path", "workload")))
        if kind == "stg":
            data = sampler(cfg.get("data", {"kind": "uniform_int"}), "workload.data")
            graph = graph.with_data(data(rng, graph.edges))
        return graph
    raise ValueError(f"workload.kind must be one of {', '.join(WORKLOAD_KINDS)} for the mapping family, "
                     f"got {kind!r}")


# --------------------------------------------------------------------------- system graphs

def _system_key(cfg: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in cfg.items() if k != "contention"}, sort_keys=True, default=str)


@functools.lru_cache(maxsize=8)
def _fixed_system(key: str) -> tuple[SystemGraph, Routes]:
    cfg = json.loads(key)
    system = system_graph(cfg, np.random.default_rng(cfg["seed"]))
    return system, routes(system)


def system_graph(cfg: Mapping[str, Any], rng: np.random.Generator) -> SystemGraph:
    """The system section's graph, drawn with ``rng`` where random."""
    kind = cfg.get("kind")
    low = _int_option(cfg, "low", 1, 1, "system")
    high = _int_option(cfg, "high", 5, low, "system")
    if kind == "random":
        n = _int_option(cfg, "processors", 100, 1, "system")
        degree = _float_option(cfg, "degree", 4.0, 0.0, float(max(n - 1, 0)), "system")
        return random_system(rng, n, degree=degree, low=low, high=high)
    if kind == "topology":
        name = cfg.get("topology")
        if name not in TOPOLOGIES:
            raise ValueError(f"system.topology must be one of {', '.join(TOPOLOGIES)}, got {name!r}")
        size = cfg.get("size")
        size = (size,) if isinstance(size, int) and not isinstance(size, bool) else size
        want = 2 if name in ("mesh", "torus") else 1
        if not isinstance(size, list | tuple) or len(size) != want or \
                not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in size):
            raise ValueError(f"system.size of a {name} must be {want} positive integer(s), got {size!r}")
        weights = cfg.get("weights", "uniform")
        if weights not in ("uniform", "random"):
            raise ValueError(f"system.weights must be uniform or random, got {weights!r}")
        speed = _float_option(cfg, "speed", 1.0, 1e-12, np.inf, "system")
        bandwidth = _float_option(cfg, "bandwidth", 1.0, 1e-12, np.inf, "system")
        return topology(name, tuple(size), rng=rng if weights == "random" else None, speed=speed,
                        bandwidth=bandwidth, low=low, high=high)
    if kind == "file":
        path = resolve_trace_path(str(_require(cfg, "path", "system")))
        if not path.exists():
            raise TaskGraphError(f"{cfg['path']}: no such system graph file")
        return read_system(path)
    raise ValueError(f"system.kind must be one of {', '.join(SYSTEM_KINDS)} for the mapping family, "
                     f"got {kind!r}")


def system_and_routes(cfg: Mapping[str, Any], rng: np.random.Generator) -> tuple[SystemGraph, Routes]:
    """Fixed (``seed`` an integer: built once, cached) or drawn from ``rng`` (``seed: null``)."""
    seed = cfg.get("seed")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"system.seed must be null or an integer >= 0, got {seed!r}")
        return _fixed_system(_system_key(cfg))
    system = system_graph(cfg, rng)
    return system, routes(system)


# --------------------------------------------------------------------------- kernel arrays

def _csr(key: np.ndarray, other: np.ndarray, data: np.ndarray, m: int):
    order = np.lexsort((other, key))
    start = np.zeros(m + 1, dtype=np.int64)
    start[1:] = np.cumsum(np.bincount(key, minlength=m))
    return start, np.ascontiguousarray(other[order]), np.ascontiguousarray(data[order])


def instance(graph: TaskGraph, system: SystemGraph, rts: Routes, contention: bool = True) -> Instance:
    """The kernels' view of a graph on a system (``_core.Arrays``), with mean costs for ranks."""
    m, n = graph.tasks, system.processors
    if graph.cost is not None:
        if graph.cost.shape[1] != n:
            raise ValueError(f"workload {graph.name}: its cost matrix has {graph.cost.shape[1]} processors, "
                             f"the system {n}")
        exec_time = graph.cost
    else:
        exec_time = graph.weight[:, None] / system.speed[None, :]
    pstart, psrc, pdata = _csr(graph.dst, graph.src, graph.data, m)
    sstart, sdst, sdata = _csr(graph.src, graph.dst, graph.data, m)
    topo = np.empty(m, dtype=np.int64)
    topo[:] = graph.order
    arrays = Arrays(np.ascontiguousarray(exec_time), pstart, psrc, pdata, sstart, sdst, sdata,
                    rts.bandwidth, rts.start, rts.channels, bool(contention), topo, 2 * system.links)
    off = ~np.eye(n, dtype=bool)
    cbar = float(np.mean(1.0 / rts.bandwidth[off])) if n > 1 else 0.0
    return Instance(graph, system, rts, arrays, exec_time.mean(axis=1), cbar)


def channel_tables(inst: Instance):
    """Empty reservation tables of every channel (start, finish, count), as wide as the graph has
    edges (a channel holds at most one reservation per edge), so they never fill. ``np.zeros``
    commits only the pages touched: the unused width costs address space, not memory. Kernels
    still report a full table; the tables are then offered no wider (the iteration ends)."""
    channels = max(inst.arrays.channels, 1)
    width = max(inst.graph.edges, 1)
    yield np.zeros((channels, width)), np.zeros((channels, width)), np.zeros(channels, dtype=np.int64)


def build(workload: Mapping[str, Any], system: Mapping[str, Any], rng_graph: np.random.Generator,
          rng_system: np.random.Generator) -> Instance:
    """The instance of one replication."""
    graph = task_graph(workload, rng_graph)
    sys_graph, rts = system_and_routes(system, rng_system)
    contention = system.get("contention", True)
    if not isinstance(contention, bool):
        raise ValueError(f"system.contention must be true or false, got {contention!r}")
    return instance(graph, sys_graph, rts, contention)
