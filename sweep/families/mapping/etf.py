"""ETF, Earliest Task First (Hwang, Chow, Anger & Lee 1989).

At each step, over every ready task (all predecessors placed) and every
processor, the pair of earliest start time is chosen: start = max(the time
the task's inputs arrive there, the time the processor becomes free) — no
insertion into idle gaps; ties go to the task of higher static level (the
longest path of mean computation to an exit, Hwang et al.'s priority), then
to the lower task and processor index. Inputs arrive contention free after
data / route bandwidth (the paper's fully connected model; on a sparse
system graph the best route's end-to-end bandwidth). The tasks' data-ready
times on each processor are computed once, when a task becomes ready.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.families.mapping import (
    Instance,
    Plan,
    data_ready,
    entry_tasks,
    mapping_policy,
    release_successors,
    static_level,
    take,
)


@jit()
def _etf(a, level, proc, start, finish, seq):
    """Place the tasks (module docstring); returns the operations done.

    The ready list is the family's (``_lists``); what ETF adds is its choice over every ready
    (task, processor) pair instead of the single task of highest priority, and the data-ready
    times ``dr`` of each task on each processor, computed once when it becomes ready.
    """
    m, nproc = a.exec_time.shape
    waiting = np.zeros(m, dtype=np.int64)
    ready = np.zeros(m, dtype=np.int64)
    dr = np.zeros((m, nproc))  # entry tasks: ready everywhere at 0
    avail = np.zeros(nproc)
    nready = entry_tasks(a, waiting, ready)
    ops = 0
    for step in range(m):
        best_k, best_p, best_s = -1, -1, np.inf
        for k in range(nready):
            t = ready[k]
            for p in range(nproc):
                s = max(dr[t, p], avail[p])
                if s < best_s:
                    better = True
                elif s == best_s:
                    u = ready[best_k]
                    better = level[t] > level[u] or (
                        level[t] == level[u] and (t < u or (t == u and p < best_p)))
                else:
                    better = False
                if better:
                    best_k, best_p, best_s = k, p, s
        ops += nready * nproc
        t, nready = take(ready, nready, best_k)
        proc[t], start[t] = best_p, best_s
        finish[t] = best_s + a.exec_time[t, best_p]
        avail[best_p] = finish[t]
        seq[t] = step
        before = nready
        nready = release_successors(a, t, waiting, ready, nready)
        for k in range(before, nready):
            v = ready[k]
            for p in range(nproc):
                dr[v, p] = data_ready(v, p, a, proc, finish)
            ops += nproc * (a.pstart[v + 1] - a.pstart[v])
    return ops


def _map(inst: Instance, params: Any, rng: np.random.Generator | None, clusters: Any) -> Plan:
    m = inst.tasks
    level = static_level(inst)
    proc = np.full(m, -1, dtype=np.int64)
    start, finish = np.zeros(m), np.zeros(m)
    seq = np.zeros(m)
    ops = _etf(inst.arrays, level, proc, start, finish, seq)
    return Plan(proc=proc, key=seq, ops=int(ops) + m, planned=float(finish.max()))


POLICY = mapping_policy("etf", map=_map)
