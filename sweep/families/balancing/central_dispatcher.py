"""The central job dispatcher, CJD (Loh, Hsu, Wu & Shieh 1996), a baseline of CSSE00.

CSSE00 §1.2: one PE, the dispatcher, keeps a table of the load of every PE;
"whenever a task arrives at or departs from a processor, the processor
notifies the central dispatcher of its new load state"; the dispatcher
"notifies the most heavily loaded processor to transfer tasks to a requesting
processor" and "also notifies the requesting processor of the decision".

``notify`` says how a PE (other than the dispatcher) reports its load:

- ``every_event`` (the default, the paper's words): one state message per
  event that changed the PE's load, that is per task that arrived at it
  (released there, spawned there, delivered by a migration) or departed from
  it (finished, migrated out); ``_core``'s ``changes`` counts them. Each is an
  ordinary message (``send``: its delay, and ``overhead`` of CPU at both ends
  with ``cpu_overhead``), sent at the PE's next ``tick``, however many are
  still in flight. All the messages of one tick carry the load at that
  tick, the load after the last of those events, not the load after each
  one: the slice model has no order between the events of a slice and the
  sending (the messages leave together, at the tick), so the intermediate
  loads are already stale when they leave; the dispatcher's table takes the
  latest message that arrives, which, on point-to-point networks where the
  messages of a tick arrive together, is then the same as with one load per
  event, and on the shared medium the first of them already brings the
  current load. It needs no per-event record (no allocation in the loop).
- ``coalesced`` (the reading of the first version): at every slice a PE
  whose load differs from the last one it reported sends its load (one
  message per slice at most, and none while its previous one is still in
  flight: the changes of a slice, or of a busy medium, are reported together).

In both the dispatcher's own changes enter its table directly (no message).
A PE at or below ``low_threshold`` without a pending request
sends a request. The dispatcher picks the PE ``m`` of largest load in its
table (lowest number among equals); if ``table[m] − table[r] >= 2`` it orders
``m`` to send ``k = (table[m] − table[r]) // 2`` tasks to ``r``, adds ``k`` to
``r``'s entry and takes it from ``m``'s, and tells ``r`` of the decision.
``m`` sends ``min(k, load − 1)`` tasks with a note, or a note that it had
none; ``r``'s request ends with the note, or with a decision of zero tasks.

``service`` > 0 makes the dispatcher a single server (the centralised
bottleneck of §1.2): the state messages and requests it receives wait in one
FIFO queue (a PE's newer state replaces its older one still queued, in
either reading of ``notify``: the replaced one costs its overhead on arrival
but no service) and each takes ``service`` slices of the dispatcher PE's CPU,
one after another; a message is handled at the start of a slice in which the dispatcher is free,
so at most one a slice (a ``service`` below one slice costs that much CPU
but serves no faster: serving several a slice lets the idle PEs' repeated
requests take all of the dispatcher's CPU once ``(P − 1)(service +
overhead) >= 1``, and the run never ends). 0, the default, handles every
message as it arrives at the cost of the ordinary per-message overhead only.
With ``coalesced`` the dispatcher receives at most one state message and one
request from each other PE in a slice, and handling them one at a time at
``overhead`` each takes at most ``2 (P − 1) overhead`` = 0.6 slice (P = 16,
overhead 0.02), so serialising them at that cost would still handle every one
in the slice it arrived in. With ``every_event`` a burst (a migration of many
tasks, a task spawning several, the initial release) can bring more than 1 /
overhead = 50 messages in a slice; ``service = 0`` charges their overhead as
CPU debt that the dispatcher PE pays in later slices without delaying their
effect on the table.

How many tasks move: CSSE00 says only that the dispatcher "notifies the most
heavily loaded processor to transfer tasks to a requesting processor"; it
prints no amount, and no description of Loh et al. 1996 available to us
gives one.
``k = (table[m] − table[r]) // 2`` is our RECONSTRUCTION: the amount that
equalises the pair as the table sees it (after the move the two entries
differ by at most one task), the largest that does not make the requester the
more loaded of the two.

RECONSTRUCTED (docs/ipg00-balancing.md): ``dispatcher`` = PE 0, ``service`` = 0,
``low_threshold`` = 1 task, the halving rule for ``k`` (above), and which tasks
move (``youngest`` by CPU age; ``oldest`` as option). ``notify = every_event``
is the paper's text; ``coalesced`` the earlier reconstruction.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import param
from sweep.families.balancing import Machine, TaskSet, balancing_policy, migrate, post, run_loop, send

STATE, REQUEST, ORDER, DECISION, NOTE = 1, 2, 3, 4, 5


@dataclass(frozen=True)
class DispatcherParams:
    """The dispatcher's PE, the request threshold, tasks moved; defaults RECONSTRUCTED."""

    dispatcher: int = param(0, ge=0, doc="PE number of the central dispatcher")
    low_threshold: int = param(1, ge=0, doc="a PE at or below this load requests tasks")
    which: str = param("youngest", choices=("oldest", "youngest"), doc="tasks moved, by CPU age")
    service: float = param(0.0, ge=0, unit="slices",
                           doc="dispatcher CPU per state message or request, served FIFO (0: none)")
    notify: str = param("every_event", choices=("every_event", "coalesced"),
                        doc="state messages: one per load change (arrival or departure of a task), "
                            "or one per slice at most, none while one is in flight")


DispatcherState = namedtuple("DispatcherState", ["d", "low", "oldest", "service", "every", "table",
                                                 "reported", "seen", "pending", "q_kind", "q_src", "q_a",
                                                 "q_head", "q_tail", "q_slot", "free"])


def _make_state(machine: Machine, tasks: TaskSet, prm: DispatcherParams) -> DispatcherState:
    p = machine.pes
    cap = 2 * p + 2  # at most one state (the newest) and one request queued per PE
    return DispatcherState(prm.dispatcher, prm.low_threshold, int(prm.which == "oldest"), prm.service,
                           int(prm.notify == "every_event"), np.zeros(p, np.int64), np.full(p, -1, np.int64),
                           np.zeros(p, np.int64), np.zeros(p, np.int64),
                           np.zeros(cap, np.int64), np.zeros(cap, np.int64), np.zeros(cap, np.int64),
                           np.zeros(1, np.int64), np.zeros(1, np.int64), np.full(p, -1, np.int64),
                           np.zeros(1))


def _check(machine: Machine, prm: Any) -> None:
    if prm.dispatcher >= machine.pes:
        raise ValueError(f"policy.dispatcher must be a PE number below system.pes = {machine.pes}, "
                         f"got {prm.dispatcher}")


@jit(**NO_REFCOUNT)
def _order(t, S, C, m, r, k):
    """PE ``m`` carries out an order to send ``k`` tasks to ``r``."""
    give = min(k, S.load[m] - 1)
    if give > 0:
        post(S, migrate(S, t, m, r, give, C.oldest == 1), m, r, NOTE, give, 0, 0)
    else:
        send(S, t, m, r, NOTE, 0, 0, 0)


@jit(**NO_REFCOUNT)
def _decide(t, S, C, r):
    """The dispatcher's answer to a request of PE ``r``."""
    m = -1
    for j in range(S.P):
        if j != r and (m < 0 or C.table[j] > C.table[m]):
            m = j
    k = 0 if m < 0 else (C.table[m] - C.table[r]) // 2
    if k >= 1:
        C.table[m] -= k
        C.table[r] += k
        if m == C.d:
            _order(t, S, C, m, r, k)
        else:
            send(S, t, C.d, m, ORDER, r, k, 0)
    if r == C.d:
        if k == 0:
            C.pending[r] = 0
    else:
        send(S, t, C.d, r, DECISION, k, 0, 0)


@jit(**NO_REFCOUNT)
def _handle(t, S, C, kind, src, a):
    """The dispatcher handles a state message or a request."""
    if kind == STATE:
        C.table[src] = a
    else:
        _decide(t, S, C, src)


@jit(**NO_REFCOUNT)
def _enqueue(C, kind, src, a):
    """Queue a message for the dispatcher; a PE's newer state replaces its state still queued."""
    cap = C.q_kind.shape[0]
    if kind == STATE and C.q_slot[src] >= C.q_head[0]:
        C.q_a[C.q_slot[src] % cap] = a
        return
    x = C.q_tail[0] % cap
    C.q_kind[x], C.q_src[x], C.q_a[x] = kind, src, a
    if kind == STATE:
        C.q_slot[src] = C.q_tail[0]
    C.q_tail[0] += 1


@jit(**NO_REFCOUNT)
def _serve_queue(t, S, C):
    """With ``service`` > 0: handle queued messages while the dispatcher is free at ``t``.

    ``free`` is when the dispatcher finishes the message it handles: once it
    is past ``t`` the rest wait for a later slice, so at most one message
    starts a slice whatever ``service`` (module docstring).
    """
    cap = C.q_kind.shape[0]
    while C.q_head[0] < C.q_tail[0] and C.free[0] <= t:
        x = C.q_head[0] % cap
        C.q_head[0] += 1
        C.free[0] = max(C.free[0], float(t)) + C.service
        if S.cpu == 1:
            S.debt[C.d] += C.service
        _handle(t, S, C, C.q_kind[x], C.q_src[x], C.q_a[x])


@jit(**NO_REFCOUNT)
def _tick(t, S, C):
    if C.service > 0.0:
        _serve_queue(t, S, C)
    for i in range(S.P):
        load = S.load[i]
        if i == C.d:
            if load != C.reported[i]:
                C.table[i] = load
                C.reported[i] = load
        elif C.every == 1:
            for _ in range(S.changes[i] - C.seen[i]):  # one message per arrival or departure
                send(S, t, i, C.d, STATE, load, 0, 0)
            C.seen[i] = S.changes[i]
        elif load != C.reported[i] and S.out_until[i] <= t:
            S.out_until[i] = send(S, t, i, C.d, STATE, load, 0, 0)
            C.reported[i] = load
        if load <= C.low and C.pending[i] == 0:
            C.pending[i] = 1
            if i == C.d:
                _decide(t, S, C, i)
            else:
                send(S, t, i, C.d, REQUEST, 0, 0, 0)


@jit(**NO_REFCOUNT)
def _receive(t, S, C, src, dst, kind, a, b, c):
    if kind in (STATE, REQUEST):
        if C.service > 0.0:
            _enqueue(C, kind, src, a)
        else:
            _handle(t, S, C, kind, src, a)
    elif kind == ORDER:
        _order(t, S, C, dst, a, b)
    elif kind == DECISION:
        if a == 0:
            C.pending[dst] = 0
    elif kind == NOTE:
        C.pending[dst] = 0


@jit(**NO_REFCOUNT)
def _run(S, C):
    run_loop(S, C, _tick, _receive)


POLICY = balancing_policy("central_dispatcher", params=DispatcherParams, kernel=_run, tick=_tick,
                          receive=_receive, make_state=_make_state, check=_check,
                          examples=({}, {"dispatcher": 3, "which": "oldest", "low_threshold": 0},
                                    {"service": 0.5}, {"notify": "coalesced"}))
