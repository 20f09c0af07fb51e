"""The machine of the ``salad`` family: the balancing family's PEs and network, and its mapper's view.

One machine serves all three stages. Its ``system`` section is the balancing
family's (:class:`~sweep.families.balancing._machine.Network`: topology, PEs,
message latency and overhead, migration cost) plus the bandwidth of the
links that carry a job's data between its tasks and the slices of the trace
diagram kept. The mapper sees the same topology as a
:class:`~sweep.workloads.task_graphs.SystemGraph` of PEs of speed 1 and
links of that bandwidth, so a task of weight ``w`` runs ``w`` slices and a
message of ``d`` data takes ``d / bandwidth`` (the mapping family's
contention-free message time).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from sweep.families import check_params, param
from sweep.families.balancing._machine import Machine, Network, machine_of
from sweep.workloads.task_graphs import Routes, SystemGraph, routes


@dataclass(frozen=True)
class SaladMachine(Network):
    """``kind: salad_machine``: the balancing family's network plus the data links (module docstring)."""

    bandwidth: float = param(1.0, gt=0, doc="data units per slice on every link (RECONSTRUCTED: "
                                            "CSSE00 Table 1's systems draw U{1..5})")
    trace_slices: int = param(0, ge=0, doc="slices of the trace diagram kept (PEs x slices: the job "
                                           "each PE ran); 0: none")


@dataclass(frozen=True)
class SaladSystem:
    """What one run needs of the machine: the balancer's, the mapper's and the trace's views."""

    machine: Machine
    graph: SystemGraph
    routes: Routes
    trace_slices: int

    @property
    def pes(self) -> int:
        return self.machine.pes


def system_of(section: Mapping[str, Any]) -> SaladSystem:
    """The machine of a ``system`` section; one-line ``ValueError`` naming a bad option."""
    options = check_params(SaladMachine, section, section="system", owner="system (salad)",
                           ignore=("name",))
    network = {f.name: getattr(options, f.name) for f in fields(Network)}
    machine = machine_of(network)
    a = np.repeat(np.arange(machine.pes), np.diff(machine.nbr_ptr))
    b = machine.nbr
    keep = a < b
    graph = SystemGraph(np.ones(machine.pes), a[keep], b[keep],
                        np.full(int(keep.sum()), options.bandwidth), name=machine.topology)
    return SaladSystem(machine, graph, routes(graph), options.trace_slices)
