"""CPOP, Critical Path On a Processor (Topcuoglu, Hariri & Wu 2002, §4.2, Fig. 4).

Priority = rank_u + rank_d (eqs. 3–4, mean costs as in HEFT). |CP| is the
entry task's priority; the critical path is followed from the entry task of
highest priority through the successor of highest priority (the paper: the
successor whose priority equals |CP|; ties, and floating-point equality, by
the highest priority then the lowest index). The critical-path processor
minimises the summed cost of the path's tasks. A ready queue gives the task
of highest priority (ties by lowest index); a critical-path task goes to the
critical-path processor, any other to the processor of earliest finish time;
both with the insertion policy. Published makespan on the paper's example: 86.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sweep.families.mapping._core import _place_earliest_finish
from sweep.families.mapping._instance import Instance
from sweep.families.mapping._lists import (
    downward_rank,
    entry_tasks,
    plan_of,
    pop_highest,
    release_successors,
    slots,
    upward_rank,
)
from sweep.families.mapping._policy import Plan, mapping_policy


@numba.njit(cache=True)
def _critical_path(a, prio, on_cp):
    """Mark the critical path (module docstring); return its processor and the ops spent."""
    m = prio.shape[0]
    t, best = -1, -np.inf
    for i in range(m):
        if a.pstart[i + 1] == a.pstart[i] and prio[i] > best:
            t, best = i, prio[i]
    ops = m
    while t >= 0:
        on_cp[t] = True
        nxt, top = -1, -np.inf
        for e in range(a.sstart[t], a.sstart[t + 1]):
            v = a.sdst[e]
            ops += 1
            if prio[v] > top or (prio[v] == top and v < nxt):
                nxt, top = v, prio[v]
        t = nxt
    nproc = a.exec_time.shape[1]
    cp_proc, least = 0, np.inf
    for p in range(nproc):
        total = 0.0
        for i in range(m):
            if on_cp[i]:
                total += a.exec_time[i, p]
        ops += m
        if total < least:
            cp_proc, least = p, total
    return cp_proc, ops


@numba.njit(cache=True)
def _cpop(a, prio, on_cp, cp_proc, proc, start, finish, slot_s, slot_f, slot_t, count):
    m = a.exec_time.shape[0]
    waiting = np.zeros(m, dtype=np.int64)
    ready = np.zeros(m, dtype=np.int64)
    nready = entry_tasks(a, waiting, ready)
    ops = 0
    for _ in range(m):
        ops += nready
        t, nready = pop_highest(ready, nready, prio)
        only = cp_proc if on_cp[t] else -1
        ops += _place_earliest_finish(t, only, a, proc, start, finish, slot_s, slot_f, slot_t, count)
        nready = release_successors(a, t, waiting, ready, nready)
    return ops


def _map(inst: Instance, params: Any, rng: np.random.Generator | None, clusters: Any) -> Plan:
    prio = upward_rank(inst) + downward_rank(inst)
    m = inst.tasks
    on_cp = np.zeros(m, dtype=np.bool_)
    cp_proc, ops = _critical_path(inst.arrays, prio, on_cp)
    proc = np.full(m, -1, dtype=np.int64)
    start, finish = np.zeros(m), np.zeros(m)
    ops += _cpop(inst.arrays, prio, on_cp, cp_proc, proc, start, finish, *slots(inst))
    return plan_of(proc, start, finish, ops + 2 * m * (inst.processors + 2))


POLICY = mapping_policy("cpop", map=_map)
