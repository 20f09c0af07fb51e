"""MH, the Mapping Heuristic of El-Rewini & Lewis (1990), as the secondary literature describes it.

The original paper is not available here; this is a reconstruction (named
so in ``docs/ipg00-mapping.md``). Priority: the upward rank (longest path to
an exit task, mean computation plus mean communication; the "level" of
El-Rewini & Lewis). An event-driven ready list: each time a task's last
predecessor is placed it joins the list; the ready task of highest priority
(ties by lowest index) goes to the processor on which it can **start**
earliest (``select: start``; ``finish`` is the alternative for heterogeneous
speeds), ties by earliest finish, then lowest index. The start time counts
routed messages and link contention exactly as the family's executor does
(``_core._place``: fixed routes by hop count, each message in the earliest
interval in which all its channels are free), so MH's plan is what the executor runs: its
planned makespan equals T_m (a test). The routing tables are static (hop
count, widest bottleneck); a processor whose contention-free start (or
finish) is already later than the best found is not examined further (the
choice is unchanged: contention only delays). MH's re-routing around busy links, the source of
its O(M² N³) cost in CSSE00 §1.1, is not reproduced (documented).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from sweep.families import param
from sweep.families.mapping._core import _data_ready, _place
from sweep.families.mapping._instance import Instance, channel_tables
from sweep.families.mapping._lists import entry_tasks, pop_highest, release_successors, upward_rank
from sweep.families.mapping._policy import Plan, mapping_policy


@dataclass(frozen=True)
class MHParams:
    """``select``: the processor where the task starts earliest (MH) or finishes earliest."""

    select: str = param("start", choices=("start", "finish"),
                        doc="choose the processor of earliest start (El-Rewini & Lewis) or finish")


@numba.njit(cache=True)
def _mh(a, prio, by_finish, proc, start, finish, seq, proc_free, chan_s, chan_f, chan_n, buf, log_c, log_i):
    m, nproc = a.exec_time.shape
    waiting = np.zeros(m, dtype=np.int64)
    ready = np.zeros(m, dtype=np.int64)
    nready = entry_tasks(a, waiting, ready)
    ops = 0
    for step in range(m):
        ops += nready
        t, nready = pop_highest(ready, nready, prio)
        best_p, best_s, best_f = -1, np.inf, np.inf
        for p in range(nproc):
            # contention can only delay: skip p when even contention-free inputs start it too late
            low = max(_data_ready(t, p, a, proc, finish), proc_free[p])
            ops += a.pstart[t + 1] - a.pstart[t]
            bound, best_bound = (low + a.exec_time[t, p], best_f) if by_finish else (low, best_s)
            if bound > best_bound:
                continue
            r, o, full = _place(t, p, a, proc, finish, chan_s, chan_f, chan_n, buf, False, log_c, log_i)
            if full:
                return -1
            ops += o
            s = max(r, proc_free[p])
            f = s + a.exec_time[t, p]
            first, second = (f, s) if by_finish else (s, f)
            best_first, best_second = (best_f, best_s) if by_finish else (best_s, best_f)
            if first < best_first or (first == best_first and second < best_second):
                best_p, best_s, best_f = p, s, f
        r, o, full = _place(t, best_p, a, proc, finish, chan_s, chan_f, chan_n, buf, True, log_c, log_i)
        if full:
            return -1
        ops += o
        proc[t], start[t], finish[t] = best_p, best_s, best_f
        proc_free[best_p] = best_f
        seq[t] = step
        nready = release_successors(a, t, waiting, ready, nready)
    return ops


def _map(inst: Instance, params: MHParams, rng: np.random.Generator | None, clusters: Any) -> Plan:
    m, a = inst.tasks, inst.arrays
    indeg = int(np.diff(a.pstart).max()) if m else 0
    hops = int(inst.routes.hops.max())
    buf = np.zeros(max(indeg, 1), dtype=np.int64)
    log_c = np.zeros(max(indeg * hops, 1), dtype=np.int64)
    prio = upward_rank(inst)
    for tables in channel_tables(inst):
        proc = np.full(m, -1, dtype=np.int64)
        start, finish, seq = np.zeros(m), np.zeros(m), np.zeros(m)
        ops = _mh(a, prio, params.select == "finish", proc, start, finish, seq, np.zeros(inst.processors),
                  *tables, buf, log_c, np.zeros(len(log_c), dtype=np.int64))
        if ops >= 0:
            return Plan(proc=proc, key=seq, ops=int(ops) + m * (inst.processors + 2),
                        planned=float(finish.max()))
    raise AssertionError("a channel holds more reservations than there are edges")


POLICY = mapping_policy("mh", params=MHParams, examples=({}, {"select": "finish"}), map=_map)
