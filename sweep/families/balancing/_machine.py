"""The machine of the balancing family: P processing elements on a topology (CSSE00 §2.2).

Campos, Silva, Scherson & Eshaghian (2000), §2.2 and Tables 2–4, simulate 16 PEs
connected as a 4×4 mesh, a 4-D hypercube, a fully connected network and a
network of workstations. ``point.system`` (``conf/system/lb_*.yaml``):

``topology``
    ``mesh`` (``rows`` × ``cols``, null: the most nearly square factorisation of
    ``pes``), ``hypercube`` (``pes`` a power of two), ``fully_connected``,
    ``workstations`` (one shared medium: every pair one hop apart, one transfer
    on the medium at a time, ``medium_hold``), ``ring``, or ``file`` (``path``: an edge list,
    one ``u v`` pair of PE numbers 0..P-1 per line, ``#`` comments).
``pes``
    P (16 in the paper).
``latency``, ``overhead``
    Slices per hop of a message's flight and per message of sender/receiver
    overhead. A message over ``h`` hops takes ``h × (latency + 2·overhead)``
    slices, rounded up (at least one slice per message); a request and its answer together ``h × (2·latency +
    4·overhead)``, the network-delay formula of the authors' RoC papers
    (Campos & Scherson 2000). The values are RECONSTRUCTED (0.1 and 0.02 slices).
``task_transfer``
    Extra slices per task and hop of a migration. The published formula has
    none: ND, "the time from a request to the reception of load", is
    ``h × (2·latency + 4·overhead)``, so the load comes back in the time of one
    message (0, the default). 1 slice per task and hop is the RECONSTRUCTED
    alternative (distance and batch size then cost migrations).
``medium_hold``
    How long a transmission holds the shared medium of ``workstations``:
    ``exact``, its duration (``latency + 2·overhead``, plus the tasks'
    ``task_transfer``), so that several short messages share one slice, as
    the formula's fractions of a slice say; ``whole_slices`` (RECONSTRUCTED,
    the first version of this model): its duration rounded up to whole
    slices, so the medium carries at most one message per slice.
``cpu_overhead``
    true: each message sent or received also costs its PE ``overhead`` slices
    of CPU, taken from the tasks it runs (the LogP reading of "overhead",
    RECONSTRUCTED); false: overhead only delays messages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sweep.families import check_params, param

TOPOLOGIES = ("mesh", "hypercube", "fully_connected", "workstations", "ring", "file")


@dataclass(frozen=True)
class Machine:
    """P PEs: hop distances, neighbour lists (CSR) and the communication costs."""

    topology: str
    dist: np.ndarray  # (P, P) int64 hops
    nbr_ptr: np.ndarray  # (P + 1,) int64
    nbr: np.ndarray  # neighbours of PE i: nbr[nbr_ptr[i]:nbr_ptr[i + 1]]
    bus: bool
    whole_slices: bool  # the shared medium is held in whole slices (``medium_hold``)
    latency: float
    overhead: float
    task_transfer: float
    cpu_overhead: bool

    @property
    def pes(self) -> int:
        return int(self.dist.shape[0])

    @property
    def diameter(self) -> int:
        return int(self.dist.max())

    def mean_hops(self) -> np.ndarray:
        """Mean distance from each PE to the others (1 with one PE)."""
        p = self.pes
        return self.dist.sum(axis=1) / max(p - 1, 1) if p > 1 else np.ones(1)


@dataclass(frozen=True)
class Network:
    """The ``system`` section of the balancing family: its config schema (module docstring)."""

    topology: str = param("mesh", choices=TOPOLOGIES)
    pes: int = param(16, ge=1, doc="P, 16 in CSSE00")
    rows: int | None = param(None, ge=1, nullable=True, doc="mesh: rows (null: the squarest)")
    cols: int | None = param(None, ge=1, nullable=True, doc="mesh: columns")
    path: str | None = None
    latency: float = param(0.1, ge=0, unit="slices", doc="RECONSTRUCTED: per hop")
    overhead: float = param(0.02, ge=0, unit="slices", doc="RECONSTRUCTED: per message end")
    task_transfer: float = param(0.0, ge=0, unit="slices",
                                 doc="per task and hop migrated (0: the published ND formula)")
    cpu_overhead: bool = True
    medium_hold: str = param("exact", choices=("exact", "whole_slices"),
                             doc="workstations: a transmission holds the medium its duration | whole slices")


def _mesh_shape(network: Network, p: int) -> tuple[int, int]:
    rows, cols = network.rows, network.cols
    if rows is None and cols is None:
        rows = max(r for r in range(1, int(math.isqrt(p)) + 1) if p % r == 0)
        return rows, p // rows
    if rows is None or cols is None:
        raise ValueError(f"system.rows and system.cols must be both null or both set, got {rows!r}, {cols!r}")
    if rows * cols != p:
        raise ValueError(f"system.topology mesh of {rows}x{cols} has {rows * cols} PEs, "
                         f"but system.pes is {p}")
    return rows, cols


def _edges(topology: str, network: Network, p: int) -> list[tuple[int, int]]:
    if topology == "mesh":
        rows, cols = _mesh_shape(network, p)
        return ([(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
                + [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)])
    if topology == "hypercube":
        if p & (p - 1):
            raise ValueError(f"system.topology hypercube needs system.pes a power of two, got {p}")
        return [(i, i ^ (1 << b)) for i in range(p) for b in range(p.bit_length() - 1) if i < i ^ (1 << b)]
    if topology == "ring":
        return [(i, (i + 1) % p) for i in range(p)] if p > 1 else []
    if topology == "file":
        return _read_edges(network.path, p)
    return [(i, j) for i in range(p) for j in range(i + 1, p)]  # fully_connected, workstations


def _read_edges(path: Any, p: int) -> list[tuple[int, int]]:
    if not isinstance(path, str) or not path:
        raise ValueError("system.path must name an edge-list file for system.topology file")
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"system.path: no such file: {path}")
    edges = []
    for number, line in enumerate(file.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].split()
        if not text:
            continue
        try:
            u, v = (int(x) for x in text)
        except ValueError:
            raise ValueError(f"system.path {path} line {number}: expected two PE numbers, "
                             f"got {line.strip()!r}") from None
        if not (0 <= u < p and 0 <= v < p) or u == v:
            raise ValueError(f"system.path {path} line {number}: edge {u} {v} is not between two "
                             f"distinct PEs 0..{p - 1} (system.pes = {p})")
        edges.append((u, v))
    return edges


def _distances(p: int, adjacency: list[list[int]], topology: str) -> np.ndarray:
    """Hop counts by breadth-first search; ValueError if the graph is not connected."""
    dist = np.full((p, p), -1, dtype=np.int64)
    for source in range(p):
        dist[source, source] = 0
        frontier = [source]
        while frontier:
            nxt = []
            for u in frontier:
                for v in adjacency[u]:
                    if dist[source, v] < 0:
                        dist[source, v] = dist[source, u] + 1
                        nxt.append(v)
            frontier = nxt
    if (dist < 0).any():
        raise ValueError(f"system.topology {topology}: the graph of {p} PEs is not connected")
    return dist


def machine_of(system: Mapping[str, Any]) -> Machine:
    """The machine of a ``system`` config section; one-line ValueError naming a bad option."""
    network = check_params(Network, system, section="system", owner="system (balancing)", ignore=("name",))
    topology, p = network.topology, network.pes
    latency, overhead, transfer, cpu = (network.latency, network.overhead, network.task_transfer,
                                        network.cpu_overhead)
    adjacency: list[list[int]] = [[] for _ in range(p)]
    for u, v in sorted({(min(e), max(e)) for e in _edges(topology, network, p)}):
        adjacency[u].append(v)
        adjacency[v].append(u)
    dist = _distances(p, adjacency, topology)
    ptr = np.zeros(p + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(a) for a in adjacency])
    nbr = np.array([v for a in adjacency for v in sorted(a)], dtype=np.int64)
    return Machine(topology, dist, ptr, nbr, topology == "workstations",
                   network.medium_hold == "whole_slices", latency, overhead, transfer, cpu)
