"""The ``salad`` family's one loop: a mapper's placements, a balancer and a gang scheduler in step.

CSSE00 §3 (Fig. 1) and §4 describe IPG-SaLaD as three stages active at once;
the paper prints no rule for how they meet. This loop is a RECONSTRUCTION
(``docs/ipg00-salad.md``), built from the other families' compiled pieces:

- the state is the balancing family's :class:`~sweep.families.balancing._core.Sim`
  (per-PE queues of tasks, the message pool, the migrations in flight), whose
  queues hold each PE's *eligible* tasks (all their predecessors done and
  their data arrived): a job's eligible layer;
- each slice runs the balancer with the balancing family's own step
  (:func:`~sweep.families.balancing._core.balance_step`: migrations delivered,
  messages handed to its ``receive`` hook, its ``tick`` hook), and executes
  with the balancing family's slice accounting (``idle_slice``,
  ``overhead_slice``, ``run_task``);
- what each PE runs is decided by a gang matrix (CSSE00 §3.3.1): rows of
  jobs, one row per slice in turn, rebuilt at period boundaries.

Slice ``t`` does, in this order:

1. the jobs whose mapping ends at ``t`` are released: their entry tasks join
   the queues of the PEs the mapper chose, whose ``last_release`` becomes
   ``t`` (the static allocator's input to Rate of Change's tables, §3.2.2);
2. the tasks whose inputs have all arrived by ``t`` join the queue of the PE
   the mapper chose for them;
3. the balancer's step; its ``tick`` hook runs in every slice with
   ``feedback`` (the scheduler's current allocation, i.e. the queues, is its
   input), and only in the slices of step 1 without it (the mappings are its
   only input);
4. at a period boundary (row 0), the matrix is rebuilt: the jobs present, in
   arrival order, each placed in the first row whose slots are free on every
   PE holding one of its eligible tasks (its *footprint*), a new row if none;
5. every PE runs one slice. The slot's job first: its next task on this PE
   in the mapper's order (the mapper's plan orders each PE's tasks; the
   executor of the mapping family runs them in that order), if that task is
   eligible and here; if it is not, or the job has no mapped task left here,
   the job's first spawned task in the queue (spawned tasks are in no plan).
   Otherwise, with ``local`` (Concurrent Gang's local scheduler, §3.3.3), the
   first task of the queue that is its own job's next on this PE; otherwise
   the PE is idle. A PE owing message overhead pays it first (the balancing
   family's rule). With ``G.rr`` (``policy.pe_order: round_robin``) a job's
   next task on a PE is instead its first task in the queue, the queue a
   ring whose head moves past a task that ran and did not end: the
   balancing family's round robin per slice, to which one job of edgeless
   tasks in one row reduces exactly.

With task classes (``C.on``; ``_workload``'s module docstring), a queued task
may run only when the gang family's ``task_status`` says it is ready (not
waiting for I/O or at a barrier), and a slice it runs is also the gang
family's ``step_task`` of it (its burst or phase runs down); the mapper's order
passes over a blocked task. A job's live tasks, for its barriers, are those
that have joined a queue and not ended.

A task that runs spawns its children at the ages the balancing family's
``run_task`` reads (CSSE00 §2.2): they join this PE's queue, and this PE is
their place from then on (the mapper never saw them).

A task that ends at ``t + 1`` sends each successor its data: it arrives at
``t + 1`` on the same PE, else ``ceil(data / bandwidth)`` slices later
(the mapping family's contention-free message time over the route's
bottleneck bandwidth).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.balancing._core import (
    DONE,
    QUEUED,
    balance_step,
    idle_slice,
    overhead_slice,
    q_push,
    run_task,
)
from sweep.families.gang._core import READY, step_task, task_status

#: ``counts[STATUS]``.
RUNNING, FINISHED, SATURATED = 0, 1, 2
#: What a PE did in a slice instead of running a task: paid message overhead (-1 is idle).
OVERHEAD = -2

#: The jobs (one row per job, in arrival order) and their tasks (numbered job by job).
Jobs = namedtuple("Jobs", "arrival mapped first count left end")
Tasks = namedtuple("Tasks", "job rank place npred ready sstart sdst sdata spawned")
#: The gang matrix, the scratch arrays of the rebuild, the options and the counters.
Gang = namedtuple("Gang", "own foot pend bw local feedback rr spawning cap t_max trace_job trace_moved "
                         "counts")
#: The tasks' classes (CSSE00 §3.3.3), the gang family's own state and draws (``gang._core``): ``on``
#: (0: every task computes, nothing below is read), its jobs and tasks (one a salad job and task),
#: the pool of draws and its settings record (one slice a tick).
Classes = namedtuple("Classes", "on jobs tasks pool par")
#: ``Gang.counts``: what the run measured.
COUNTS = ("status", "slices", "jobs_done", "idle", "idle_with_work", "busy", "rebuilds", "rows_max",
          "held")
(STATUS, SLICES, JOBS_DONE, IDLE, IDLE_WITH_WORK, BUSY, REBUILDS, ROWS_MAX, HELD) = range(len(COUNTS))


def new_jobs(arrival: np.ndarray, mapped: np.ndarray, count: np.ndarray) -> Jobs:
    """The jobs' arrays: ``count`` tasks each, numbered job after job."""
    first = np.zeros(len(count), np.int64)
    first[1:] = np.cumsum(count)[:-1]
    return Jobs(arrival.astype(np.int64), mapped.astype(np.int64), first, count.astype(np.int64),
                count.astype(np.int64).copy(), np.full(len(count), -1, np.int64))


@jit(inline="always", **NO_REFCOUNT)
def _at(S, T, k):
    """The PE task ``k`` is on or bound for: where a migration sent it, else where the mapper put it."""
    return S.tr_dst[k] if S.tr_dst[k] >= 0 else T.place[k]


@jit(inline="always", **NO_REFCOUNT)
def _ready(C, k, t):
    """Whether task ``k`` may run in slice ``t``: always without classes, else when the gang family's
    ``task_status`` says READY (not blocked on I/O or at a barrier)."""
    if C.on == 0:
        return True
    par = C.par[0]
    return task_status(k, t, C.tasks, C.jobs, C.pool, par, par.deterministic != 0) == READY


@jit(**NO_REFCOUNT)
def _first_queued(S, T, C, p, j, spawned, t):
    """The first task of job ``j`` in PE ``p``'s queue from its head that may run at ``t`` (only a
    spawned one with ``spawned``), else -1."""
    h = S.head[p]
    if h < 0:
        return -1
    k = h
    while True:
        if T.job[k] == j and (spawned == 0 or T.spawned[k] == 1) and _ready(C, k, t):
            return k
        k = S.nxt[k]
        if k == h:
            return -1


@jit(**NO_REFCOUNT)
def next_task(S, J, T, G, C, j, p, t):
    """Job ``j``'s next task on PE ``p`` in slice ``t``, -1 if none may run. In the mapper's order:
    its next mapped task here, passing over those blocked on I/O or at a barrier (the barrier may
    wait for a task behind them), if that task is eligible and queued; else its first spawned task
    in the queue that may run. In round robin (``G.rr``): its first task in the queue that may run."""
    if G.rr == 1:
        return _first_queued(S, T, C, p, j, 0, t)
    best = -1
    for k in range(J.first[j], J.first[j] + J.count[j]):
        if T.spawned[k] == 0 and S.status[k] != DONE and _at(S, T, k) == p and \
                (best < 0 or T.rank[k] < T.rank[best]) and (S.status[k] != QUEUED or _ready(C, k, t)):
            best = k
    if best >= 0 and S.status[best] == QUEUED:
        return best
    if G.spawning == 1:
        return _first_queued(S, T, C, p, j, 1, t)
    return -1


@jit(**NO_REFCOUNT)
def _local_pick(S, J, T, G, C, p, owner, t):
    """Concurrent Gang's local scheduler on PE ``p``: the first queued task of another job than the
    slot's that is its job's next here (every compute task's priority is above the floor)."""
    h = S.head[p]
    if h < 0:
        return -1
    k = h
    while True:
        j = T.job[k]
        if j != owner and next_task(S, J, T, G, C, j, p, t) == k:
            return k
        k = S.nxt[k]
        if k == h:
            return -1


@jit(**NO_REFCOUNT)
def _rebuild(S, J, T, G, lo, hi):
    """The matrix of the jobs ``lo..hi-1`` still present (step 4); the rows used."""
    own, foot = G.own, G.foot
    rows = 0
    for j in range(lo, hi):
        if J.end[j] >= 0:
            continue
        width = 0
        for k in range(J.first[j], J.first[j] + J.count[j]):
            if S.status[k] == QUEUED:
                p = _at(S, T, k)
                seen = False
                for i in range(width):
                    seen = seen or foot[i] == p
                if not seen:
                    foot[width] = p
                    width += 1
        if width == 0:
            continue
        row = -1
        for r in range(rows):
            free = True
            for i in range(width):
                free = free and own[r, foot[i]] < 0
            if free:
                row = r
                break
        if row < 0:
            if rows == own.shape[0]:
                return -1
            row = rows
            rows += 1
            own[row, :] = -1
        for i in range(width):
            own[row, foot[i]] = j
    return rows


@jit(inline="always", **NO_REFCOUNT)
def _finish(S, J, T, G, x, p, end, npend):
    """Task ``x`` ended on ``p`` at ``end``: its data leaves for its successors; the pending count."""
    for e in range(T.sstart[x], T.sstart[x + 1]):
        y = T.sdst[e]
        q = T.place[y]
        arrive = end if q == p else end + int(math.ceil(T.sdata[e] / G.bw[p, q] - 1e-9))
        T.ready[y] = max(T.ready[y], arrive)
        T.npred[y] -= 1
        if T.npred[y] == 0:
            G.pend[npend] = y
            npend += 1
    j = T.job[x]
    J.left[j] -= 1
    if J.left[j] == 0:
        J.end[j] = end
        G.counts[JOBS_DONE] += 1
    return npend


@jit(inline="always", **NO_REFCOUNT)
def _release_job(S, J, T, G, j, t, npend):
    """Step 1 for job ``j``: its tasks without predecessors are pending from ``t``."""
    for k in range(J.first[j], J.first[j] + J.count[j]):
        if T.npred[k] == 0 and T.spawned[k] == 0:
            T.ready[k] = t
            G.pend[npend] = k
            npend += 1
            S.last_release[T.place[k]] = t
    return npend


@jit(inline="always", **NO_REFCOUNT)
def _release_ready(S, T, G, C, t, npend):
    """Step 2: the pending tasks whose inputs are all here join their PE's queue (and their job's
    live tasks, which its barriers wait for); the pending left."""
    kept = 0
    for i in range(npend):
        k = G.pend[i]
        if T.ready[k] <= t:
            q_push(S, T.place[k], k)
            C.jobs.alive[T.job[k]] += 1
        else:
            G.pend[kept] = k
            kept += 1
    return kept


@jit(inline="always", **NO_REFCOUNT)
def _run_pe(S, J, T, G, C, p, owner, t):
    """Step 5 for PE ``p`` whose slot holds job ``owner`` (-1: none): the task run, -1 (idle) or
    :data:`OVERHEAD`."""
    x = next_task(S, J, T, G, C, owner, p, t) if owner >= 0 else -1
    if x < 0 and G.local == 1:
        x = _local_pick(S, J, T, G, C, p, owner, t)
    if x < 0:
        idle_slice(S, p)
        return -1
    if overhead_slice(S, p):
        return OVERHEAD
    c = S.cptr[x]
    if not run_task(S, p, x, t) and G.rr == 1:
        S.head[p] = S.nxt[x]  # round robin: the ring's head moves past the task run
    for i in range(c, S.cptr[x]):  # the tasks it spawned joined this PE's queue
        T.place[S.child[i]] = p
        C.jobs.alive[T.job[x]] += 1
    if C.on == 1:  # its burst or phase runs down: it may block on I/O or wait at a barrier
        par = C.par[0]
        step_task(x, t, C.tasks, C.jobs, C.pool, par, par.deterministic != 0)
    return x


@jit(inline="always", **NO_REFCOUNT)
def salad_loop(S, pst, J, T, G, C, tick, receive):
    """Run until every job has ended, or mark the run saturated: more than ``G.cap`` jobs present
    (arrived, at the allocator or released, and not ended), or no end by slice ``G.t_max``."""
    n = J.arrival.shape[0]
    P = S.P
    counts, own = G.counts, G.own
    nrec = G.trace_job.shape[0]
    arrived = 0  # jobs that have arrived (at the allocator, or released)
    released = 0  # jobs whose mapping has ended (they are released in arrival order)
    oldest = 0  # the first job not ended
    npend = 0
    rows, cur = 0, 0
    t = 0
    while counts[JOBS_DONE] < n:
        mapped = False
        while released < n and J.mapped[released] <= t:
            npend = _release_job(S, J, T, G, released, t, npend)
            released += 1
            mapped = True
        while arrived < n and J.arrival[arrived] <= t:
            arrived += 1
        present = released - counts[JOBS_DONE]
        if arrived - counts[JOBS_DONE] > G.cap or t >= G.t_max:
            counts[STATUS] = SATURATED
            break
        npend = _release_ready(S, T, G, C, t, npend)
        moved = S.migrated[0]
        balance_step(S, pst, t, tick, receive, G.feedback == 1 or mapped)
        if cur == 0:
            while oldest < released and J.end[oldest] >= 0:
                oldest += 1
            rows = _rebuild(S, J, T, G, oldest, released)
            if rows < 0:
                counts[STATUS] = SATURATED
                break
            counts[REBUILDS] += 1
            counts[ROWS_MAX] = max(counts[ROWS_MAX], rows)
        waiting = 0
        for p in range(P):
            waiting += S.load[p]
        idle = 0
        for p in range(P):
            owner = own[cur, p] if rows > 0 else -1
            x = _run_pe(S, J, T, G, C, p, owner, t)
            if t < nrec:
                G.trace_job[t, p] = T.job[x] if x >= 0 else -1
            if x == -1:
                idle += 1
            elif x >= 0:
                waiting -= 1
                if S.status[x] == DONE:
                    npend = _finish(S, J, T, G, x, p, t + 1, npend)
        if t < nrec:
            G.trace_moved[t] = S.migrated[0] - moved
        if present > 0:
            counts[HELD] += P
            counts[IDLE] += idle
            counts[IDLE_WITH_WORK] += min(idle, waiting)
            counts[BUSY] += P - idle
        cur = cur + 1 if cur + 1 < rows else 0
        t += 1
    if counts[STATUS] == RUNNING:
        counts[STATUS] = FINISHED
    counts[SLICES] = t
