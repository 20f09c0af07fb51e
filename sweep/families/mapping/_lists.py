"""Shared pieces of the list schedulers (HEFT, CPOP, ETF, MH): ranks, the ready list, plan assembly."""

from __future__ import annotations

import numpy as np

from sweep._numba import jit
from sweep.families.mapping._core import _downward_rank, _upward_rank
from sweep.families.mapping._instance import Instance
from sweep.families.mapping._policy import Plan


def upward_rank(inst: Instance) -> np.ndarray:
    """rank_u with mean computation and mean communication costs (Topcuoglu et al. 2002 eq. 3).

    Mean communication of an edge: its data times the mean of 1 / route bandwidth over ordered
    pairs of distinct processors (on a sparse system graph, the best route's end-to-end bandwidth).
    """
    return _upward_rank(inst.arrays, inst.wbar, inst.cbar)


def static_level(inst: Instance) -> np.ndarray:
    """The longest path of mean computation to an exit task, communication left out (the static
    level of Hwang et al. 1989 and of Kwok & Ahmad 1999)."""
    return _upward_rank(inst.arrays, inst.wbar, 0.0)


def downward_rank(inst: Instance) -> np.ndarray:
    """rank_d (Topcuoglu et al. 2002 eq. 4), same mean costs as :func:`upward_rank`."""
    return _downward_rank(inst.arrays, inst.wbar, inst.cbar)


def priority_order(inst: Instance, priority: np.ndarray) -> np.ndarray:
    """Tasks by decreasing priority, ties by topological position (a topological order for ranks)."""
    position = np.empty(inst.tasks, dtype=np.int64)
    position[inst.arrays.topo] = np.arange(inst.tasks)
    return np.lexsort((position, -priority)).astype(np.int64)


def slots(inst: Instance) -> tuple[np.ndarray, ...]:
    """Empty per-processor slot tables for insertion scheduling: start, finish, task, count."""
    shape = (inst.processors, inst.tasks + 1)
    return (np.zeros(shape), np.zeros(shape), np.zeros(shape, dtype=np.int64),
            np.zeros(inst.processors, dtype=np.int64))


def plan_of(proc: np.ndarray, start: np.ndarray, finish: np.ndarray, ops: int) -> Plan:
    """A plan keyed by the planned start times."""
    return Plan(proc=proc, key=start, ops=int(ops), planned=float(finish.max()))


@jit()
def entry_tasks(a, waiting, ready):
    """Count each task's predecessors into ``waiting``; list the entry tasks in ``ready``; return how many."""
    nready = 0
    for t in range(waiting.shape[0]):
        waiting[t] = a.pstart[t + 1] - a.pstart[t]
        if waiting[t] == 0:
            ready[nready] = t
            nready += 1
    return nready


@jit()
def pop_highest(ready, nready, prio):
    """Remove and return the ready task of highest ``prio`` (the lowest index among equals).

    Returns ``(task, nready)``; the list's last entry fills the gap.
    """
    k = 0
    for j in range(1, nready):
        u, v = ready[j], ready[k]
        if prio[u] > prio[v] or (prio[u] == prio[v] and u < v):
            k = j
    return take(ready, nready, k)


@jit()
def take(ready, nready, k):
    """Remove and return the ``k``-th ready task: ``(task, nready)``; the list's last entry fills the gap."""
    t = ready[k]
    nready -= 1
    ready[k] = ready[nready]
    return t, nready


@jit()
def release_successors(a, t, waiting, ready, nready):
    """``t`` is placed: its successors whose last predecessor it was become ready; return ``nready``."""
    for e in range(a.sstart[t], a.sstart[t + 1]):
        v = a.sdst[e]
        waiting[v] -= 1
        if waiting[v] == 0:
            ready[nready] = v
            nready += 1
    return nready

