"""The compiled core of the balancing family: P time-sliced PEs, messages and migrations.

Time advances in slices (CSSE00 §3.2.1 measures the sampling interval in time
slices). Slice ``t`` (from ``t`` to ``t + 1``) does, in this order:

1. migrations due at ``t`` join the tail of their destination's queue, in the
   order they were sent;
2. roots released at ``t`` join their home PE's queue (in task order), and the
   PE's ``last_release`` becomes ``t`` (the static allocator's mapping, which
   RoC's tables learn, §3.2.2);
3. messages due at ``t`` are handed, in the order they were sent, to the
   policy's ``receive`` hook;
4. the policy's ``tick`` hook looks at every PE and may send messages and
   migrate tasks;
5. every PE runs one slice: a PE owing at least one slice of message
   overhead (``debt``, ``system.cpu_overhead``) pays it instead; otherwise the
   task at the head of its queue runs (round robin per slice): its remaining
   work drops by one and its CPU age rises by one; the children it spawns at
   that age join the tail of the queue; a finished task leaves, an unfinished
   one goes to the back. A PE with an empty queue is idle.

The run ends after the slice in which the last task finishes: the makespan.

Communication (``_machine``): a message over ``h`` hops arrives
``ceil(h (latency + 2 overhead))`` slices after it is sent; a migration of
``k`` tasks ``ceil(h (latency + 2 overhead + k task_transfer))``. On the shared
medium of ``workstations`` every transmission (one hop) waits for the medium
(``bus_free``, a time that may lie within a slice) and holds it for its
duration (``medium_hold: whole_slices``: rounded up to whole slices); it
arrives at the first slice boundary after its end. A broadcast is one transmission
there, one message per neighbour elsewhere. A message arrives at ``t`` at the
earliest, so it is handled at the next slice. Tasks in transit belong to no
PE (they neither run nor count in any load). A PE's *load* is the number of
tasks in its queue, the running one included. ``changes[pe]`` counts the
events that changed it so far, one per task that joined the queue (released,
spawned, delivered by a migration) or left it (finished, migrated out): the
arrivals and departures that the central dispatcher's PEs report one by one.

The message pool has a fixed size because most policies keep at most one
broadcast and one transfer or request chain in flight per PE; a run that
overflows it stops with an error rather than growing, and the wrapper
(``_simulate.run_policy``) runs it again from the start with a pool twice as
large (``make_sim(..., pool=)``). The central dispatcher's reports, one per
load change (``policy.notify: every_event``), have no such bound: on the
shared medium they can queue by the thousand.

Work conservation is checked in every run: a task finishing twice, or the
slices executed not summing to the total work, is an error (``err``), and the
wrapper raises.

Layout: :class:`Sim` is a namedtuple of arrays (per task, per PE, the message
pool) and a few scalars; counters are one-element arrays named for what they
count. :func:`run_loop` is ``inline="always"``: each policy compiles a kernel
``_run(S, pst) = run_loop(S, pst, _tick, _receive)`` with its hooks as
compile-time constants (numba's on-disk cache cannot key on dispatchers passed
at run time). The hooks' signatures::

    tick(t, S, pst) -> None
    receive(t, S, pst, src, dst, kind, a, b, c) -> None

``pst`` is the policy's own namedtuple (its parameters and state arrays).
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.balancing._machine import Machine
from sweep.families.balancing._tasks import TaskSet

T = TypeVar("T")

# Task status.
UNBORN, QUEUED, TRANSIT, DONE = 0, 1, 2, 3
# Error codes of a run (``S.err[0]``).
OK, ERR_POOL, ERR_TWICE, ERR_TIMEOUT, ERR_WORK = 0, 1, 2, 3, 4
ERRORS = {ERR_POOL: "message pool full", ERR_TWICE: "a task finished twice",
          ERR_TIMEOUT: "no end within the slice limit",
          ERR_WORK: "slices executed differ from the total work"}

Sim = namedtuple("Sim", [
    # machine
    "P", "N", "dist", "nbr_ptr", "nbr", "bus", "bus_whole", "latency", "overhead", "transfer", "cpu",
    # tasks (static)
    "life", "child_ptr", "child", "child_age", "roots", "release", "home",
    # tasks (dynamic)
    "rem", "age", "status", "nxt", "prv", "cptr", "tr_time", "tr_dst", "finish",
    # PEs
    "head", "load", "changes", "debt", "busy", "idle", "ovh", "last_release", "out_until", "mig_until",
    # transit list and message pool
    "tr_list", "n_transit", "m_time", "m_src", "m_dst", "m_kind", "m_a", "m_b", "m_c", "m_paid",
    "n_msg", "i_src", "i_dst", "i_kind", "i_a", "i_b", "i_c", "i_paid", "bus_free",
    # counters and outcome
    "next_root", "done", "executed", "messages", "migrations", "migrated", "hops_moved",
    "err", "makespan", "t_max",
])


def _one(dtype: type = np.int64) -> np.ndarray:
    return np.zeros(1, dtype=dtype)


def _children(tasks: TaskSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR of each task's children, sorted by spawn age then index."""
    n = len(tasks)
    spawned = np.flatnonzero(tasks.parent >= 0)
    order = spawned[np.lexsort((spawned, tasks.spawn_age[spawned], tasks.parent[spawned]))]
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(ptr, tasks.parent[spawned] + 1, 1)
    return np.cumsum(ptr), order.astype(np.int64), tasks.spawn_age[order].astype(np.int64)


def make_sim(machine: Machine, tasks: TaskSet, pool: int = 0) -> Sim:
    """The initial state of one run (nothing released yet); ``pool``: at least that many message slots."""
    p, n = machine.pes, len(tasks)
    ptr, child, child_age = _children(tasks)
    roots = np.flatnonzero(tasks.parent < 0)
    roots = roots[np.argsort(tasks.release[roots], kind="stable")].astype(np.int64)
    cap = max(2 * p * (int(np.diff(machine.nbr_ptr).max(initial=0)) + 2) + 1024, pool)  # module docstring
    t_max = 20 * (tasks.total_work + int(tasks.release.max(initial=0))) + 100_000
    pool = [np.zeros(cap, dtype=np.int64) for _ in range(15)]
    return Sim(
        p, n, machine.dist, machine.nbr_ptr, machine.nbr, int(machine.bus), int(machine.whole_slices),
        machine.latency,
        machine.overhead, machine.task_transfer, int(machine.cpu_overhead),
        tasks.life, ptr, child, child_age, roots, tasks.release, tasks.home,
        tasks.life.copy(), np.zeros(n, np.int64), np.zeros(n, np.int64), np.full(n, -1, np.int64),
        np.full(n, -1, np.int64), ptr[:-1].copy(), np.zeros(n, np.int64), np.full(n, -1, np.int64),
        np.full(n, -1, np.int64),
        np.full(p, -1, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros(p),
        np.zeros(p, np.int64),
        np.zeros(p, np.int64), np.zeros(p, np.int64), np.full(p, -1, np.int64),
        np.full(p, -1, np.int64), np.full(p, -1, np.int64),
        np.zeros(n, np.int64), _one(), *pool[:8], _one(), *pool[8:], _one(np.float64),
        _one(), _one(), _one(), _one(), _one(), _one(), _one(), _one(), _one(), t_max,
    )


@jit(**NO_REFCOUNT)
def q_push(S, pe, k):
    """Append task ``k`` at the tail of ``pe``'s round-robin queue."""
    h = S.head[pe]
    if h < 0:
        S.head[pe] = k
        S.nxt[k] = k
        S.prv[k] = k
    else:
        tail = S.prv[h]
        S.nxt[tail] = k
        S.prv[k] = tail
        S.nxt[k] = h
        S.prv[h] = k
    S.load[pe] += 1
    S.changes[pe] += 1
    S.status[k] = QUEUED


@jit(**NO_REFCOUNT)
def q_remove(S, pe, k):
    """Take task ``k`` out of ``pe``'s queue (the head moves on if it was ``k``)."""
    if S.nxt[k] == k:
        S.head[pe] = -1
    else:
        S.nxt[S.prv[k]] = S.nxt[k]
        S.prv[S.nxt[k]] = S.prv[k]
        if S.head[pe] == k:
            S.head[pe] = S.nxt[k]
    S.load[pe] -= 1
    S.changes[pe] += 1


@jit(**NO_REFCOUNT)
def _arrival(S, t, hops, slices):
    """When a transmission of ``slices`` per hop over ``hops`` hops sent at ``t`` arrives.

    On the shared medium the transmission starts when the medium is free
    (``bus_free``, a time within a slice) and holds it for ``slices``
    (``bus_whole``: rounded up to whole slices); it arrives at the first slice
    boundary after it ends.
    """
    if S.bus == 1:
        duration = math.ceil(slices - 1e-9) if S.bus_whole == 1 else slices
        end = max(float(t), S.bus_free[0]) + duration
        S.bus_free[0] = end
        return int(math.ceil(end - 1e-9))
    return t + int(math.ceil(hops * slices - 1e-9))


@jit(**NO_REFCOUNT)
def _pool_add(S, time, src, dst, kind, a, b, c, paid):
    n = S.n_msg[0]
    if n >= S.m_time.shape[0]:
        S.err[0] = ERR_POOL
        return
    S.m_time[n] = time
    S.m_src[n] = src
    S.m_dst[n] = dst
    S.m_kind[n] = kind
    S.m_a[n] = a
    S.m_b[n] = b
    S.m_c[n] = c
    S.m_paid[n] = paid
    S.n_msg[0] = n + 1


@jit(**NO_REFCOUNT)
def send(S, t, src, dst, kind, a, b, c):
    """Send one message; returns its arrival slice. Both ends pay ``overhead`` of CPU."""
    S.messages[0] += 1
    if S.cpu == 1:
        S.debt[src] += S.overhead
    time = _arrival(S, t, S.dist[src, dst], S.latency + 2.0 * S.overhead)
    _pool_add(S, time, src, dst, kind, a, b, c, 1)
    return time


@jit(**NO_REFCOUNT)
def broadcast(S, t, src, kind, a, b, c):
    """Send the same message to every neighbour (one transmission on a shared medium)."""
    lo, hi = S.nbr_ptr[src], S.nbr_ptr[src + 1]
    if S.bus == 1:
        S.messages[0] += 1
        if S.cpu == 1:
            S.debt[src] += S.overhead
        time = _arrival(S, t, 1, S.latency + 2.0 * S.overhead)
        for x in range(lo, hi):
            _pool_add(S, time, src, S.nbr[x], kind, a, b, c, 1)
    else:
        time = t
        for x in range(lo, hi):
            time = max(time, send(S, t, src, S.nbr[x], kind, a, b, c))
    S.out_until[src] = time
    return time


@jit(**NO_REFCOUNT)
def announce(S, t, src, kind, value, periodic, sent):
    """Broadcast ``value`` of PE ``src`` to its neighbours (a message of ``kind``) if it differs from
    the one it last sent, ``sent[src]``, or every time with ``periodic``; never while its previous
    broadcast is still in flight (``out_until``). The load exchange of the gradient model and of
    sender-initiated diffusion (``exchange: on_change | periodic``)."""
    if S.out_until[src] <= t and (periodic == 1 or value != sent[src]):
        broadcast(S, t, src, kind, value, 0, 0)
        sent[src] = value


@jit(**NO_REFCOUNT)
def post(S, time, src, dst, kind, a, b, c):
    """A note that travels with a migration (arrives at ``time``; no cost, not counted)."""
    _pool_add(S, time, src, dst, kind, a, b, c, 0)


@jit(**NO_REFCOUNT)
def _extreme_task(S, pe, oldest):
    """The queued task of ``pe`` with the most (``oldest``) or least CPU age; first from the head."""
    h = S.head[pe]
    best = h
    k = S.nxt[h]
    while k != h:
        if (S.age[k] > S.age[best]) if oldest else (S.age[k] < S.age[best]):
            best = k
        k = S.nxt[k]
    return best


@jit(**NO_REFCOUNT)
def migrate(S, t, src, dst, count, oldest):
    """Move up to ``count`` tasks of ``src`` to ``dst`` as one transfer.

    The tasks are chosen one by one, the oldest (or youngest) by CPU age first.
    Returns the arrival slice, or -1 if nothing moved. ``mig_until[src]`` is
    the arrival of the last transfer ``src`` sent (policies that push load
    wait for it before pushing more).
    """
    moved = 0
    first = S.n_transit[0]
    while moved < count and S.load[src] > 0:
        k = _extreme_task(S, src, oldest)
        q_remove(S, src, k)
        S.status[k] = TRANSIT
        S.tr_dst[k] = dst
        S.tr_list[first + moved] = k
        moved += 1
    if moved == 0:
        return -1
    S.n_transit[0] = first + moved
    hops = S.dist[src, dst]
    time = _arrival(S, t, hops, S.latency + 2.0 * S.overhead + moved * S.transfer)
    for x in range(first, first + moved):
        S.tr_time[S.tr_list[x]] = time
    S.mig_until[src] = max(S.mig_until[src], time)
    if S.cpu == 1:
        S.debt[src] += S.overhead
        S.debt[dst] += S.overhead
    S.migrations[0] += 1
    S.migrated[0] += moved
    S.hops_moved[0] += moved * hops
    return time


@jit(inline="always", **NO_REFCOUNT)
def _deliver_tasks(S, t):
    w = 0
    for x in range(S.n_transit[0]):
        k = S.tr_list[x]
        if S.tr_time[k] <= t:
            q_push(S, S.tr_dst[k], k)
        else:
            S.tr_list[w] = k
            w += 1
    S.n_transit[0] = w


@jit(inline="always", **NO_REFCOUNT)
def _release_roots(S, t):
    r = S.next_root[0]
    while r < S.roots.shape[0] and S.release[S.roots[r]] <= t:
        k = S.roots[r]
        q_push(S, S.home[k], k)
        S.last_release[S.home[k]] = t
        r += 1
    S.next_root[0] = r


@jit(inline="always", **NO_REFCOUNT)
def _collect_messages(S, t):
    """Move the messages due at ``t`` to the inbox, in sending order; return how many."""
    w = 0
    due = 0
    for x in range(S.n_msg[0]):
        if S.m_time[x] <= t:
            S.i_src[due] = S.m_src[x]
            S.i_dst[due] = S.m_dst[x]
            S.i_kind[due] = S.m_kind[x]
            S.i_a[due] = S.m_a[x]
            S.i_b[due] = S.m_b[x]
            S.i_c[due] = S.m_c[x]
            S.i_paid[due] = S.m_paid[x]
            due += 1
        else:
            S.m_time[w] = S.m_time[x]
            S.m_src[w] = S.m_src[x]
            S.m_dst[w] = S.m_dst[x]
            S.m_kind[w] = S.m_kind[x]
            S.m_a[w] = S.m_a[x]
            S.m_b[w] = S.m_b[x]
            S.m_c[w] = S.m_c[x]
            S.m_paid[w] = S.m_paid[x]
            w += 1
    S.n_msg[0] = w
    return due


@jit(inline="always", **NO_REFCOUNT)
def idle_slice(S, pe):
    """``pe`` has nothing to run this slice: it is idle, and its message overhead debt runs down."""
    S.idle[pe] += 1
    S.debt[pe] = max(S.debt[pe] - 1.0, 0.0)


@jit(inline="always", **NO_REFCOUNT)
def overhead_slice(S, pe):
    """Whether ``pe`` owes a slice of message overhead (``debt``) and pays it this slice."""
    if S.debt[pe] >= 1.0:
        S.debt[pe] -= 1.0
        S.ovh[pe] += 1
        return True
    return False


@jit(inline="always", **NO_REFCOUNT)
def run_task(S, pe, h, t):
    """Task ``h``, queued at ``pe``, runs slice ``t`` (step 5); whether it finished."""
    S.busy[pe] += 1
    S.executed[0] += 1
    S.rem[h] -= 1
    a = S.age[h] + 1
    S.age[h] = a
    c = S.cptr[h]
    end = S.child_ptr[h + 1]
    while c < end and S.child_age[c] == a:
        q_push(S, pe, S.child[c])
        c += 1
    S.cptr[h] = c
    if S.rem[h] > 0:
        return False
    q_remove(S, pe, h)
    S.finish[h] = t + 1
    if S.status[h] == DONE:
        S.err[0] = ERR_TWICE
    S.status[h] = DONE
    S.done[0] += 1
    return True


@jit(inline="always", **NO_REFCOUNT)
def _execute(S, pe, t):
    """One slice of ``pe`` (module docstring, step 5): the head of its queue, round robin."""
    if S.load[pe] == 0:
        idle_slice(S, pe)
        return
    if overhead_slice(S, pe):
        return
    h = S.head[pe]
    if not run_task(S, pe, h, t):
        S.head[pe] = S.nxt[h]


@jit(inline="always", **NO_REFCOUNT)
def balance_step(S, pst, t, tick, receive, sample):
    """Steps 1–4 of slice ``t`` (module docstring); the ``tick`` hook only when ``sample``.

    Separate from step 5 so that another executor (the ``salad`` family's gang
    scheduler) can run the same balancer on the same state.
    """
    _deliver_tasks(S, t)
    _release_roots(S, t)
    due = _collect_messages(S, t)
    for x in range(due):
        dst = S.i_dst[x]
        if S.cpu == 1 and S.i_paid[x] == 1:
            S.debt[dst] += S.overhead
        receive(t, S, pst, S.i_src[x], dst, S.i_kind[x], S.i_a[x], S.i_b[x], S.i_c[x])
    if sample:
        tick(t, S, pst)


@jit(inline="always", **NO_REFCOUNT)
def run_loop(S, pst, tick, receive):
    """Run to the end (module docstring); the outcome is in ``S.makespan`` / ``S.err``."""
    t = 0
    while True:
        balance_step(S, pst, t, tick, receive, True)
        for pe in range(S.P):
            _execute(S, pe, t)
        t += 1
        if S.err[0] != OK:
            break
        if S.done[0] == S.N:
            S.makespan[0] = t
            if S.executed[0] != S.life.sum():
                S.err[0] = ERR_WORK
            break
        if t > S.t_max:
            S.err[0] = ERR_TIMEOUT
            break


def run_with_room(make: Callable[[int], Sim], run: Callable[[Sim], T]) -> tuple[Sim, T]:
    """``run`` on the state ``make(pool)`` gives, ``pool`` the least number of message slots; a run
    that fills the pool runs again from the start with twice the pool (module docstring). The
    kernels are deterministic, so the rerun is the same run with more room. Returns the final
    state and what ``run`` returned."""
    pool = 0
    while True:
        sim = make(pool)
        out = run(sim)
        if sim.err[0] != ERR_POOL or sim.m_time.shape[0] > 8 * (sim.N + 1024):
            return sim, out
        pool = 2 * sim.m_time.shape[0]


def check_outcome(S: Sim, policy: str) -> None:
    """Raise RuntimeError if the run failed or did not conserve work (module docstring)."""
    if S.err[0] != OK:
        raise RuntimeError(f"balancing policy {policy}: {ERRORS[int(S.err[0])]}")
    if not (S.status == DONE).all() or S.n_transit[0] != 0 or not (S.rem == 0).all() \
            or not np.array_equal(S.age, S.life) or S.load.any():
        raise RuntimeError(f"balancing policy {policy}: work not conserved")
