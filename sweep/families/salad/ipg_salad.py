"""IPG-SaLaD, CSSE00's resource manager: Cluster-M, Rate of Change and Concurrent Gang in one loop.

CSSE00 §3 (Fig. 1), §4: "all stages can be active simultaneously". Each slot
names a policy of another family, so that any combination is a grid
(``grid.policy.balancer=[no_balancing,rate_of_change]``); the defaults are
the paper's tool. How the stages meet is a RECONSTRUCTION
(:mod:`~sweep.families.salad._loop`, ``docs/ipg00-salad.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sweep.families import Policy, param
from sweep.families.salad import SaladHooks, kernel_for


@dataclass(frozen=True)
class SaladParams:
    """The three slots of IPG-SaLaD and the coupling's options (module docstring)."""

    mapper: str = param("cluster_m", doc="stage 1, the static allocator: a mapping policy "
                                         "(CSSE00 §3.1: Cluster-M)")
    balancer: str = param("rate_of_change", doc="stage 2, the load balancer: a balancing policy "
                                                "(§3.2: Rate of Change; no_balancing: none)")
    scheduler: str = param("concurrent_gang",
                           doc="stage 3, the dynamic scheduler (§3.3): a gang policy; one with local "
                               "scheduling (concurrent_gang) fills a slot its job leaves empty with "
                               "another job's task, one without (gang) leaves it idle")
    feedback: bool = param(True, doc="the balancer reads the scheduler's current allocation every "
                                     "slice (§3: 'input from the dynamic scheduler'); false: only "
                                     "when the allocator maps a job (RECONSTRUCTED reading)")
    pe_order: str = param("mapper", choices=("mapper", "round_robin"),
                          doc="how a PE serves its slot's job: mapper, its next task in the mapper's "
                              "order (the mapping family's executor), spawned tasks when that one "
                              "waits; round_robin, the job's first task in the PE's queue, one slice "
                              "each in turn (the balancing family's executor). RECONSTRUCTED")
    op_cost: float = param(0.0, ge=0, unit="slices",
                           doc="mapping time per operation the mapper counts (RECONSTRUCTED; 0: "
                               "mapping is free)")
    mapper_params: Mapping[str, Any] | None = param(None, nullable=True,
                                                    doc="the mapper's parameters (null: its defaults)")
    balancer_params: Mapping[str, Any] | None = param(None, nullable=True,
                                                      doc="the balancer's parameters (null: its defaults)")


POLICY = Policy("ipg_salad", "salad", SaladHooks(kernel=kernel_for), SaladParams,
                examples=({}, {"scheduler": "gang", "feedback": False},
                          {"mapper": "mh", "balancer": "no_balancing", "op_cost": 0.001}))
