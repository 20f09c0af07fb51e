"""The compiled pieces of the gang family: P PEs, one global clock, an Ousterhout matrix.

The state (jobs, tasks, machine), the task mechanics, the packing and the
grades; the loop that drives them is :mod:`~sweep.families.gang._loop`.

Model (Campos, Silva, Scherson & Eshaghian 2000, CSSE00 §2.3, §3.3.1, §3.3.3,
Fig 6). Time is counted in *ticks*; ``K`` ticks make one *slice*, the interval
between two signals of the global clock, at which every PE switches context
together. The trace diagram (Ousterhout matrix) ``mat[row, pe]`` holds the task
each PE serves in the slices of that row (−1: an empty slot); rows are served
in turn, one per slice, and one pass over the rows is a *period*. Workload
changes (an arrival, a completion) are acted on only at the end of a period:
then the matrix is rebuilt by :func:`_pack` (the front end of §3.3.3: the jobs
present in arrival order, the first allocated first, the others packed by
first fit, or best fit as an option).

In every tick each PE runs at most one task, one tick of its work:

1. the slot's own task (the *gang* task of the current row) if it is ready:
   the Gang scheduler has precedence over the local one (§3.3.3);
2. else the task the PE's local scheduler picked earlier in this slice, if it
   is still ready (local tasks are not preempted by each other);
3. else the policy's *local* hook picks a ready task of the PE's column, or
   −1: Gang leaves the slot idle, Concurrent Gang runs the highest priority
   ``Pr(T) = max(α λ_IO, λ_COMP)`` above the floor β (§3.3.3, eq. 1).

Tasks of three classes (reconstructed behaviour, see ``docs/ipg00-gang.md``):
``COMPUTE`` never blocks; ``IO`` computes a burst, then blocks for an I/O wait,
in turn; ``SYNC`` computes a phase, then waits at a barrier until every task
of its job still running has reached it. Every effect of a tick on another
PE (a barrier released) takes effect at the next tick, so the order in which
the PEs are visited within a tick changes nothing.

Burst, wait and phase lengths come from a pool of uniforms ``U`` (column 0)
and of ``−log(1 − U)`` (column 1) drawn in numpy before the run, its row
picked by a hash of (task, draw count): the k-th burst of a
task is the same under every policy (common random numbers), and nothing is
drawn inside the loop. ``settings.deterministic`` makes every length its mean
(hand-worked schedules).

Membership grades (§3.3.2) are measured on the slot's own task: at each
context switch its grades move towards the fractions of the slot's ticks it
spent computing (λ_COMP) and blocked on I/O (λ_IO), by the smoothing weight γ
(exponential moving average; a reconstruction). Tasks start at λ_COMP = 1,
λ_IO = 0.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sweep._numba import NO_REFCOUNT, jit, record

# Task states.
READY, IO, BARRIER, DONE = 0, 1, 2, 3
# Job classes.
COMPUTE, IOCLASS, SYNC = 0, 1, 2
CLASS_NAMES = ("compute", "io", "sync")
#: The family's fields of the kernel's record ``par`` (``_simulate.kernel_settings``): the mean
#: I/O burst, I/O wait and sync phase in ticks and the sync imbalance (the workload); ticks per
#: slice; the two options the loop itself reads of a policy's parameters, the packing rule and
#: the grades' smoothing γ (§3.3.2); 1 for deterministic lengths, the in-system cap of jobs, the
#: first slice traced. The policy's own parameters follow, each by its name
#: (:func:`sweep.families._params.kernel_values`: a choice as its index in its choices).
SETTINGS_FIELDS = [("io_burst", np.float64), ("io_wait", np.float64), ("sync_phase", np.float64),
                   ("sync_imbalance", np.float64), ("ticks", np.int64), ("packing", np.int64),
                   ("smoothing", np.float64), ("deterministic", np.int64), ("max_jobs", np.int64),
                   ("trace_from", np.int64)]
SETTINGS = np.dtype(SETTINGS_FIELDS, align=True)
FIRST_FIT, BEST_FIT = 0, 1
#: The grades' slot utilisation is averaged over this many slots (Silva & Scherson 1999's ISPAN
#: rule reads it: ``concurrent_gang``).
ISPAN_CYCLES = 5
#: What the loop reports at each report time, cumulative (one record per report time, −1 where
#: not reached): idle PE-ticks, empty-slot PE-ticks, busy PE-ticks, PE-ticks while the matrix
#: holds a job and the idle PE-ticks among those, slots (PE × slice) in which the PE ran no task
#: at all, task-slices (tasks in the matrix, summed over slices).
REPORT = np.dtype([("idle", np.int64), ("empty", np.int64), ("busy", np.int64), ("held", np.int64),
                   ("held_idle", np.int64), ("idle_slots", np.int64), ("task_slices", np.int64)])
#: How a run ended (``Machine.outcome``, one record): its status, slices run, matrix rebuilds.
OUTCOME = np.dtype([("status", np.int64), ("slices", np.int64), ("rebuilds", np.int64)], align=True)
#: ``outcome.status``.
RUNNING, OVER_CAP = 0, 1
#: A tick beyond any run.
NEVER = np.iinfo(np.int64).max

Jobs = namedtuple("Jobs", "arrival width work cls first alive waiting gen release start end last "
                           "opened")
Tasks = namedtuple("Tasks", "job left seg ready_at state gen draws lam_io lam_comp util")


def new_tasks(job: np.ndarray, left: np.ndarray, seg: np.ndarray) -> Tasks:
    """Fresh tasks: READY, grades λ_IO = 0, λ_COMP = 1, slot utilisation 1."""
    count = job.shape[0]
    return Tasks(job=job, left=left, seg=seg, ready_at=np.zeros(count, np.int64),
                 state=np.zeros(count, np.int64), gen=np.zeros(count, np.int64),
                 draws=np.ones(count, np.int64), lam_io=np.zeros(count), lam_comp=np.ones(count),
                 util=np.ones(count))
Machine = namedtuple("Machine", "mat free run rr skip seen obs outcome order key at size")


def new_machine(processors: int, rows: int) -> Machine:
    """An empty machine of ``processors`` PEs with room for ``rows`` matrix rows.

    ``order``, ``key``, ``at``, ``size``: each PE's column in its local
    scheduler's order (:mod:`~sweep.families.gang._column`).
    """
    return Machine(mat=np.full((rows, processors), -1, np.int64), free=np.zeros(rows, np.int64),
                   run=np.full(processors, -1, np.int64), rr=np.zeros(processors, np.int64),
                   skip=np.zeros(processors, np.int64), seen=np.zeros(processors, np.int64),
                   obs=np.zeros((processors, 4), np.int64), outcome=record(OUTCOME),
                   order=np.zeros((processors, rows), np.int64), key=np.zeros((processors, rows)),
                   at=np.full((rows, processors), -1, np.int64), size=np.zeros(processors, np.int64))


@jit(**NO_REFCOUNT)
def _mix(z):
    """splitmix64's finaliser: a well-mixed 64-bit hash of ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit(**NO_REFCOUNT)
def _slot(pool, task, count):
    key = np.uint64(task) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(count)
    return np.int64(_mix(key) & np.uint64(pool.shape[0] - 1))


@jit(**NO_REFCOUNT)
def uniform(pool, task, count):
    """The ``count``-th uniform of ``task``: the pool row picked by a hash of both, column 0."""
    return pool[_slot(pool, task, count), 0]


@jit(**NO_REFCOUNT)
def exponential(pool, task, count):
    """The ``count``-th standard exponential of ``task``: ``−log(1 − U)`` of the same row."""
    return pool[_slot(pool, task, count), 1]


@jit(**NO_REFCOUNT)
def length(pool, task, count, mean, deterministic):
    """A burst or wait of mean ``mean`` ticks: ⌈Exp · mean⌉ ≥ 1, or ``mean`` rounded."""
    if deterministic:
        return max(1, np.int64(np.round(mean)))
    return max(1, np.int64(np.ceil(exponential(pool, task, count) * mean)))


@jit(**NO_REFCOUNT)
def phase(pool, task, count, mean, imbalance, deterministic):
    """Work between two barriers: ``mean · (1 + imbalance · (2U − 1))`` rounded, ≥ 1."""
    if deterministic:
        return max(1, np.int64(np.round(mean)))
    u = uniform(pool, task, count)
    return max(1, np.int64(np.round(mean * (1.0 + imbalance * (2.0 * u - 1.0)))))


@jit(**NO_REFCOUNT)
def first_segment(cls, work, pool, task, settings):
    """The first burst (I/O), phase (sync) or the whole work (compute) of a new task."""
    deterministic = settings.deterministic != 0
    if cls == IOCLASS:
        return length(pool, task, 0, settings.io_burst, deterministic)
    if cls == SYNC:
        return phase(pool, task, 0, settings.sync_phase, settings.sync_imbalance, deterministic)
    return work + 1


@jit(**NO_REFCOUNT)
def first_segments(cls, job_of, left, pool, settings, seg):
    """Fill ``seg[x]`` with :func:`first_segment` of every task ``x``: of job ``job_of[x]`` (class
    ``cls[job_of[x]]``), ``left[x]`` ticks of work (one compiled loop: a run's tasks number in the
    hundreds of thousands)."""
    for x in range(len(job_of)):
        seg[x] = first_segment(cls[job_of[x]], left[x], pool, x, settings)


@jit(inline="always", **NO_REFCOUNT)
def task_status(x, t, tasks, jobs, pool, settings, deterministic):
    """Task ``x``'s state at tick ``t``; an I/O or barrier wait that is over becomes READY."""
    st = tasks.state[x]
    if st == IO and tasks.ready_at[x] <= t:
        tasks.state[x] = READY
        st = READY
    elif st == BARRIER:
        j = tasks.job[x]
        if jobs.gen[j] > tasks.gen[x] and jobs.release[j] <= t:
            tasks.state[x] = READY
            c = tasks.draws[x]
            tasks.seg[x] = phase(pool, x, c, settings.sync_phase, settings.sync_imbalance, deterministic)
            tasks.draws[x] = c + 1
            st = READY
    return st


@jit(inline="always", **NO_REFCOUNT)
def _release(j, t, jobs):
    jobs.opened[0] += 1  # barriers opened so far (local schedulers' idle caches check it)
    jobs.gen[j] += 1
    jobs.release[j] = t + 1
    jobs.waiting[j] = 0


@jit(inline="always", **NO_REFCOUNT)
def step_task(x, t, tasks, jobs, pool, settings, deterministic):
    """Run task ``x`` for tick ``t``; 1 when its job completes with it, else 0."""
    j = tasks.job[x]
    if jobs.start[j] < 0 or t < jobs.start[j]:  # a minimum: PE-major slices (_loop) go back in time
        jobs.start[j] = t
    tasks.left[x] -= 1
    tasks.seg[x] -= 1
    if tasks.left[x] == 0:
        tasks.state[x] = DONE
        jobs.alive[j] -= 1
        jobs.last[j] = max(jobs.last[j], t + 1)
        if jobs.alive[j] == 0:
            jobs.end[j] = jobs.last[j]  # its latest task's end, whichever PE was visited last
            return 1
        if jobs.waiting[j] > 0 and jobs.waiting[j] == jobs.alive[j]:
            _release(j, t, jobs)
        return 0
    if tasks.seg[x] == 0:
        c = jobs.cls[j]
        if c == IOCLASS:
            k = tasks.draws[x]
            tasks.ready_at[x] = t + 1 + length(pool, x, k, settings.io_wait, deterministic)
            tasks.seg[x] = length(pool, x, k + 1, settings.io_burst, deterministic)
            tasks.draws[x] = k + 2
            tasks.state[x] = IO
        elif c == SYNC:
            tasks.state[x] = BARRIER
            tasks.gen[x] = jobs.gen[j]
            jobs.waiting[j] += 1
            if jobs.waiting[j] == jobs.alive[j]:
                _release(j, t, jobs)
    return 0


@jit(**NO_REFCOUNT)
def _pack(active, count, jobs, mach, packing):
    """Rebuild the matrix from the ``count`` jobs of ``active`` (arrival order); rows used.

    Each job takes the lowest-numbered free PEs of one row: the first row with
    room (first fit) or the row with the least room that fits (best fit); a new
    row when none has room. Tasks move freely between PEs (no migration cost).
    """
    mat, free = mach.mat, mach.free
    P = mat.shape[1]
    rows = 0
    for a in range(count):
        j = active[a]
        w = jobs.width[j]
        r = -1
        for q in range(rows):
            if free[q] >= w and (r < 0 or (packing == BEST_FIT and free[q] < free[r])):
                r = q
                if packing == FIRST_FIT:
                    break
        if r < 0:
            r = rows
            rows += 1
            mat[r, :] = -1
            free[r] = P
        k = 0
        for p in range(P):
            if k == w:
                break
            if mat[r, p] < 0:
                mat[r, p] = jobs.first[j] + k
                k += 1
        free[r] -= w
    return rows


@jit(inline="always", **NO_REFCOUNT)
def _grade(x, obs, p, tasks, settings, ticks):
    """Move the slot task's grades towards what PE ``p``'s slot showed (module docstring)."""
    run, io, sync = obs[p, 0], obs[p, 1], obs[p, 2]
    seen = run + io + sync
    if seen > 0:
        g = settings.smoothing
        tasks.lam_io[x] = (1.0 - g) * tasks.lam_io[x] + g * io / seen
        tasks.lam_comp[x] = (1.0 - g) * tasks.lam_comp[x] + g * run / seen
        u = run / ticks
        tasks.util[x] = tasks.util[x] + (u - tasks.util[x]) / ISPAN_CYCLES


@jit(inline="always", **NO_REFCOUNT)
def wake_tick(x, t, tasks, jobs):
    """The tick at which blocked task ``x`` will be ready, as far as known at ``t``.

    An I/O wait ends at ``ready_at``; an opened barrier at its ``release``; a
    closed barrier at an unknown tick (a large number: the caller also watches
    ``jobs.opened``); a finished task never.
    """
    st = tasks.state[x]
    if st == IO:
        return tasks.ready_at[x]
    if st == BARRIER:
        j = tasks.job[x]
        if jobs.gen[j] > tasks.gen[x]:
            return jobs.release[j]
    return NEVER


@jit(inline="always", **NO_REFCOUNT)
def no_priority(x, tasks, par):
    """The *priority* hook of a policy that keeps no column index (``indexed`` false): never read."""
    return -1.0
