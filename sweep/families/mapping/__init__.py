"""The ``mapping`` family: static mapping of task graphs onto system graphs (CSSE00 §1.1, §2.1, §3.1).

A job is a weighted DAG (node = computation, edge = data); the machine a
weighted undirected graph (node = processor speed, edge = link bandwidth);
a mapper (the policy) assigns every task to a processor and orders them;
one execution model (``_core``: routed messages, link contention, the same
for every mapper) runs the mapping and gives the makespan T_m, so the
mappers' makespans are comparable. Metrics follow CSSE00 §2.1: T_m, T_s,
S_m = T_s / T_m, N_m, η = S_m / N_m, the mapping time T_c and the clustering
time T_cm − T_c (wall clock, ``*_seconds``) and their deterministic
operation counts.

Mappers, one file each: ``cluster_m`` (CSSE00 Figs 2–4), ``mh`` (El-Rewini &
Lewis 1990), ``heft`` and ``cpop`` (Topcuoglu, Hariri & Wu 2002), ``etf``
(Hwang, Chow, Anger & Lee 1989) and ``map_random`` (a floor). Graphs and
systems: :mod:`sweep.workloads.task_graphs`; configs: ``_instance``.
``docs/ipg00-mapping.md`` lists every reconstruction.

``load`` has no meaning here (one job, mapped statically): the engine's
load axis is accepted and ignored; keep it at one value.

What a mapper's file imports from this package (``from sweep.families.mapping import ...``;
``docs/adding-a-policy.md`` §8), never from its ``_`` modules:

- the contract: :func:`mapping_policy`, :class:`Plan`, :class:`MappingHooks`, the
  :class:`Instance` a mapper maps (its compiled arrays :class:`Arrays`) and
  ``channel_tables`` (the executor's channel reservations, for a mapper that
  plans with them);
- the list schedulers' pieces: priorities ``static_level``, ``upward_rank``,
  ``downward_rank``, ``priority_order``; the ready list ``entry_tasks``,
  ``pop_highest``, ``take``, ``release_successors``; ``slots`` and ``plan_of``;
- the execution model's estimates, compiled: ``data_ready`` (the inputs' arrival
  without contention), ``route_inputs`` (the executor's own rule, with the
  channels), ``sort_inputs`` (the order it sends them in), and
  ``place_earliest_finish`` (HEFT's insertion-based choice of processor).
"""

from __future__ import annotations

from sweep.families import Family
from sweep.families.mapping._core import Arrays, data_ready, place_earliest_finish, route_inputs, sort_inputs
from sweep.families.mapping._instance import SYSTEMS, WORKLOADS, Instance, channel_tables
from sweep.families.mapping._lists import (
    downward_rank,
    entry_tasks,
    plan_of,
    pop_highest,
    priority_order,
    release_successors,
    slots,
    static_level,
    take,
    upward_rank,
)
from sweep.families.mapping._policy import MappingHooks, Plan, mapping_policy
from sweep.families.mapping._simulate import VARIABLES, simulate, validate

FAMILY = Family(
    name="mapping",
    package=__name__,
    hooks=MappingHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="random_dag",
    default_system="ipg00_random100",
    workloads=WORKLOADS,
    systems=SYSTEMS,
)

__all__ = ["FAMILY", "Arrays", "Instance", "MappingHooks", "Plan", "channel_tables", "data_ready",
           "downward_rank", "entry_tasks", "mapping_policy", "place_earliest_finish", "plan_of",
           "pop_highest", "priority_order", "release_successors", "route_inputs", "slots", "sort_inputs",
           "static_level", "take", "upward_rank"]
