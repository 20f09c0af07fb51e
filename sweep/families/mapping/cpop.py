"""CPOP, Critical Path On a Processor (Topcuoglu, Hariri & Wu 2002, §4.2, Fig. 4).

Priority = rank_u + rank_d (eqs. 3–4, mean costs as in HEFT). |CP| is the
priority of the entry task of highest priority (ties by lowest index), where
the critical path starts. From a task k it goes on to the successor j (the
lowest index among several) whose priority equals |CP| and through which the
path stays critical: rank_d(j) = rank_d(k) + w̄_k + c̄_kj. The paper's rule,
priority = |CP| alone, can take a shortcut edge k -> j to a task j further
down the same path and skip the tasks between (0 -> 2 -> 1 plus 0 -> 1, unit
costs: all three priorities are 3); the rank_d condition keeps the marked
tasks one path of length |CP|. Both equalities hold up to a relative
tolerance, ``RTOL`` times |CP| (every rank and priority lies in [0, |CP|]).
The critical-path processor minimises the summed cost of the path's tasks.
A ready queue gives the task of highest priority (ties by lowest index); a
critical-path task goes to the critical-path processor, any other to the
processor of earliest finish time; both with the insertion policy. Published
makespan on the paper's example: 86.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.families.mapping import (
    Instance,
    Plan,
    downward_rank,
    entry_tasks,
    mapping_policy,
    place_earliest_finish,
    plan_of,
    pop_highest,
    release_successors,
    slots,
    upward_rank,
)

#: Relative tolerance of the critical path's equalities (module docstring), a fraction of |CP|.
RTOL = 1e-9


@jit()
def _critical_successor(a, k, wbar, cbar, rank_d, prio, cp):
    """The successor of ``k`` that continues the critical path (Topcuoglu et al. 2002 §4.2, Fig. 4;
    module docstring): priority |CP| and rank_d(j) = rank_d(k) + w̄_k + c̄_kj, both within
    ``RTOL * cp``; the lowest index among several, -1 if none. Returns it and the ops spent."""
    tol = RTOL * cp
    nxt = -1
    for e in range(a.sstart[k], a.sstart[k + 1]):
        j = a.sdst[e]
        if (abs(prio[j] - cp) <= tol and abs(rank_d[j] - (rank_d[k] + wbar[k] + cbar * a.sdata[e])) <= tol
                and (nxt < 0 or j < nxt)):
            nxt = j
    return nxt, a.sstart[k + 1] - a.sstart[k]


@jit()
def _critical_path(a, wbar, cbar, rank_d, prio, on_cp):
    """Mark the critical path in ``on_cp`` (Topcuoglu et al. 2002 §4.2, Fig. 4; module docstring);
    return its processor and the ops spent."""
    m = prio.shape[0]
    t, cp = -1, -np.inf
    for i in range(m):
        if a.pstart[i + 1] == a.pstart[i] and prio[i] > cp:
            t, cp = i, prio[i]
    ops = m
    while t >= 0:
        on_cp[t] = True
        t, looked = _critical_successor(a, t, wbar, cbar, rank_d, prio, cp)
        ops += looked
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


@jit()
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
        ops += place_earliest_finish(t, only, a, proc, start, finish, slot_s, slot_f, slot_t, count)
        nready = release_successors(a, t, waiting, ready, nready)
    return ops


def critical_path(inst: Instance) -> tuple[np.ndarray, np.ndarray, int, int]:
    """CPOP's priorities (rank_u + rank_d), critical-path marks, critical-path processor and the
    ops spent on them (Topcuoglu et al. 2002 §4.2; module docstring)."""
    rank_d = downward_rank(inst)
    prio = upward_rank(inst) + rank_d
    on_cp = np.zeros(inst.tasks, dtype=np.bool_)
    cp_proc, ops = _critical_path(inst.arrays, inst.wbar, inst.cbar, rank_d, prio, on_cp)
    return prio, on_cp, int(cp_proc), int(ops)


def _map(inst: Instance, params: Any, rng: np.random.Generator | None, clusters: Any) -> Plan:
    prio, on_cp, cp_proc, ops = critical_path(inst)
    m = inst.tasks
    proc = np.full(m, -1, dtype=np.int64)
    start, finish = np.zeros(m), np.zeros(m)
    ops += _cpop(inst.arrays, prio, on_cp, cp_proc, proc, start, finish, *slots(inst))
    return plan_of(proc, start, finish, ops + 2 * m * (inst.processors + 2))


POLICY = mapping_policy("cpop", map=_map)
