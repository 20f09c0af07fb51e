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
the state carried from chunk to chunk (:class:`Hosts`: each host's free time
and a ring buffer of the departure times of its jobs still in system), the
sums (:class:`Sums`) and the optional per-job records, and feeds the kernel
array chunks. :func:`dispatch_chunk` is the kernel: it loops over one chunk,
never allocates and never draws random numbers. A policy with its own
*choose* hook ``choose(n, t, given, hosts) -> host`` compiles a two-line
kernel ``_run(...) = dispatch_chunk(..., choose)`` in its file; the hook reads
the hosts through :func:`host_count`, :func:`free_time`, :func:`work_left` and
:func:`jobs_in_system`, never the ring buffer. The state-independent policies
share :func:`run_given`. ``dispatch_chunk`` is inlined into each of those at
the numba IR level, so the hook is a compile-time constant there: a
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
from typing import NamedTuple

import numpy as np

from sweep._numba import jit, record
from sweep.stats.batch_means import ci_halfwidth, means_from_sums

#: Batches for the batch-means confidence intervals (docs/design.md §6).
BATCHES = 32
#: Initial ring capacity per host (grows by doubling, up to the in-system cap).
RING0 = 64

#: The kernel's counters, carried across chunks (one record): the in-system cap, the upper
#: bound on the jobs in system at the last exact count (``bound``), jobs measured, the current
#: batch, jobs left in it, the batch length, and the status after a kernel call.
COUNTERS = np.dtype([("cap", np.int64), ("bound", np.int64), ("measured", np.int64),
                     ("batch", np.int64), ("left", np.int64), ("batch_length", np.int64),
                     ("status", np.int64)], align=True)
#: ``counters.status`` after a kernel call.
RUNNING, RING_FULL, OVER_CAP = 0, 1, 2
#: The sums of one batch of measured jobs (batch means, docs/design.md §6).
BATCH_SUMS = np.dtype([("count", np.float64), ("wait", np.float64), ("work", np.float64),
                       ("slowdown", np.float64), ("slowdown2", np.float64)])
#: The sums of one host's measured jobs.
HOST_SUMS = np.dtype([("work", np.float64), ("jobs", np.float64), ("slowdown", np.float64)])


class Hosts(NamedTuple):
    """The hosts' state carried from chunk to chunk: what a *choose* hook decides on.

    ``free[i]`` is the time host ``i`` finishes its last job; ``departures[i]`` a
    ring buffer of the departure times of its jobs, ``head[i]``/``tail[i]``
    running counters (entries before ``head`` have left). Hooks read it through
    :func:`host_count`, :func:`free_time`, :func:`work_left` and :func:`jobs_in_system`.
    """

    free: np.ndarray
    departures: np.ndarray
    head: np.ndarray
    tail: np.ndarray


class Sums(NamedTuple):
    """What the kernel measures: ``counters`` (one :data:`COUNTERS` record), the
    :data:`BATCH_SUMS` of each batch, the :data:`HOST_SUMS` of each host, and each
    measured job's host and start time (length 0 when not recorded)."""

    counters: np.ndarray
    batches: np.ndarray
    hosts: np.ndarray
    job_host: np.ndarray
    job_start: np.ndarray


@jit()
def _trim(hosts, i, t):
    """Drop host ``i``'s departures at or before ``t`` (a job leaving at ``t`` is gone).

    A host's departures are in FCFS order, hence sorted: binary search.
    """
    ring, head = hosts.departures, hosts.head
    mask = ring.shape[1] - 1
    lo = head[i]
    hi = hosts.tail[i]
    while lo < hi:
        mid = (lo + hi) >> 1
        if ring[i, mid & mask] <= t:
            lo = mid + 1
        else:
            hi = mid
    head[i] = lo


@jit(inline="always")
def host_count(hosts):
    """The number of hosts."""
    return hosts.free.shape[0]


@jit(inline="always")
def free_time(hosts, i):
    """When host ``i`` finishes the jobs it has (at or before now: it is idle)."""
    return hosts.free[i]


@jit(inline="always")
def work_left(hosts, i, t):
    """The work left at host ``i`` at time ``t``: ``max(free_i − t, 0)``."""
    return max(hosts.free[i] - t, 0.0)


@jit()
def jobs_in_system(hosts, i, t):
    """The jobs at host ``i`` at time ``t``, the one in service counted (a job leaving at
    ``t`` has left)."""
    _trim(hosts, i, t)
    return hosts.tail[i] - hosts.head[i]


@jit()
def _given(n, t, given, hosts):
    """Hook of the state-independent policies: the host drawn in advance."""
    return given[n]


@jit(inline="always", error_model="numpy")
def dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, choose):
    """Dispatch jobs ``j0 .. j1-1`` of the chunk; return the index of the next job.

    ``hosts`` (:class:`Hosts`) is the state carried from chunk to chunk, ``sums``
    (:class:`Sums`) what is measured. ``choose(n, t, given, hosts)`` names job
    ``n``'s host at its arrival ``t``. Rings are trimmed only when full or when
    the jobs-in-system bound passes the cap, so the loop has no data-dependent
    branch of its own. Stops early, with ``counters.status`` set, when a ring
    must grow or the cap is passed. The current batch's sums live in locals,
    loaded and stored in job order, so any split of a run into chunks gives the
    same sums bit for bit.
    """
    free, ring, head, tail = hosts
    c = sums.counters[0]
    batches, host_sums, job_host, job_start = sums.batches, sums.hosts, sums.job_host, sums.job_start
    h = free.shape[0]
    mask = ring.shape[1] - 1
    cap = c.cap
    check = j0 + cap - c.bound  # the bound = bound + (n - j0) passes cap at n = check
    m = c.measured
    b = c.batch
    left = c.left
    batch_length = c.batch_length
    last_batch = batches.shape[0] - 1
    record = job_host.shape[0] > 0
    count, wait, work = batches[b].count, batches[b].wait, batches[b].work
    slow, slow2 = batches[b].slowdown, batches[b].slowdown2
    status = RUNNING
    n = j0
    while n < j1:
        t = arrival[n]
        x = size[n]
        i = choose(n, t, given, hosts)
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
            host_sums[i].work += x
            host_sums[i].jobs += 1.0
            host_sums[i].slowdown += s
            if record:
                job_host[m] = i
                job_start[m] = start
            m += 1
            left -= 1
            if left == 0:
                _store_batch(batches, b, count, wait, work, slow, slow2)
                if b < last_batch:
                    b += 1
                    count, wait, work = batches[b].count, batches[b].wait, batches[b].work
                    slow, slow2 = batches[b].slowdown, batches[b].slowdown2
                left = batch_length
        n += 1
        if n > check:  # the bound passed the cap: count exactly
            exact = 0
            for k in range(h):
                exact += jobs_in_system(hosts, k, t)
            check = n + cap - exact
            if exact > cap:
                status = OVER_CAP
                break
        if tl + 1 - head[i] > mask:  # ring full: drop departed jobs, grow if still half full
            _trim(hosts, i, t)
            if 2 * (tl + 1 - head[i]) > mask:
                status = RING_FULL
                break
    _store_batch(batches, b, count, wait, work, slow, slow2)
    c.bound = cap - (check - n)
    c.measured = m
    c.batch = b
    c.left = left
    c.status = status
    return n


@jit(inline="always")
def _store_batch(batches, b, count, wait, work, slow, slow2):
    batch = batches[b]
    batch.count, batch.wait, batch.work, batch.slowdown, batch.slowdown2 = count, wait, work, slow, slow2


@jit(error_model="numpy")
def run_given(arrival, size, given, j0, j1, measuring, hosts, sums):
    """Kernel of the state-independent policies (hosts drawn in advance, docs/design.md §7)."""
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _given)


Kernel = Callable[..., int]
_NO_HOSTS = np.empty(0, dtype=np.int64)


class HostSystem:
    """h FCFS hosts, their carried state and the measurements of one replication.

    ``kernel`` is a policy's compiled chunk runner (:func:`run_given` or one
    built on :func:`dispatch_chunk`). Jobs ``0 .. warmup-1`` are simulated but not
    measured; the next ``jobs`` are measured (SH00 §2.2; docs/design.md §6). Feed
    any split of the job stream into :meth:`feed`: the result is the same, bit
    for bit, because all sums run in job order inside the kernel.
    """

    def __init__(self, hosts: int, kernel: Kernel, *, warmup: int, jobs: int,
                 max_in_system: int, record_jobs: bool = False, batches: int = BATCHES) -> None:
        if hosts < 1 or jobs < 1 or warmup < 0 or max_in_system < 1:
            raise ValueError("HostSystem needs hosts >= 1, jobs >= 1, warmup >= 0, "
                             f"max_in_system >= 1; got {hosts}, {jobs}, {warmup}, {max_in_system}")
        self.hosts, self.warmup, self.jobs = hosts, warmup, jobs
        self._kernel = kernel
        blen = max(1, jobs // batches)
        self._hosts = Hosts(np.zeros(hosts), np.zeros((hosts, RING0)), np.zeros(hosts, np.int64),
                            np.zeros(hosts, np.int64))
        counters = record(COUNTERS)
        counters["cap"], counters["left"], counters["batch_length"] = max_in_system, blen, blen
        n_rec = jobs if record_jobs else 0
        self._sums = Sums(counters, record(BATCH_SUMS, -(-jobs // blen)), record(HOST_SUMS, hosts),
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
                self._busy0 = float(np.maximum(self._hosts.free - self._t0, 0.0).sum())
            self._segment(arrival, size, given, boundary, count, measuring=True)

    def _segment(self, arrival, size, given, j0, j1, measuring) -> None:
        counters = self._sums.counters
        while j0 < j1:
            m0 = int(counters["measured"][0])
            n = self._kernel(arrival, size, given, j0, j1, measuring, self._hosts, self._sums)
            if measuring and len(self._rec_size):
                m1 = int(counters["measured"][0])
                self._rec_arrival[m0:m1] = arrival[j0:n]
                self._rec_size[m0:m1] = size[j0:n]
            self.simulated += n - j0
            self._t1 = float(arrival[n - 1])
            j0 = n
            if counters["status"][0] == OVER_CAP:
                self.stopped = True
                return
            if counters["status"][0] == RING_FULL:
                self._grow()

    def _grow(self) -> None:
        """Double every ring, keeping each host's departures in order."""
        _, ring, head, tail = self._hosts
        capacity = ring.shape[1]
        wider = np.zeros((ring.shape[0], 2 * capacity))
        for i in range(ring.shape[0]):
            index = np.arange(head[i], tail[i])
            wider[i, index & (2 * capacity - 1)] = ring[i, index & (capacity - 1)]
        self._hosts = self._hosts._replace(departures=wider)

    def summary(self) -> dict[str, object]:
        """The measured statistics (NaN where no job was measured)."""
        batches, host_sums = self._sums.batches, self._sums.hosts
        count, slowdown = batches["count"], batches["slowdown"]
        n = count.sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            batch_slow = slowdown / count
            mean_slow = slowdown.sum() / n
            within = np.maximum(batches["slowdown2"] - slowdown * batch_slow, 0.0)
            between = count * (batch_slow - mean_slow) ** 2
            filled = count > 0
            var_slow = (within[filled].sum() + between[filled].sum()) / (n - 1)
            response = batches["wait"] + batches["work"]
            work = host_sums["work"]
            remaining = np.maximum(self._hosts.free - self._t1, 0.0).sum()
            busy = self._busy0 + work.sum() - remaining
            utilization = busy / (self.hosts * (self._t1 - self._t0))
            return {
                "mean_response": response.sum() / n,
                "mean_wait": batches["wait"].sum() / n,
                "mean_slowdown": mean_slow,
                "var_slowdown": var_slow if n > 1 else math.nan,
                "mean_response_hw90": ci_halfwidth(means_from_sums(response, count)),
                "mean_slowdown_hw90": ci_halfwidth(means_from_sums(slowdown, count)),
                "batch_mean_response": response / count,
                "utilization": utilization if self._t1 > self._t0 else math.nan,
                "jobs": int(n),
                "saturated": self.stopped,
                "host_load_fraction": work / work.sum(),
                "host_job_fraction": host_sums["jobs"] / n,
                "host_mean_slowdown": host_sums["slowdown"] / host_sums["jobs"],
            }

    def job_arrays(self) -> dict[str, np.ndarray]:
        """Per-job records of the measured jobs (only with ``record_jobs=True``).

        The host of each job is ``job_host``: ``host`` names the host dimension.
        """
        rec_host, rec_start = self._sums.job_host, self._sums.job_start
        m = int(self._sums.counters["measured"][0])
        size = self._rec_size[:m]
        return {"arrival": self._rec_arrival[:m].copy(), "size": size.copy(),
                "job_host": rec_host[:m].copy(), "start": rec_start[:m].copy(),
                "end": rec_start[:m] + size}
