"""The compiled core of the dispatch family: h FCFS hosts fed one job stream.

Model (SH00 §1.1, §2.2): every host serves one job at a time, first come
first served, run to completion. Jobs arrive in time order; a *choose* hook
names the host of each job at its arrival; the job then starts at
``max(arrival, free[host])`` and ends ``size`` later. That one recursion is the
Lindley recursion of each host when the hosts are named in advance (Random,
Round-Robin, SITA-*: the stream split per host, docs/design.md §7, each host's
recursion run in one pass over the merged stream), and the Kiefer–Wolfowitz
recursion of the M/G/h queue when the hook picks the host that frees first
(Least-Work-Left, Central-Queue).

Layout: :class:`HostSystem` is the wrapper — it owns
the state carried from chunk to chunk (each host's free time and a ring
buffer of the departure times of its jobs still in system), the accumulators
and the optional per-job records, and feeds the kernel array chunks.
:func:`_dispatch` is the kernel: it loops over one chunk, never allocates and
never draws random numbers. A policy with its own hook compiles a two-line
kernel ``_run(...) = _dispatch(..., hook)`` in its file; the state-independent
policies share :func:`_run_given`. ``_dispatch`` is inlined into each of those
at the numba IR level, so the hook is a compile-time constant there: a
dispatcher passed at run time would make numba's on-disk cache unusable.

The kernel also knows the number of jobs in system whenever it could exceed
``max_in_system``: jobs pushed since the last exact count bound it from
above, and only when that bound passes the cap are all rings trimmed to the
current time and counted. A run that passes the cap stops there (docs/design.md §6:
never hang).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from sweep._numba import jit
from sweep.stats.batch_means import ci_halfwidth, means_from_sums

#: Batches for the batch-means confidence intervals (docs/design.md §6).
BATCHES = 32
#: Initial ring capacity per host (grows by doubling, up to the in-system cap).
RING0 = 64

# ``ist``: the kernel's integer state, carried across chunks.
I_CAP, I_UB, I_MEASURED, I_BATCH, I_LEFT, I_BLEN, I_STATUS = range(7)
# ``ist[I_STATUS]`` after a kernel call.
RUNNING, RING_FULL, OVER_CAP = 0, 1, 2
# Columns of ``bacc`` (per batch) and ``hacc`` (per host).
B_COUNT, B_WAIT, B_SIZE, B_SLOW, B_SLOW2 = range(5)
H_WORK, H_JOBS, H_SLOW = range(3)


@jit()
def _trim(ring, head, tail, i, t):
    """Drop host ``i``'s departures at or before ``t`` (a job leaving at ``t`` is gone).

    A host's departures are in FCFS order, hence sorted: binary search.
    """
    mask = ring.shape[1] - 1
    lo = head[i]
    hi = tail[i]
    while lo < hi:
        mid = (lo + hi) >> 1
        if ring[i, mid & mask] <= t:
            lo = mid + 1
        else:
            hi = mid
    head[i] = lo


@jit()
def _given(n, t, given, free, ring, head, tail):
    """Hook of the state-independent policies: the host drawn in advance."""
    return given[n]


@jit(inline="always", error_model="numpy")
def _dispatch(arrival, size, given, j0, j1, measuring, state, acc, choose):
    """Dispatch jobs ``j0 .. j1-1`` of the chunk; return the index of the next job.

    ``state = (free, ring, head, tail)``: each host's free time and the ring
    buffer of the departure times of its jobs (``head``/``tail`` are running
    counters; entries before ``head`` have left).
    ``acc = (ist, bacc, hacc, rec_host, rec_start)``: integer state (``I_*``),
    per-batch and per-host sums, per-job records (length 0 when not recorded).
    Rings are trimmed only when full or when the jobs-in-system bound passes
    the cap, so the loop has no data-dependent branch of its own. Stops early,
    with ``ist[I_STATUS]`` set, when a ring must grow or the cap is passed.
    The current batch's sums live in locals, loaded and stored in job order,
    so any split of a run into chunks gives the same sums bit for bit.
    """
    free, ring, head, tail = state
    ist, bacc, hacc, rec_host, rec_start = acc
    h = free.shape[0]
    mask = ring.shape[1] - 1
    cap = ist[I_CAP]
    check = j0 + cap - ist[I_UB]  # the bound ub = I_UB + (n - j0) passes cap at n = check
    m = ist[I_MEASURED]
    b = ist[I_BATCH]
    left = ist[I_LEFT]
    blen = ist[I_BLEN]
    last_batch = bacc.shape[0] - 1
    record = rec_host.shape[0] > 0
    count, wait, work = bacc[b, B_COUNT], bacc[b, B_WAIT], bacc[b, B_SIZE]
    slow, slow2 = bacc[b, B_SLOW], bacc[b, B_SLOW2]
    status = RUNNING
    n = j0
    while n < j1:
        t = arrival[n]
        x = size[n]
        i = choose(n, t, given, free, ring, head, tail)
        start = max(free[i], t)
        free[i] = start + x
        tl = tail[i]
        ring[i, tl & mask] = start + x
        tail[i] = tl + 1
        if measuring:
            w = start - t
            s = 1.0 + w / x
            count += 1.0
            wait += w
            work += x
            slow += s
            slow2 += s * s
            hacc[i, H_WORK] += x
            hacc[i, H_JOBS] += 1.0
            hacc[i, H_SLOW] += s
            if record:
                rec_host[m] = i
                rec_start[m] = start
            m += 1
            left -= 1
            if left == 0:
                bacc[b, B_COUNT], bacc[b, B_WAIT], bacc[b, B_SIZE] = count, wait, work
                bacc[b, B_SLOW], bacc[b, B_SLOW2] = slow, slow2
                if b < last_batch:
                    b += 1
                    count, wait, work = bacc[b, B_COUNT], bacc[b, B_WAIT], bacc[b, B_SIZE]
                    slow, slow2 = bacc[b, B_SLOW], bacc[b, B_SLOW2]
                left = blen
        n += 1
        if n > check:  # the bound passed the cap: count exactly
            exact = 0
            for k in range(h):
                _trim(ring, head, tail, k, t)
                exact += tail[k] - head[k]
            check = n + cap - exact
            if exact > cap:
                status = OVER_CAP
                break
        if tl + 1 - head[i] > mask:  # ring full: drop departed jobs, grow if still half full
            _trim(ring, head, tail, i, t)
            if 2 * (tl + 1 - head[i]) > mask:
                status = RING_FULL
                break
    bacc[b, B_COUNT], bacc[b, B_WAIT], bacc[b, B_SIZE] = count, wait, work
    bacc[b, B_SLOW], bacc[b, B_SLOW2] = slow, slow2
    ist[I_UB] = cap - (check - n)
    ist[I_MEASURED] = m
    ist[I_BATCH] = b
    ist[I_LEFT] = left
    ist[I_STATUS] = status
    return n


@jit(error_model="numpy")
def _run_given(arrival, size, given, j0, j1, measuring, state, acc):
    """Kernel of the state-independent policies (hosts drawn in advance, docs/design.md §7)."""
    return _dispatch(arrival, size, given, j0, j1, measuring, state, acc, _given)


Kernel = Callable[..., int]
_NO_HOSTS = np.empty(0, dtype=np.int64)


class HostSystem:
    """h FCFS hosts, their carried state and the measurements of one replication.

    ``kernel`` is a policy's compiled chunk runner (:func:`_run_given` or one
    built on :func:`_dispatch`). Jobs ``0 .. warmup-1`` are simulated but not
    measured; the next ``jobs`` are measured (SH00 §2.2; docs/design.md §6). Feed
    any split of the job stream into :meth:`feed`: the result is the same, bit
    for bit, because all sums run in job order inside the kernel.
    """

    def __init__(self, hosts: int, kernel: Kernel, *, warmup: int, jobs: int,
                 max_in_system: int, record: bool = False, batches: int = BATCHES) -> None:
        if hosts < 1 or jobs < 1 or warmup < 0 or max_in_system < 1:
            raise ValueError("HostSystem needs hosts >= 1, jobs >= 1, warmup >= 0, "
                             f"max_in_system >= 1; got {hosts}, {jobs}, {warmup}, {max_in_system}")
        self.hosts, self.warmup, self.jobs = hosts, warmup, jobs
        self._kernel = kernel
        blen = max(1, jobs // batches)
        self._state = (np.zeros(hosts), np.zeros((hosts, RING0)), np.zeros(hosts, np.int64),
                       np.zeros(hosts, np.int64))
        ist = np.zeros(7, dtype=np.int64)
        ist[I_CAP], ist[I_LEFT], ist[I_BLEN] = max_in_system, blen, blen
        n_rec = jobs if record else 0
        self._acc = (ist, np.zeros((-(-jobs // blen), 5)), np.zeros((hosts, 3)),
                     np.zeros(n_rec, np.int64), np.zeros(n_rec))
        self._rec_arrival, self._rec_size = np.zeros(n_rec), np.zeros(n_rec)
        self.simulated = 0
        self.stopped = False
        self._t0 = self._t1 = math.nan
        self._busy0 = 0.0

    def feed(self, arrival: np.ndarray, size: np.ndarray, given: np.ndarray = _NO_HOSTS) -> None:
        """Dispatch the next jobs (time-ordered ``arrival``, ``size > 0``, hosts if given)."""
        arrival = np.ascontiguousarray(arrival, dtype=np.float64)
        size = np.ascontiguousarray(size, dtype=np.float64)
        given = np.ascontiguousarray(given, dtype=np.int64)
        total = self.warmup + self.jobs
        count = min(len(arrival), total - self.simulated)
        if self.stopped or count <= 0:
            return
        boundary = min(max(self.warmup - self.simulated, 0), count)
        self._segment(arrival, size, given, 0, boundary, measuring=False)
        if not self.stopped and boundary < count:
            if self.simulated == self.warmup:
                self._t0 = float(arrival[boundary])
                self._busy0 = float(np.maximum(self._state[0] - self._t0, 0.0).sum())
            self._segment(arrival, size, given, boundary, count, measuring=True)

    def _segment(self, arrival, size, given, j0, j1, measuring) -> None:
        ist = self._acc[0]
        while j0 < j1:
            m0 = ist[I_MEASURED]
            n = self._kernel(arrival, size, given, j0, j1, measuring, self._state, self._acc)
            if measuring and len(self._rec_size):
                self._rec_arrival[m0 : ist[I_MEASURED]] = arrival[j0:n]
                self._rec_size[m0 : ist[I_MEASURED]] = size[j0:n]
            self.simulated += n - j0
            self._t1 = float(arrival[n - 1])
            j0 = n
            if ist[I_STATUS] == OVER_CAP:
                self.stopped = True
                return
            if ist[I_STATUS] == RING_FULL:
                self._grow()

    def _grow(self) -> None:
        """Double every ring, keeping each host's departures in order."""
        free, ring, head, tail = self._state
        capacity = ring.shape[1]
        wider = np.zeros((ring.shape[0], 2 * capacity))
        for i in range(ring.shape[0]):
            index = np.arange(head[i], tail[i])
            wider[i, index & (2 * capacity - 1)] = ring[i, index & (capacity - 1)]
        self._state = (free, wider, head, tail)

    def summary(self) -> dict[str, object]:
        """The measured statistics (NaN where no job was measured)."""
        _, bacc, hacc, _, _ = self._acc
        n = bacc[:, B_COUNT].sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            batch_slow = bacc[:, B_SLOW] / bacc[:, B_COUNT]
            mean_slow = bacc[:, B_SLOW].sum() / n
            within = np.maximum(bacc[:, B_SLOW2] - bacc[:, B_SLOW] * batch_slow, 0.0)
            between = bacc[:, B_COUNT] * (batch_slow - mean_slow) ** 2
            filled = bacc[:, B_COUNT] > 0
            var_slow = (within[filled].sum() + between[filled].sum()) / (n - 1)
            response = bacc[:, B_WAIT] + bacc[:, B_SIZE]
            work = hacc[:, H_WORK]
            remaining = np.maximum(self._state[0] - self._t1, 0.0).sum()
            busy = self._busy0 + work.sum() - remaining
            utilization = busy / (self.hosts * (self._t1 - self._t0))
            return {
                "mean_response": response.sum() / n,
                "mean_wait": bacc[:, B_WAIT].sum() / n,
                "mean_slowdown": mean_slow,
                "var_slowdown": var_slow if n > 1 else math.nan,
                "mean_response_hw90": ci_halfwidth(means_from_sums(response, bacc[:, B_COUNT])),
                "mean_slowdown_hw90": ci_halfwidth(means_from_sums(bacc[:, B_SLOW],
                                                                   bacc[:, B_COUNT])),
                "batch_mean_response": response / bacc[:, B_COUNT],
                "utilization": utilization if self._t1 > self._t0 else math.nan,
                "jobs": int(n),
                "saturated": self.stopped,
                "host_load_fraction": work / work.sum(),
                "host_job_fraction": hacc[:, H_JOBS] / n,
                "host_mean_slowdown": hacc[:, H_SLOW] / hacc[:, H_JOBS],
            }

    def job_arrays(self) -> dict[str, np.ndarray]:
        """Per-job records of the measured jobs (only with ``record=True``).

        The host of each job is ``job_host``: ``host`` names the host dimension.
        """
        _, _, _, rec_host, rec_start = self._acc
        m = int(self._acc[0][I_MEASURED])
        size = self._rec_size[:m]
        return {"arrival": self._rec_arrival[:m].copy(), "size": size.copy(),
                "job_host": rec_host[:m].copy(), "start": rec_start[:m].copy(),
                "end": rec_start[:m] + size}
