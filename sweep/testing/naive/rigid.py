"""Slow, obvious references for the rigid passes: the event loop, and each pass found by name.

Plain Python lists and brute-force availability: the free processors at an
instant are recomputed from every running job and every reservation each time
they are needed. No sorting tricks, no incremental profile, nothing shared with
``sweep.families.rigid``: these exist to be read and trusted, and the kernels
must match them job for job. A policy names the pass it must match and gives
its order key in pure Python (``RigidHooks.reference``).

:func:`simulate` is the loop every pass shares: at each instant (a submission, a
completion, a reservation coming due) the jobs that finish leave, those submitted
join the queue, and the pass decides which waiting jobs start (:class:`Machine`).
A pass is one function registered by name with :func:`rigid_pass`, in its own
module of :mod:`sweep.testing.naive.rigid_passes` (FCFS, EASY and conservative:
every module there is imported when a pass is first looked up, so a new pass is a
new file there and no list is edited), or in a plugin's module that its policy
imports (docs/plugins.md).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sweep.testing.naive import rigid_passes
from sweep.testing.naive._registry import References

__all__ = ["PASSES", "Machine", "declared", "earliest", "fits", "free_at", "pass_named", "rigid_pass",
           "simulate"]

#: Pass name -> the pass, ``step(machine)`` (module docstring).
PASSES = References("rigid pass", "register one with @sweep.testing.naive.rigid.rigid_pass({name!r}) in a "
                                  "new module of sweep/testing/naive/rigid_passes/, or in a plugin's "
                                  "policy module (docs/plugins.md)")

Holding = tuple[float, float, int]  # (start, end, processors)


def rigid_pass(name: str) -> Callable[[Callable[[Machine], None]], Callable[[Machine], None]]:
    """Decorator: register the decorated ``step(machine)`` as the reference of the pass ``name``."""
    return PASSES.register(name)


def pass_named(name: str) -> Callable[[Machine], None]:
    """The reference of the pass ``name``, after importing every module of
    :mod:`sweep.testing.naive.rigid_passes`; ``LookupError`` naming where to add a missing one."""
    for module in pkgutil.iter_modules(rigid_passes.__path__):
        importlib.import_module(f"{rigid_passes.__name__}.{module.name}")
    return PASSES[name]


def free_at(x: float, P: int, intervals: Sequence[Holding]) -> int:
    """Processors free at instant ``x`` given ``(start, end, n)`` holdings."""
    return P - sum(n for s, e, n in intervals if s <= x < e)


def fits(s: float, d: float, n: int, P: int, intervals: Sequence[Holding]) -> bool:
    """Whether ``n`` processors are free throughout ``[s, s + d)``."""
    points = [s] + [b for a, b, _ in intervals if s < b < s + d]
    points += [a for a, b, _ in intervals if s < a < s + d]
    return all(free_at(x, P, intervals) >= n for x in points)


def earliest(t: float, d: float, n: int, P: int, intervals: Sequence[Holding]) -> float:
    """Earliest ``s >= t`` from which ``n`` processors stay free for ``d``."""
    for s in sorted({t} | {e for _, e, _ in intervals if e > t}):
        if fits(s, d, n, P, intervals):
            return s
    raise AssertionError("no feasible start")


@dataclass
class Machine:
    """The machine and its jobs as a pass sees them at the instant ``t``.

    The jobs' columns (``submit``, ``run``, ``req`` the requested time, ``procs``,
    ``priority``) and ``P``; ``start`` of every job (``None`` until it starts); ``running``
    and ``queue`` (waiting, in submit order unless a pass reorders it); ``arrived`` and
    ``finished`` at ``t``; ``resv`` a pass's reservations, job -> start (each one is an
    instant of the loop), and ``booked`` what a pass records per job (conservative: the
    reservation made at its arrival).
    """

    submit: list[float]
    run: list[float]
    req: list[float]
    procs: list[int]
    priority: list[float]
    P: int
    key: Callable[..., float] | None
    t: float = 0.0
    start: list = field(default_factory=list)
    booked: list = field(default_factory=list)
    running: list[int] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)
    arrived: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    resv: dict[int, float] = field(default_factory=dict)

    def holding(self) -> list[Holding]:
        """What the running jobs hold, until their requested time is up."""
        return [(self.start[j], self.start[j] + self.req[j], self.procs[j]) for j in self.running]

    def free_now(self) -> int:
        """Processors no running job holds."""
        return self.P - sum(self.procs[j] for j in self.running)

    def begin(self, j: int) -> None:
        """Start the waiting job ``j`` now."""
        self.start[j] = self.t
        self.running.append(j)
        self.queue.remove(j)

    def order_queue(self) -> None:
        """The queue by the policy's key at ``t``, lowest first, ties by submit order (no key:
        submit order)."""
        if self.key is not None:
            self.queue.sort(key=lambda j: (self.key(self.t, j, self.submit, self.req, self.procs,
                                                    self.priority), j))

    def start_heads(self) -> None:
        """Order the queue (:meth:`order_queue`) and start its heads while they fit."""
        self.order_queue()
        while self.queue and self.procs[self.queue[0]] <= self.free_now():
            self.begin(self.queue[0])


def simulate(policy: str, submit: Sequence[float], run: Sequence[float], req: Sequence[float],
             procs: Sequence[int], P: int, key: Callable[..., float] | None = None,
             priority: Sequence[float] | None = None) -> tuple[list, list]:
    """Start times (list) of every job under the pass named ``policy`` (:func:`pass_named`).

    ``key(t, j, submit, req, procs, priority)`` orders the queue of the passes that
    follow it (FCFS, EASY) at each instant, lowest first, ties by submit order
    (``None``: submit order); ``priority`` defaults to 0 for every job. Returns
    ``(start, booked)``; ``booked`` is what the pass records per job (conservative:
    the reservation made at each job's arrival; ``None`` for the other passes).
    """
    step = pass_named(policy)
    n = len(submit)
    m = Machine(list(submit), list(run), list(req), list(procs),
                [0.0] * n if priority is None else list(priority), P, key,
                start=[None] * n, booked=[None] * n)
    nxt = 0
    while nxt < n or m.running or m.queue:
        times = [m.submit[nxt]] if nxt < n else []
        times += [m.start[j] + m.run[j] for j in m.running]
        times += list(m.resv.values())
        m.t = t = min(times)
        m.finished = [j for j in m.running if m.start[j] + m.run[j] == t]
        m.running = [j for j in m.running if j not in m.finished]
        m.arrived = []
        while nxt < n and m.submit[nxt] == t:
            m.arrived.append(nxt)
            nxt += 1
        m.queue += m.arrived
        step(m)
    assert all(s is not None and not math.isnan(s) for s in m.start)
    return m.start, m.booked


def declared(policy: Any) -> Any | None:
    """A rigid policy's reference where none is registered under its name: what its hooks name,
    ``RigidHooks.reference`` (the pass and the order key in Python), ``None`` if nothing."""
    return policy.hooks.reference
