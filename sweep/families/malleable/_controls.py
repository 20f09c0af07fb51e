"""Control variates for the malleable family's mean response time (``stop.control_variate``).

A control is a value per job whose expectation is known exactly; the kernels
add it up per batch next to the response times, and the regression of the
response batch means on the control batch means corrects the mean for how far
the controls strayed from theirs (:func:`sweep.stats.controlled_mean`;
Lavenberg & Welch, *Management Sci.* 27(3), 1981). CV96's heavy-tailed
demands (C_W up to 36) make the plain batch means depend on which huge jobs
happened to arrive; a control that sees the same huge jobs removes that luck.

``demand``
    The job's service demand ``W``; mean ``E[W]``
    (:func:`~sweep.families.malleable._workload.expected_work`). It explains the
    response of the job itself, which grows with its demand.
``processor_sharing``
    The response time the job would have in an M/G/1 processor-sharing queue
    of rate ``P`` fed with the same arrivals and demands (service time alone
    ``W/P``; :func:`processor_sharing_response`); mean ``E[W] / (P (1 − ρ))``
    with ``ρ = λE[W]/P``, whatever the demand distribution (Kleinrock,
    *Queueing Systems* vol. 2, 1976, §4.4) — an analytic model used as a
    control (Lavenberg & Welch §3). It also explains the congestion a huge job
    causes for the jobs that run beside it, the error near saturation that
    the demand does not see: on Figure 6(a)'s workload (C_W = 36) under EQS at
    ρ = 0.8, 0.96–0.99 correlated with the response batch means against 0.7–0.87
    for the demand. It needs Poisson arrivals (``workload.arrival_cv: 1``) and
    ``ρ < 1``. For EQS with real-valued shares, linear speedup and ``N_j ≥ P``
    it is the simulated response time itself.

Several controls may be named together; each costs the interval one degree of
freedom.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from sweep._numba import jit
from sweep.families.malleable._workload import MalleableJobs, MalleableStream, arrival_rate, expected_work

CONTROLS = ("demand", "processor_sharing")

__all__ = ["CONTROLS", "ControlledStream", "ProcessorSharingTwin", "control_means", "control_values",
           "processor_sharing_response"]


def _utilization(cfg: Mapping[str, Any], processors: int, load: float) -> float:
    """``ρ = λE[W]/P`` of the processor-sharing twin."""
    return arrival_rate(cfg, processors, load) * expected_work(cfg) / processors


def control_means(names: Sequence[str], cfg: Mapping[str, Any], processors: int, load: float) -> np.ndarray:
    """The exact means of the controls ``names`` for workload ``cfg`` at ``load`` on ``processors``.

    Raises ValueError (one line) for an unknown name, or for ``processor_sharing``
    where its mean is unknown: arrivals not Poisson, or ``ρ ≥ 1``.
    """
    means = []
    for name in names:
        if name == "demand":
            means.append(expected_work(cfg))
        elif name == "processor_sharing":
            if cfg.get("arrival_cv", 1) != 1:
                raise ValueError("stop.control_variate processor_sharing needs Poisson arrivals "
                                 f"(workload.arrival_cv: 1), got arrival_cv {cfg['arrival_cv']!r}")
            rho = _utilization(cfg, processors, load)
            if not rho < 1:
                raise ValueError(f"stop.control_variate processor_sharing needs rho = lambda E[W]/P < 1, "
                                 f"got {rho:.4g} at load {load!r}")
            means.append(expected_work(cfg) / (processors * (1 - rho)))
        else:
            raise ValueError(f"stop.control_variate must be false or name controls among "
                             f"{', '.join(CONTROLS)}; got {name!r}")
    return np.array(means, dtype=np.float64)


def control_values(names: Sequence[str], jobs: MalleableJobs, processors: int) -> np.ndarray:
    """The controls per job of a whole finite stream, shape ``(len(jobs), len(names))``, in arrival order."""
    values = np.empty((len(jobs), len(names)))
    for i, name in enumerate(names):
        values[:, i] = jobs.work if name == "demand" else \
            processor_sharing_response(jobs.arrival, jobs.work / processors)
    return values


class ControlledStream:
    """A malleable job stream handed out in chunks with the control values of ``names``.

    A job's processor-sharing response is known once the twin has seen the
    arrivals up to its departure, so the twin runs ahead of the chunks handed
    out: jobs are drawn ``chunk_jobs`` at a time into a buffer and fed to the
    twin (:class:`ProcessorSharingTwin`) until every job of the next chunk has
    left it. Memory holds the jobs between the chunk and the twin's oldest job,
    not the run. Calling the object gives the next chunk: ``(jobs, controls or
    None, True)`` (the stream is endless).
    """

    def __init__(self, stream: MalleableStream, names: Sequence[str], processors: int,
                 chunk_jobs: int) -> None:
        self._stream, self._names, self._processors = stream, tuple(names), processors
        self._chunk = chunk_jobs
        self._twin = ProcessorSharingTwin() if "processor_sharing" in names else None
        self._buffer: MalleableJobs | None = None
        self._response = np.empty(0)

    def _append(self, jobs: MalleableJobs) -> None:
        if self._buffer is None or len(self._buffer) == 0:
            self._buffer = jobs
        else:
            self._buffer = MalleableJobs(*(np.concatenate([getattr(self._buffer, f.name),
                                                           getattr(jobs, f.name)])
                                           for f in fields(MalleableJobs)))

    def __call__(self) -> tuple[MalleableJobs, np.ndarray | None, bool]:
        count = self._chunk
        if self._twin is None:
            jobs = self._stream.jobs(count)
            return jobs, (np.column_stack([jobs.work] * len(self._names)) if self._names else None), True
        while self._buffer is None or len(self._buffer) < count or np.isnan(self._response[:count]).any():
            jobs = self._stream.jobs(count)
            self._append(jobs)
            self._response = self._twin.feed(jobs.arrival, jobs.work / self._processors, self._response)
        buffer = self._buffer
        jobs = MalleableJobs(*(getattr(buffer, f.name)[:count] for f in fields(MalleableJobs)))
        values = np.column_stack([jobs.work if name == "demand" else self._response[:count]
                                  for name in self._names])
        self._buffer = MalleableJobs(*(getattr(buffer, f.name)[count:] for f in fields(MalleableJobs)))
        self._response = self._response[count:]
        self._twin.handed_out(count)
        return jobs, values, True


class ProcessorSharingTwin:
    """An M/G/1 processor-sharing queue fed a stream in pieces (:func:`processor_sharing_response`).

    :meth:`feed` takes the next arrivals and their service times alone and
    returns the responses of the jobs not handed out yet (NaN while a job is
    still in the queue); :meth:`handed_out` drops the oldest ones. The queue's
    heap grows as needed; the result does not depend on how the stream is cut.
    """

    def __init__(self) -> None:
        self._finish = np.empty(1024)
        self._owner = np.empty(1024, np.int64)
        self._clock = np.zeros(3)  # jobs present, virtual time, time
        self._arrival = np.empty(0)  # arrival times of the jobs not handed out
        self._offset = 0  # stream index of the first of them

    def feed(self, arrival: np.ndarray, service: np.ndarray, response: np.ndarray) -> np.ndarray:
        """Add the next jobs; ``response`` (the previous answer) extended by them and updated."""
        present = int(self._clock[0])
        if present + arrival.size > self._finish.size:
            size = 2 * (present + arrival.size)
            self._finish = np.concatenate([self._finish[:present], np.empty(size - present)])
            self._owner = np.concatenate([self._owner[:present], np.empty(size - present, np.int64)])
        start = self._arrival.size
        self._arrival = np.concatenate([self._arrival, arrival])
        response = np.concatenate([response, np.full(arrival.size, np.nan)])
        _twin_arrivals(self._arrival, service, start, self._offset, self._finish, self._owner, self._clock,
                       response)
        return response

    def handed_out(self, count: int) -> None:
        """The oldest ``count`` jobs' responses were taken."""
        self._arrival = self._arrival[count:]
        self._offset += count
@jit()
def processor_sharing_response(arrival: np.ndarray, service: np.ndarray) -> np.ndarray:
    """Response times of a single-server processor-sharing queue, jobs in arrival order.

    ``service[j]`` is job ``j``'s service time alone. With ``m`` jobs present
    each is served at rate ``1/m``, so the attained service of every job
    present grows like the virtual time ``v``, ``dv/dt = 1/m``: job ``j``
    leaves when ``v`` reaches ``v(arrival_j) + service_j``. A binary heap on
    that finishing virtual time gives ``O(log m)`` per event. Jobs still
    present after the last arrival are served to the end.
    """
    n = arrival.size
    response = np.empty(n)
    finish = np.empty(n)  # heap keys: finishing virtual times
    owner = np.empty(n, np.int64)
    clock = np.zeros(3)
    _twin_arrivals(arrival, service, 0, 0, finish, owner, clock, response)
    m, v, t = int(clock[0]), clock[1], clock[2]
    while m > 0:
        v, t, m = _twin_departure(arrival, 0, finish, owner, m, t, v, response)
    return response


@jit()
def _twin_arrivals(arrival, service, start, offset, finish, owner, clock, response):
    """Arrivals ``start..`` of ``arrival`` (their service times ``service``), each after the
    departures before it; ``clock`` (jobs present, virtual time, time) carries the queue on.

    ``arrival`` and ``response`` hold the jobs from stream index ``offset`` on;
    the heap holds stream indices. A departure at an arrival's instant comes first.
    """
    m, v, t = int(clock[0]), clock[1], clock[2]
    for i in range(start, arrival.size):
        t_arrival = arrival[i]
        while m > 0 and t + (finish[0] - v) * m <= t_arrival:
            v, t, m = _twin_departure(arrival, offset, finish, owner, m, t, v, response)
        if m > 0:
            v += (t_arrival - t) / m
        t = t_arrival
        key, p = v + service[i - start], m
        m += 1
        while p > 0 and finish[(p - 1) // 2] > key:  # sift up
            finish[p], owner[p] = finish[(p - 1) // 2], owner[(p - 1) // 2]
            p = (p - 1) // 2
        finish[p], owner[p] = key, offset + i
    clock[0], clock[1], clock[2] = m, v, t


@jit(inline="always")
def _twin_departure(arrival, offset, finish, owner, m, t, v, response):
    """The job at the heap's root leaves: its response; returns the new ``(v, t, m)``."""
    t = t + (finish[0] - v) * m
    v = finish[0]
    k = owner[0] - offset
    response[k] = t - arrival[k]
    m -= 1
    key, job, p = finish[m], owner[m], 0  # sift the last leaf down from the root
    while 2 * p + 1 < m:
        c = 2 * p + 1
        if c + 1 < m and finish[c + 1] < finish[c]:
            c += 1
        if finish[c] >= key:
            break
        finish[p], owner[p] = finish[c], owner[c]
        p = c
    finish[p], owner[p] = key, job
    return v, t, m
