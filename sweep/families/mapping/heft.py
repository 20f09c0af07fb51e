"""HEFT, Heterogeneous Earliest Finish Time (Topcuoglu, Hariri & Wu 2002, §4.1, Fig. 3).

Tasks in decreasing upward rank (eq. 3, mean computation and mean
communication costs; ties by topological position, where the paper breaks
them at random); each goes to the processor that gives it the earliest finish
time, with the insertion policy (the earliest idle gap, between two tasks
already placed, long enough to hold it after its inputs arrive; eqs. 5–6).
Communication is contention free in HEFT's own estimate; on a sparse system
graph a message takes data / the best route's end-to-end bandwidth (the
paper assumes a fully connected network). The family's executor then adds
link contention if the system asks for it.

Hand check, the paper's worked example (Fig. 2, Table 1 of Topcuoglu et al.;
``sweep/data/task_graphs/topcuoglu2002_example.json``): makespan 80.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.families.mapping import (
    Instance,
    Plan,
    mapping_policy,
    place_earliest_finish,
    plan_of,
    priority_order,
    slots,
    upward_rank,
)


@jit()
def _heft(order, a, proc, start, finish, slot_s, slot_f, slot_t, count):
    """Place the tasks of ``order`` one by one at their earliest finish (insertion); return ops."""
    ops = 0
    for i in range(order.shape[0]):
        ops += place_earliest_finish(order[i], -1, a, proc, start, finish, slot_s, slot_f, slot_t, count)
    return ops


def heft(inst: Instance, order: np.ndarray) -> Plan:
    """HEFT's placement of the tasks in ``order`` (module docstring)."""
    m = inst.tasks
    proc = np.full(m, -1, dtype=np.int64)
    start, finish = np.zeros(m), np.zeros(m)
    ops = _heft(order, inst.arrays, proc, start, finish, *slots(inst))
    return plan_of(proc, start, finish, ops + m * (inst.processors + 2))


def _map(inst: Instance, params: Any, rng: np.random.Generator | None, clusters: Any) -> Plan:
    return heft(inst, priority_order(inst, upward_rank(inst)))


POLICY = mapping_policy("heft", map=_map)
