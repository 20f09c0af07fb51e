"""The one event loop of the malleable family (Chiang & Vernon 1996, CV96: §2, §4.3).

Model. The system holds ``P`` processors; a job ``j`` on ``x`` processors (``x``
real or integer) does its work at the rate ``1/T_j(x)``, ``T_j(x) = a_j/x + b_j + c_j x``
(:mod:`sweep.workloads.speedup`), so between two events every job's remaining
fraction falls linearly and its acquired processing time (processor-seconds
allocated, CV96 §2.1) grows by ``x·dt``. An event is an arrival, a departure,
or the end of a time slice or repartitioning period.

One loop, two hooks. :func:`run_events` is the loop every policy runs: after
each event it calls the policy's *configure* hook for an arriving job (the
processors the job is configured for: FB-PWS and FB-ASP; equipartition
policies have none, :func:`unconfigured`), then its *allocate* hook (new
allocations: equipartition in ``_equipartition``, FB time slices in
``_slices``), then :func:`set_rates`. Hook signatures::

    configure(j, options, columns, state, sc, work) -> None
    allocate(event, options, columns, state, sc, work) -> None

``event`` is the arriving job's index, :data:`DEPARTURE` or :data:`SLICE`.
``run_events`` is inlined into each policy's two-line kernel with the hooks as
compile-time constants (a dispatcher passed at run time would make numba's
on-disk cache unusable; as in the dispatch family). Numba's cache does not see
changes to this file from a kernel compiled in another file (a documented numba
limitation): the named types below change every kernel's signature when the
state's layout changes; after changing the logic here, delete the ``.nbi``/``.nbc``
files of ``__pycache__``.

Repartitioning overhead (CV96 §4.3): when a job's positive allocation differs
from its previous positive one, the whole job stalls for ``overhead`` seconds
(it holds its processors and makes no progress); a change during a stall
restarts the stall. A job's first allocation, and being swapped out and back
in to the same size (FB slices), are not changes. Stall ends are events
handled inside :func:`next_event` (they change no allocation).

State, all named (made by :func:`start`): the job columns the kernel reads
(:class:`Columns`), the policy options (one record, :func:`make_options`), the per-job state
(:class:`State`), the batch sums (:class:`Batches`), the hooks' work arrays
(a policy's own named tuple) and the scalars, one numba record (a structured
array of length 1, dtype :data:`SCALARS`: reads and writes of its fields are
plain loads and stores, as fast as an indexed scalar array).

Statistics (batch means): after ``warmup`` departures, departures are cut into
batches of ``batch_length``; batch 0 is discarded, batches 1..k measured: per
batch the sum of response times, the area under the number in system, the
processor-seconds allocated, the duration and the sums of the departed jobs'
controls. After each batch with ``k ≥ min_batches`` measured and a target
``rel > 0``: once the batches have merged at least once (the run twice as long
as at the first growth test, so that the fill-up from an empty system weighs
as little), a number in system that grows across the batches (:func:`growing`,
at the level ``sat_p / (min_batches + 1)``: as many tests between two merges
flag a stable point no more often than the one at the merge) marks the point
saturated (``saturated = 2``) and stops it at once; otherwise
the 90% interval of the response batch means is checked against ``rel·mean``
(met: stop, unless the number in system grows: then saturated); with ``q > 0``
controls the mean and its interval are the control-variate ones
(:func:`sweep.stats.compiled.controlled_mean`). At ``2B + 2`` batches the same
growth test runs (for any run), then adjacent pairs merge (the batch length
doubles). The run also stops after ``target`` departures, or when ``cap`` jobs
are in the system (``saturated = 1``).

The loop is compiled without numba's reference counting
(:data:`sweep._numba.NO_REFCOUNT`), so it may neither allocate nor
call a function that does: when a batch is complete the loop pauses
(``pending``), :func:`run_batches` evaluates it (:func:`close_batch`, compiled
with reference counting) and resumes the loop where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

from sweep._numba import jit, record
from sweep.families._params import kernel_fields, kernel_values
from sweep.families.malleable._workload import MalleableJobs
from sweep.stats import compiled

#: :func:`next_event`'s answers besides an arriving job's index
DONE, DEPARTURE, SLICE = -3, -2, -1

#: The loop's scalars: counters, the clock and the stopping rule's settings.
SCALARS = np.dtype([
    ("t", np.float64),               # the clock (s)
    ("slice_end", np.float64),       # end of the current FB slice or repartitioning period
    ("allocated", np.float64),       # processors allocated now
    ("max_allocated", np.float64),   # the most processors ever allocated at once (a check)
    ("max_over_cap", np.float64),    # the most any job held above its cap N_j (a check)
    ("overhead", np.float64),        # repartitioning overhead (s)
    ("rel", np.float64),             # target relative half-width; 0: a fixed-length run
    ("sat_p", np.float64),           # significance of the growth test
    ("in_system", np.int64),         # jobs in the system
    ("next_arrival", np.int64),      # index of the next job to arrive
    ("departed", np.int64),
    ("events", np.int64),
    ("saturated", np.int64),         # 0; 1: the cap reached; 2: the number in system grows
    ("met", np.int64),               # 1 once the interval is narrow enough
    ("pending", np.int64),           # 1: a batch is complete, the loop pauses
    ("target", np.int64),            # departures after which the run ends
    ("warmup", np.int64),            # departures discarded before batch 0
    ("cap", np.int64),               # jobs in system that stop the run
    ("batch", np.int64),             # the current batch (0: discarded)
    ("batch_length", np.int64),
    ("in_batch", np.int64),          # departures in the current batch
    ("min_batches", np.int64),       # measured batches before the interval is checked
    ("merges", np.int64),            # times the batches merged (the batch length doubled)
    ("chunk_start", np.int64),       # index of the first job of the current chunk of arrivals
    ("more", np.int64),              # 1: jobs follow the current chunk; 0: it is the stream's last
    ("starved", np.int64),           # 1: the chunk is used up, the loop pauses for the next one
    ("free", np.int64),              # slots free (the top of the stack State.free)
    ("logged", np.int64),            # departures in the log (Log)
    ("flush", np.int64),             # 1: the log is full, the loop pauses for it to be emptied
], align=True)


class Columns(NamedTuple):
    """Jobs as the loop reads them (float64; ``controls`` (n, q)): a chunk of the stream in arrival
    order (the arrivals), or the jobs in the system by slot (copied there on arrival)."""

    arrival: np.ndarray
    a: np.ndarray       # T_j(x) = a_j/x + b_j + c_j x
    b: np.ndarray
    c: np.ndarray
    cap: np.ndarray     # min(N_j, P)
    first: np.ndarray   # phase-one cap of a two-phase equipartition (cap by default)
    second: np.ndarray  # phase-two cap on top: cap − first
    pws: np.ndarray     # processor working set (FB-PWS's configuration)
    controls: np.ndarray  # the control variates' values (stop.control_variate)


#: The family's fields of the options record the hooks read (:func:`make_options`): the
#: processors P, and whether some job has a positive phase-two cap (a two-phase equipartition).
#: The policy's own parameters follow, each by its name.
OPTIONS_FIELDS = [("processors", np.float64), ("phase2", np.bool_)]
#: The two of a policy's parameters the family reads itself, by name, and their values for a
#: policy without them: the stall per change of allocation (the loop, CV96 §4.3) and the
#: repartitioning period, whose first end :func:`start` schedules.
LOOP_PARAMS = {"repartition_overhead": 0.0, "repartition_period": 0.0}


class State(NamedTuple):
    """Per slot (a job in the system), and the jobs in the system as slots."""

    ident: np.ndarray        # the job's index in the stream (int64)
    remaining: np.ndarray    # fraction of the work left (at its departure, ~0: rounding)
    acquired: np.ndarray     # processor-seconds allocated so far
    allocation: np.ndarray   # processors now
    rate: np.ndarray         # fraction of the work done per second now
    stall_end: np.ndarray    # end of the job's repartitioning stall
    last: np.ndarray         # its last positive allocation
    changes: np.ndarray      # changes of its allocation (int64)
    active: np.ndarray       # the jobs in the system, in arrival order (int64 slots)
    by_acquired: np.ndarray  # the same jobs by (acquired service, arrival) (:func:`by_acquired`)
    free: np.ndarray         # a stack of the free slots (its top: ``free`` in the scalars)


class Log(NamedTuple):
    """Departed jobs, in departure order, while the caller records them (length 0: none)."""

    ident: np.ndarray        # the job's index in the stream (int64)
    depart: np.ndarray       # its departure time
    acquired: np.ndarray     # processor-seconds it was allocated
    changes: np.ndarray      # changes of its allocation (int64)
    remaining: np.ndarray    # its rounding residue


class JobRecord(NamedTuple):
    """Per job of a finite stream, in arrival order (NaN, or 0 changes, for jobs that never left)."""

    depart: np.ndarray
    acquired: np.ndarray
    changes: np.ndarray
    remaining: np.ndarray


class Batches(NamedTuple):
    """Per batch sums (``2B + 2`` batches) and what the interval needs."""

    response: np.ndarray      # sum of response times
    area: np.ndarray          # area under the number in system
    busy: np.ndarray          # processor-seconds allocated
    time: np.ndarray          # duration
    allocation: np.ndarray    # sum over the departed jobs of acquired processor-seconds / response
    changes: np.ndarray       # sum of their allocation changes
    controls: np.ndarray      # (2B + 2, q): sums of the departed jobs' control values
    means: np.ndarray         # (q,): the controls' known means
    t_quantile: np.ndarray    # 90% two-sided t quantile for k − 1 degrees of freedom at [k]


class Stop(NamedTuple):
    """The loop's stopping rule (module docstring; built by ``simulate.stop_rule``)."""

    warmup: int
    target: int
    cap: int
    blen: int
    batches: int = 20
    rel: float = 0.0
    sat_p: float = 1e-3
    control_means: np.ndarray | None = None  # (q,): the control variates' known means; None: none


class Outcome(NamedTuple):
    """A finished run: the departed jobs (:class:`JobRecord` for a finite stream, a :class:`Log`
    of a recorded stream, or None), the batch sums and the scalars (a numpy record view)."""

    state: Any
    batches: Batches
    scalars: np.record


@jit()
def growing(number, sat_p, jobs):
    """Whether batch means of the number in system grow without bound.

    Mann–Kendall ``p < sat_p`` over the batches, and the last quarter's mean
    exceeds the first quarter's by at least 0.5% of the ``jobs`` departed over
    the batches, or by at least 50 jobs and a factor 1.5. A system past
    saturation keeps a fixed fraction of its arrivals (with least-acquired-first
    shares only the largest jobs stay, a small fraction: hence the second
    form); a heavy-tailed transient in a stable system, one huge job holding
    many processors for a while, raises the number in system by a few jobs.
    """
    k = number.size
    q = max(k // 4, 1)
    if k < 8 or not compiled.trend_pvalue(number) < sat_p:
        return False
    first, last = number[:q].mean(), number[k - q:].mean()
    return last - first >= 0.005 * jobs or (last - first >= 50.0 and last >= 1.5 * first)


@jit()
def number_in_system(batches, k):
    """Mean number in system of the measured batches ``1..k``."""
    return batches.area[1:k + 1] / batches.time[1:k + 1]


@jit()
def close_batch(batches, scalars):
    """A batch is complete. With a target interval and ``B`` batches measured: once the batches
    have merged, a number in system that grows stops the run (``saturated = 2``); else the interval
    is checked (``met``, unless the number in system grows: ``saturated = 2``). At ``2B + 2``
    batches test for growth, then merge adjacent pairs (the batch length doubles). Clears
    ``pending``."""
    sc = scalars[0]
    sc.pending = 0
    sc.batch += 1
    sc.in_batch = 0
    k, blen = sc.batch - 1, sc.batch_length
    if k >= sc.min_batches and sc.rel > 0.0:
        tested = sc.merges > 0
        # tested after each of the B + 1 batches between two merges: each at sat_p / (B + 1), so
        # that a stable point is flagged no more often than by the one test per doubling
        if tested and growing(number_in_system(batches, k), sc.sat_p / (sc.min_batches + 1), k * blen):
            sc.saturated = 2  # at once, not at the next doubling of the run (issue 15)
            return
        means = batches.response[1:k + 1] / blen
        q = batches.means.size
        if q == 0:
            mean, halfwidth = means.mean(), compiled.ci_halfwidth(means, batches.t_quantile[k])
        else:
            # each control costs a degree of freedom: t_{k-1-q} = t_quantile[k - q]
            controls = batches.controls[1:k + 1] / blen
            mean, halfwidth = compiled.controlled_mean(means, controls, batches.means,
                                                   batches.t_quantile[k - q])
        if halfwidth <= sc.rel * mean:
            if not tested and growing(number_in_system(batches, k), sc.sat_p, k * blen):
                sc.saturated = 2  # a narrow interval around a mean that keeps growing
            else:
                sc.met = 1
            return
    if sc.batch == batches.response.size:
        if growing(number_in_system(batches, k), sc.sat_p, k * blen):
            sc.saturated = 2
        half = batches.response.size // 2
        for column in (batches.response, batches.area, batches.busy, batches.time, batches.allocation,
                       batches.changes):
            for i in range(half):
                column[i] = column[2 * i] + column[2 * i + 1]
            column[half:] = 0.0
        for i in range(half):
            batches.controls[i] = batches.controls[2 * i] + batches.controls[2 * i + 1]
        batches.controls[half:] = 0.0
        sc.batch = half
        sc.batch_length *= 2
        sc.merges += 1


@jit(inline="always")
def next_event(arrivals, columns, state, batches, log, sc):
    """Advance to the next event and apply it; ``DONE``, ``DEPARTURE``, ``SLICE`` or the arriving
    job's slot.

    Ties: a stall end before a departure before an arrival before a slice end.
    ``DONE`` also when the loop must pause: a batch to close, the chunk of
    arrivals used up, the log full (:func:`run_stream` resumes it).
    """
    rem, acq, alloc, rate = state.remaining, state.acquired, state.allocation, state.rate
    act, byacq, stall = state.active, state.by_acquired, state.stall_end
    nostall = sc.overhead == 0.0  # then no job ever stalls (set_rates): loops without the test
    while True:
        if sc.departed >= sc.target or sc.saturated != 0 or sc.met != 0 or sc.pending != 0 or \
                sc.flush != 0:
            return DONE
        nxt = sc.next_arrival
        i = nxt - sc.chunk_start
        if i < arrivals.arrival.size:
            t_arr = arrivals.arrival[i]
        elif sc.more != 0:
            sc.starved = 1
            return DONE
        else:
            t_arr = np.inf
        J, t = sc.in_system, sc.t
        best, kb, stalled = np.inf, -1, False
        if nostall:
            for k in range(J):
                j = act[k]
                if rate[j] > 0.0:
                    d = max(rem[j], 0.0) / rate[j]
                    if d < best:
                        best, kb = d, k
        else:
            for k in range(J):
                j = act[k]
                if stall[j] > t:
                    if stall[j] - t <= best:
                        best, kb, stalled = stall[j] - t, k, True
                elif rate[j] > 0.0:
                    d = max(rem[j], 0.0) / rate[j]
                    if d < best:
                        best, kb, stalled = d, k, False
        t_dep = t + best
        t_new = min(t_dep, t_arr, sc.slice_end)
        if t_new == np.inf:
            return DONE
        dt = t_new - t
        if dt > 0.0:
            if nostall:
                for k in range(J):
                    j = act[k]
                    rem[j] -= rate[j] * dt
                    acq[j] += alloc[j] * dt
            else:
                for k in range(J):
                    j = act[k]
                    if stall[j] <= t:
                        rem[j] -= rate[j] * dt
                    acq[j] += alloc[j] * dt
            if sc.departed >= sc.warmup:
                cur = sc.batch
                batches.area[cur] += J * dt
                batches.busy[cur] += sc.allocated * dt
                batches.time[cur] += dt
        sc.t = t_new
        sc.events += 1
        if kb >= 0 and stalled and t_dep <= t_arr and t_dep <= sc.slice_end:
            stall[act[kb]] = 0.0
            continue
        if kb >= 0 and t_dep <= t_arr and t_dep <= sc.slice_end:
            depart_job(act[kb], kb, t_new, columns, state, batches, log, sc)
            return DEPARTURE
        if t_arr <= sc.slice_end:
            slot = admit(i, nxt, arrivals, columns, state, sc)
            act[J] = slot
            byacq[J] = slot
            sc.in_system = J + 1
            sc.next_arrival = nxt + 1
            if sc.cap <= J + 1:
                sc.saturated = 1
            return slot
        return SLICE


@jit(inline="always")
def admit(i, ident, arrivals, columns, state, sc):
    """Job ``ident`` (row ``i`` of ``arrivals``) takes a free slot: its columns, a fresh state."""
    sc.free -= 1
    s = state.free[sc.free]
    columns.arrival[s] = arrivals.arrival[i]
    columns.a[s], columns.b[s], columns.c[s] = arrivals.a[i], arrivals.b[i], arrivals.c[i]
    columns.cap[s], columns.first[s] = arrivals.cap[i], arrivals.first[i]
    columns.second[s] = arrivals.second[i]
    columns.pws[s] = arrivals.pws[i]
    for q in range(arrivals.controls.shape[1]):
        columns.controls[s, q] = arrivals.controls[i, q]
    state.ident[s] = ident
    state.remaining[s], state.acquired[s], state.allocation[s], state.rate[s] = 1.0, 0.0, 0.0, 0.0
    state.stall_end[s], state.last[s], state.changes[s] = 0.0, 0.0, 0
    return s


@jit(inline="always")
def depart_job(j, kb, t, columns, state, batches, log, sc):
    """The job in slot ``j`` (``active[kb]``) leaves at ``t``: out of both job lists, into the
    batch sums and the log; its slot is free again.

    Sets ``pending`` when the departure completes a measured batch, ``flush``
    when it fills the log.
    """
    act, byacq = state.active, state.by_acquired
    state.allocation[j], state.rate[j] = 0.0, 0.0  # remaining: its rounding residue
    if log.ident.size > 0:
        n = sc.logged
        log.ident[n], log.depart[n], log.acquired[n] = state.ident[j], t, state.acquired[j]
        log.changes[n], log.remaining[n] = state.changes[j], state.remaining[j]
        sc.logged = n + 1
        if n + 1 == log.ident.size:
            sc.flush = 1
    state.free[sc.free] = j
    sc.free += 1
    J = sc.in_system
    for k in range(kb, J - 1):
        act[k] = act[k + 1]
    shift = False
    for i in range(J):
        shift = shift or byacq[i] == j
        if shift and i + 1 < J:
            byacq[i] = byacq[i + 1]
    sc.in_system = J - 1
    if sc.departed >= sc.warmup:
        cur = sc.batch
        response = t - columns.arrival[j]
        batches.response[cur] += response
        batches.allocation[cur] += state.acquired[j] / response
        batches.changes[cur] += state.changes[j]
        for i in range(batches.means.size):
            batches.controls[cur, i] += columns.controls[j, i]
        sc.in_batch += 1
        if sc.in_batch == sc.batch_length:
            sc.pending = 1  # the loop pauses before the next event: run_batches
    sc.departed += 1


@jit(inline="always")
def set_rates(columns, state, sc):
    """Rates ``x/(a + b x + c x²)`` from the allocations; charge repartitionings; safety maxima."""
    a, b, c, cap = columns.a, columns.b, columns.c, columns.cap
    alloc, rate, act, last = state.allocation, state.rate, state.active, state.last
    t, overhead, total, over = sc.t, sc.overhead, 0.0, sc.max_over_cap
    for k in range(sc.in_system):
        j = act[k]
        x = alloc[j]
        if x > 0.0:
            if x != last[j]:
                if last[j] > 0.0:
                    state.changes[j] += 1
                    if overhead > 0.0:
                        state.stall_end[j] = t + overhead
                last[j] = x
                rate[j] = x / (a[j] + x * (b[j] + c[j] * x))
            elif rate[j] == 0.0:  # back on its last allocation after none (FB swap-in)
                rate[j] = x / (a[j] + x * (b[j] + c[j] * x))
        else:
            rate[j] = 0.0
        total += x
        over = max(over, x - cap[j])
    sc.max_over_cap = over
    sc.allocated = total
    sc.max_allocated = max(sc.max_allocated, total)


@jit(inline="always")
def by_acquired(state, sc):
    """``by_acquired[:n]``: the jobs in the system by (acquired service, arrival); returns ``n``.

    :func:`next_event` keeps ``by_acquired`` holding the jobs in the system
    (arrivals appended, departures removed); this insertion sort restores the
    order in ``O(J + inversions)`` (acquired service changes little between events).
    Ties: the job that arrived first (``ident``) first.
    """
    acq, byacq, ident = state.acquired, state.by_acquired, state.ident
    n = sc.in_system
    for i in range(1, n):
        j = byacq[i]
        key, arrived = acq[j], ident[j]
        m = i - 1
        while m >= 0 and (acq[byacq[m]] > key or (acq[byacq[m]] == key and ident[byacq[m]] > arrived)):
            byacq[m + 1] = byacq[m]
            m -= 1
        byacq[m + 1] = j
    return n


@jit(inline="always")
def unconfigured(j, options, columns, state, sc, work):
    """The configure hook of the policies that configure no job (equipartition): nothing."""


@jit(inline="always")
def run_events(arrivals, columns, options, state, batches, log, scalars, work, configure, allocate):
    """The loop of every policy: after each event, ``configure`` an arrival, ``allocate``, rates.

    Runs until :func:`next_event` answers ``DONE`` (the end, or a pause:
    :func:`run_stream` resumes it). Inlined into each policy's kernel.
    ``options`` is :func:`make_options`'s array of one record; the hooks
    receive the record.
    """
    sc = scalars[0]
    par = options[0]
    event = next_event(arrivals, columns, state, batches, log, sc)
    while event != DONE:
        if event >= 0:
            configure(event, par, columns, state, sc, work)
        allocate(event, par, columns, state, sc, work)
        set_rates(columns, state, sc)
        event = next_event(arrivals, columns, state, batches, log, sc)


#: Jobs per chunk of arrivals handed to the loop, and departures per flush of the log.
CHUNK_JOBS = 1 << 14


def start(stop: Stop, overhead: float = 0.0, period: float = 0.0,
          log: int = 0) -> tuple[Columns, State, Batches, Log, np.ndarray]:
    """An empty system at time 0 with ``stop.cap + 1`` slots; the 90% t quantiles for 1..2B+1 batches.

    ``period`` > 0 schedules the first repartitioning at ``period`` seconds;
    ``log`` > 0 records departures, ``log`` at a time (:class:`Log`).
    """
    k = np.arange(2 * stop.batches + 2)
    t_quantile = np.where(k >= 2, scipy.stats.t.ppf(0.95, np.maximum(k - 1, 1)), np.nan)
    means = np.empty(0) if stop.control_means is None else np.asarray(stop.control_means, np.float64)
    slots = stop.cap + 1
    columns = Columns(*(np.zeros(slots) for _ in range(8)), np.zeros((slots, means.size)))
    state = State(np.zeros(slots, np.int64), *(np.zeros(slots) for _ in range(6)), np.zeros(slots, np.int64),
                  np.empty(slots, np.int64), np.empty(slots, np.int64), np.arange(slots)[::-1].copy())
    batches = Batches(*(np.zeros(k.size) for _ in range(6)), np.zeros((k.size, means.size)), means,
                      t_quantile)
    records = Log(np.empty(log, np.int64), np.empty(log), np.empty(log), np.empty(log, np.int64),
                  np.empty(log))
    scalars = record(SCALARS)
    sc = scalars[0]
    sc["slice_end"] = period if period > 0 else np.inf
    sc["overhead"], sc["rel"], sc["sat_p"] = overhead, stop.rel, stop.sat_p
    sc["target"], sc["warmup"], sc["cap"] = stop.target, stop.warmup, stop.cap
    sc["batch_length"], sc["min_batches"] = stop.blen, stop.batches
    sc["free"], sc["more"] = slots, 1
    return columns, state, batches, records, scalars


def option_values(params: Any) -> dict[str, bool | int | float]:
    """A policy's parameters as the options record holds them, each by its name (a choice as its
    index in its choices); one-line ``ValueError`` for one no record can hold."""
    return kernel_values(params, taken=[name for name, _ in OPTIONS_FIELDS])


def make_options(params: Any, processors: int, phase2: bool) -> np.ndarray:
    """The hooks' options, one record in an array of one: ``processors``, ``phase2`` and every field
    of the policy's parameter dataclass by its name (a new parameter needs no edit here)."""
    own = option_values(params)
    options = record(np.dtype(OPTIONS_FIELDS + kernel_fields(own), align=True))
    options["processors"], options["phase2"] = float(processors), phase2
    for name, value in own.items():
        options[name] = value
    return options


def loop_params(params: Any) -> tuple[float, float]:
    """The repartitioning overhead and period of ``params`` (:data:`LOOP_PARAMS`)."""
    overhead, period = (float(getattr(params, name, value)) for name, value in LOOP_PARAMS.items())
    return overhead, period


def make_arrivals(jobs: MalleableJobs, processors: int, first: np.ndarray | None = None,
                  controls: np.ndarray | None = None) -> Columns:
    """A chunk of jobs as the loop reads them; phase-one caps ``min(first, N_j, P)`` (``first`` None:
    ``N_j``); ``controls`` (n, q) the control variates' values (None: none)."""
    cap = np.minimum(jobs.parallelism, processors).astype(np.float64)
    one = cap if first is None else np.minimum(first, cap).astype(np.float64)
    values = np.empty((len(jobs), 0)) if controls is None else np.ascontiguousarray(controls, np.float64)
    return Columns(np.ascontiguousarray(jobs.arrival), np.ascontiguousarray(jobs.a),
                   np.ascontiguousarray(jobs.b), np.ascontiguousarray(jobs.c), cap, one, cap - one,
                   jobs.pws.astype(np.float64), values)


def run_stream(kernel: Callable[..., None], chunks: Callable[[], tuple[Columns, bool]], columns: Columns,
               options: np.ndarray, state: State, batches: Batches, log: Log, scalars: np.ndarray,
               work: tuple, flush: Callable[[Log], None] | None = None) -> None:
    """Run ``kernel`` (a policy's :func:`run_events`) to its end, serving each pause.

    A complete batch is evaluated in compiled code with reference counting
    (:func:`close_batch`); a used-up chunk of arrivals is replaced by the next
    of ``chunks()`` (its jobs and whether more follow); a full log is handed
    to ``flush`` and emptied. The loop then resumes where it stopped, so where
    chunks end changes nothing.
    """
    sc = scalars[0]
    arrivals, more = chunks()
    sc["chunk_start"], sc["more"] = 0, int(more)
    while True:
        kernel(arrivals, columns, options, state, batches, log, scalars, work)
        paused = False
        if sc["pending"]:
            close_batch(batches, scalars)
            paused = True
        if sc["flush"]:
            _flush(log, sc, flush)
            sc["flush"] = 0
            paused = True
        if sc["starved"]:
            sc["chunk_start"] += arrivals.arrival.size
            arrivals, more = chunks()
            sc["more"], sc["starved"] = int(more), 0
            paused = True
        if not paused:
            break
    _flush(log, sc, flush)


def _flush(log: Log, sc: np.record, flush: Callable[[Log], None] | None) -> None:
    """Hand a copy of the logged departures to ``flush``; empty the log."""
    if flush is not None and sc["logged"]:
        flush(Log(*(column[:sc["logged"]].copy() for column in log)))
    sc["logged"] = 0
