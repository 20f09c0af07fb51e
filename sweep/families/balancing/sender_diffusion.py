"""Sender-initiated diffusion, SID (Willebeek-LeMair & Reeves 1993), a baseline of CSSE00.

CSSE00 §1.2: "a highly distributed local approach which makes use of
near-neighbour load information to apportion surplus load from heavily loaded
processors to under-loaded neighbours". Every ``interval`` slices (PE ``i``
first at ``i mod interval``) a PE sends its load to its neighbours if it
changed since it last sent it (``exchange: on_change``; ``periodic``: every
time) — a broadcast: one transmission on a shared medium, skipped while its
previous one is still in flight. A PE whose load is above ``high_threshold`` computes
the average ``avg`` of its own load and the loads its neighbours last
reported (neighbours not yet heard from are left out); with surplus
``s = load − avg`` it sends each neighbour ``j`` below the average
``floor(s × (avg − L_j) / Σ_k (avg − L_k))`` tasks, and adds them to its
record of ``L_j`` until ``j`` reports again. It sends nothing while a
transfer it sent earlier has not arrived (RECONSTRUCTED: without it a shared
medium floods).

RECONSTRUCTED (docs/ipg00-balancing.md): ``high_threshold`` = 3 tasks,
``interval`` = 4 slices, and which tasks move (``youngest`` by CPU age, the
waiting work; ``oldest`` as option).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import param
from sweep.families.balancing import Machine, TaskSet, announce, balancing_policy, migrate, run_loop

LOAD = 1


@dataclass(frozen=True)
class DiffusionParams:
    """Sender threshold, exchange period, tasks moved (module docstring); defaults RECONSTRUCTED."""

    high_threshold: int = param(3, ge=0, doc="a PE sends only above this load (tasks)")
    interval: int = param(4, ge=1, unit="slices", doc="period of the load exchange")
    which: str = param("youngest", choices=("oldest", "youngest"), doc="tasks moved, by CPU age")
    exchange: str = param("on_change", choices=("on_change", "periodic"),
                          doc="send the load only when it changed, or every period")


DiffusionState = namedtuple("DiffusionState", ["high", "interval", "oldest", "periodic", "sent", "seen"])


def _make_state(machine: Machine, tasks: TaskSet, prm: DiffusionParams) -> DiffusionState:
    p = machine.pes
    return DiffusionState(prm.high_threshold, prm.interval, int(prm.which == "oldest"),
                          int(prm.exchange == "periodic"), np.full(p, -1, np.int64),
                          np.full((p, p), -1, np.int64))


@jit(**NO_REFCOUNT)
def _diffuse(t, S, D, i):
    load = S.load[i]
    total, count = float(load), 1
    for x in range(S.nbr_ptr[i], S.nbr_ptr[i + 1]):
        if D.seen[i, S.nbr[x]] >= 0:
            total += D.seen[i, S.nbr[x]]
            count += 1
    avg = total / count
    surplus = load - avg
    deficit = 0.0
    for x in range(S.nbr_ptr[i], S.nbr_ptr[i + 1]):
        lj = D.seen[i, S.nbr[x]]
        if 0 <= lj < avg:
            deficit += avg - lj
    if surplus < 1.0 or deficit <= 0.0:
        return
    for x in range(S.nbr_ptr[i], S.nbr_ptr[i + 1]):
        j = S.nbr[x]
        lj = D.seen[i, j]
        if 0 <= lj < avg:
            k = int(np.floor(surplus * (avg - lj) / deficit + 1e-9))
            if k > 0 and migrate(S, t, i, j, k, D.oldest == 1) >= 0:
                D.seen[i, j] = lj + k


@jit(**NO_REFCOUNT)
def _tick(t, S, D):
    for i in range(S.P):
        if (t - i) % D.interval != 0:
            continue
        announce(S, t, i, LOAD, S.load[i], D.periodic, D.sent)
        if S.load[i] > D.high and S.mig_until[i] <= t:
            _diffuse(t, S, D, i)


@jit(**NO_REFCOUNT)
def _receive(t, S, D, src, dst, kind, a, b, c):
    if kind == LOAD:
        D.seen[dst, src] = a


@jit(**NO_REFCOUNT)
def _run(S, D):
    run_loop(S, D, _tick, _receive)


POLICY = balancing_policy("sender_diffusion", params=DiffusionParams, kernel=_run, tick=_tick,
                          receive=_receive, make_state=_make_state,
                          examples=({}, {"high_threshold": 1, "which": "oldest", "interval": 1,
                                    "exchange": "periodic"}))
