"""The gradient model (Lin & Keller 1987), a baseline of CSSE00 §1.2 and Tables 2–4.

Each PE keeps a *proximity* (pressure) ``PP``: 0 when it is light (load at or
below ``low_threshold``), otherwise ``min(w_max, 1 + min PP of its
neighbours)``, with ``w_max = diameter + 1`` meaning "no light PE in reach".
Every ``interval`` slices (PE ``i`` first at ``i mod interval``) a PE
recomputes its PP from the values its neighbours last sent, sends its own to
its neighbours if it changed since it last sent one (``exchange: on_change``;
``periodic``: every time) — a broadcast: one transmission on a shared medium,
skipped while its previous one is still in flight — and, if it is abundant (load above
``high_threshold``) and some neighbour's PP is below ``w_max``, moves up to
``batch`` of its surplus tasks one hop, to the neighbour of least PP (lowest
PE number among equals), unless its previous transfer has not arrived yet
(one transfer in flight per PE, RECONSTRUCTED: without it a shared medium
floods). Tasks so moved may be passed on by the next PE: the
gradient map guides them towards light PEs. Until a neighbour's PP has been
heard it counts as ``w_max``.

RECONSTRUCTED (docs/ipg00-balancing.md): the thresholds (3 and 1 tasks, as
RoC's HT and LT), ``interval`` = 4 slices, ``batch`` = 1 task, and which tasks
move (``youngest`` by CPU age, the waiting work; ``oldest`` as option).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import param
from sweep.families.balancing import Machine, TaskSet, announce, balancing_policy, migrate, run_loop

PRESSURE = 1


@dataclass(frozen=True)
class GradientParams:
    """Water marks, exchange period and batch (module docstring); defaults RECONSTRUCTED."""

    high_threshold: int = param(3, ge=1, doc="abundant above this load (tasks)")
    low_threshold: int = param(1, ge=0, doc="light (pressure 0) at or below this load (tasks)")
    interval: int = param(4, ge=1, unit="slices", doc="period of the pressure exchange")
    batch: int = param(1, ge=1, doc="tasks moved per period by an abundant PE")
    which: str = param("youngest", choices=("oldest", "youngest"), doc="tasks moved, by CPU age")
    exchange: str = param("on_change", choices=("on_change", "periodic"),
                          doc="send the pressure only when it changed, or every period")

    def __post_init__(self) -> None:
        if not self.low_threshold < self.high_threshold:
            raise ValueError(f"policy thresholds must satisfy low_threshold < high_threshold, "
                             f"got {self.low_threshold}, {self.high_threshold}")


GradientState = namedtuple("GradientState", ["high", "low", "interval", "batch", "oldest", "wmax",
                                             "periodic", "pp", "sent", "seen"])


def _make_state(machine: Machine, tasks: TaskSet, prm: GradientParams) -> GradientState:
    p, wmax = machine.pes, machine.diameter + 1
    return GradientState(prm.high_threshold, prm.low_threshold, prm.interval, prm.batch,
                         int(prm.which == "oldest"), wmax, int(prm.exchange == "periodic"),
                         np.full(p, wmax, np.int64), np.full(p, -1, np.int64),
                         np.full((p, p), wmax, np.int64))


@jit(**NO_REFCOUNT)
def _least_neighbour(S, G, i):
    best = -1
    for x in range(S.nbr_ptr[i], S.nbr_ptr[i + 1]):
        j = S.nbr[x]
        if best < 0 or G.seen[i, j] < G.seen[i, best]:
            best = j
    return best


@jit(**NO_REFCOUNT)
def _tick(t, S, G):
    for i in range(S.P):
        if (t - i) % G.interval != 0:
            continue
        j = _least_neighbour(S, G, i)
        load = S.load[i]
        if load <= G.low or j < 0:
            G.pp[i] = 0 if load <= G.low else G.wmax
        else:
            G.pp[i] = min(G.wmax, 1 + G.seen[i, j])
        announce(S, t, i, PRESSURE, G.pp[i], G.periodic, G.sent)
        if load > G.high and j >= 0 and G.seen[i, j] < G.wmax and S.mig_until[i] <= t:
            migrate(S, t, i, j, min(G.batch, load - G.high), G.oldest == 1)


@jit(**NO_REFCOUNT)
def _receive(t, S, G, src, dst, kind, a, b, c):
    if kind == PRESSURE:
        G.seen[dst, src] = a


@jit(**NO_REFCOUNT)
def _run(S, G):
    run_loop(S, G, _tick, _receive)


POLICY = balancing_policy("gradient", params=GradientParams, kernel=_run, tick=_tick,
                          receive=_receive, make_state=_make_state,
                          examples=({}, {"batch": 3, "which": "oldest", "interval": 1,
                                          "exchange": "periodic"}))
