"""MH, the Mapping Heuristic of El-Rewini & Lewis (1990), as the secondary literature describes it.

The original paper is not available here; this is a reconstruction (named
so in ``docs/ipg00-mapping.md``). Kwok & Ahmad's survey (1999, §6.4) gives
its steps: priorities from the static level; a ready list in priority order
(entry tasks first, each task's successors appended once all their
predecessors are placed); the first ready task goes to the processor on
which it can **start** earliest (``select: start``; ``finish`` is the
alternative for heterogeneous speeds), ties by earliest finish, then lowest
index, "all messages from the parent nodes ... scheduled and routed by
consulting the routing tables associated with each processor". No task is
inserted into an idle gap of a processor.

- ``priority``: ``static_level`` (default: the longest path of mean
  computation to an exit task, communication left out, as the survey says)
  or ``upward_rank`` (mean communication added: the b-level of Topcuoglu et
  al. 2002 eq. 3).
- ``contention`` (how MH's routing tables see the traffic of messages
  already routed):

  * ``tables`` (default): each directed channel carries one number, the
    time up to which the messages routed over it so far keep it busy. A
    message leaves when its sender has finished and every channel of its
    route is past that time, and then pushes those times forward. A coarse
    view, as a routing table's delay entry is: a message never slips into
    an idle gap between two earlier ones, so MH's estimate is pessimistic
    where the executor (which does use such gaps) is not; its plan is not
    the schedule that runs, as for HEFT, CPOP and ETF.
  * ``exact``: the executor's own rule (``_core.route_inputs``: each message in
    the earliest interval in which all the channels of its route are free),
    so MH's plan is exactly what the executor runs (a test) — knowledge of
    the future no routing table holds. This was the first reconstruction;
    it gives MH three times the speedups CSSE00 Table 1 prints.

The routes are the fixed ones of the family (hop count, widest bottleneck);
MH's re-routing of a message around a busy link (the preferred-link entry of
its routing tables, and the N³ in its O(M² N³) cost in CSSE00 §1.1) is not
reproduced, because the one executor that measures every mapper routes
each message the same way. A processor whose contention-free start (or
finish) is already later than the best found is not examined further (the
choice is unchanged: contention only delays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.families import param
from sweep.families.mapping import (
    Instance,
    Plan,
    channel_tables,
    data_ready,
    entry_tasks,
    mapping_policy,
    pop_highest,
    release_successors,
    route_inputs,
    sort_inputs,
    static_level,
    upward_rank,
)


@dataclass(frozen=True)
class MHParams:
    """MH's readings (module docstring)."""

    select: str = param("start", choices=("start", "finish"),
                        doc="choose the processor of earliest start (El-Rewini & Lewis) or finish")
    priority: str = param("static_level", choices=("static_level", "upward_rank"),
                          doc="longest path of mean computation to an exit, or with mean communication too")
    contention: str = param("tables", choices=("tables", "exact"),
                            doc="links as busy-until times (routing tables), or as the executor sees them")


@jit(inline="always")
def _arrival_by_tables(t, p, a, proc, finish, busy, buf, commit, log_c, log_v):
    """Time at which all inputs of ``t`` are on ``p`` when each channel is one busy-until time
    (module docstring), and the operations done; with ``commit`` the times are kept."""
    k = sort_inputs(t, a, finish, buf)
    n = a.route_bw.shape[0]
    ready, ops, logged = 0.0, k, 0
    for i in range(k):
        e = buf[i]
        u = a.psrc[e]
        q = proc[u]
        arrive = finish[u]
        if q != p and a.pdata[e] > 0.0:
            duration = a.pdata[e] / a.route_bw[q, p]
            leave = finish[u]
            if a.contention:
                r0, r1 = a.rstart[q * n + p], a.rstart[q * n + p + 1]
                for r in range(r0, r1):
                    leave = max(leave, busy[a.rchan[r]])
                for r in range(r0, r1):
                    c = a.rchan[r]
                    if not commit:
                        log_c[logged], log_v[logged] = c, busy[c]
                        logged += 1
                    busy[c] = leave + duration
                ops += 2 * (r1 - r0)
            arrive = leave + duration
        ready = max(ready, arrive)
    for i in range(logged - 1, -1, -1):
        busy[log_c[i]] = log_v[i]
    return ready, ops


@jit(inline="always")
def _arrival(t, p, commit, exact, a, proc, finish, chan_s, chan_f, chan_n, busy, buf, log_c, log_i, log_v):
    """When all inputs of ``t`` are on ``p`` under the ``contention`` reading (``exact``: the
    executor's reservations; else the routing tables' busy-until times), the operations done, and
    whether a channel's reservation table is full; with ``commit`` the reservations are kept."""
    if exact:
        return route_inputs(t, p, a, proc, finish, chan_s, chan_f, chan_n, buf, commit, log_c, log_i)
    ready, ops = _arrival_by_tables(t, p, a, proc, finish, busy, buf, commit, log_c, log_v)
    return ready, ops, False


@jit()
def _mh(a, prio, by_finish, exact, proc, start, finish, seq, proc_free, chan_s, chan_f, chan_n, busy, buf,
        log_c, log_i, log_v):
    """Place the tasks (module docstring); returns the operations done, or -1 when a channel's
    reservation table overflowed (``exact``)."""
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
            low = max(data_ready(t, p, a, proc, finish), proc_free[p])
            ops += a.pstart[t + 1] - a.pstart[t]
            bound, best_bound = (low + a.exec_time[t, p], best_f) if by_finish else (low, best_s)
            if bound > best_bound:
                continue
            r, o, full = _arrival(t, p, False, exact, a, proc, finish, chan_s, chan_f, chan_n, busy, buf,
                                  log_c, log_i, log_v)
            if full:
                return -1
            ops += o
            s = max(r, proc_free[p])
            f = s + a.exec_time[t, p]
            first, second = (f, s) if by_finish else (s, f)
            best_first, best_second = (best_f, best_s) if by_finish else (best_s, best_f)
            if first < best_first or (first == best_first and second < best_second):
                best_p, best_s, best_f = p, s, f
        r, o, full = _arrival(t, best_p, True, exact, a, proc, finish, chan_s, chan_f, chan_n, busy, buf,
                              log_c, log_i, log_v)
        if full:
            return -1
        ops += o
        proc[t], start[t], finish[t] = best_p, best_s, best_f
        proc_free[best_p] = best_f
        seq[t] = step
        nready = release_successors(a, t, waiting, ready, nready)
    return ops


def _no_tables():
    """Reservation tables of no width: ``contention: tables`` does not use them."""
    yield np.zeros((1, 1)), np.zeros((1, 1)), np.zeros(1, dtype=np.int64)


def _map(inst: Instance, params: MHParams, rng: np.random.Generator | None, clusters: Any) -> Plan:
    m, a = inst.tasks, inst.arrays
    indeg = int(np.diff(a.pstart).max()) if m else 0
    hops = int(inst.routes.hops.max())
    buf = np.zeros(max(indeg, 1), dtype=np.int64)
    log_c = np.zeros(max(indeg * hops, 1), dtype=np.int64)
    exact = params.contention == "exact"
    prio = upward_rank(inst) if params.priority == "upward_rank" else static_level(inst)
    busy = np.zeros(max(a.channels, 1))
    for tables in channel_tables(inst) if exact else _no_tables():
        proc = np.full(m, -1, dtype=np.int64)
        start, finish, seq = np.zeros(m), np.zeros(m), np.zeros(m)
        ops = _mh(a, prio, params.select == "finish", exact, proc, start, finish, seq,
                  np.zeros(inst.processors), *tables, busy, buf, log_c, np.zeros(len(log_c), dtype=np.int64),
                  np.zeros(len(log_c)))
        if ops >= 0:
            return Plan(proc=proc, key=seq, ops=int(ops) + m * (inst.processors + 2),
                        planned=float(finish.max()))
    raise AssertionError("a channel holds more reservations than there are edges")


FIRST_RECONSTRUCTION = {"priority": "upward_rank", "contention": "exact"}

POLICY = mapping_policy("mh", params=MHParams, examples=({}, {"select": "finish"}, FIRST_RECONSTRUCTION),
                        map=_map)
