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
    (:func:`~sweep.families.malleable.workload.expected_work`). It explains the
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
from typing import Any

import numpy as np
from numba import njit

from sweep.families.malleable.workload import MalleableJobs, arrival_rate, expected_work

CONTROLS = ("demand", "processor_sharing")

__all__ = ["CONTROLS", "control_means", "control_values", "processor_sharing_response"]


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
    """The controls per job, shape ``(len(jobs), len(names))``, in arrival order."""
    values = np.empty((len(jobs), len(names)))
    for i, name in enumerate(names):
        values[:, i] = jobs.work if name == "demand" else \
            processor_sharing_response(jobs.arrival, jobs.work / processors)
    return values


@njit(cache=True)
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
    m, v, t, i = 0, 0.0, 0.0, 0
    while i < n or m > 0:
        t_arrival = arrival[i] if i < n else np.inf
        t_departure = t + (finish[0] - v) * m if m > 0 else np.inf
        if t_departure <= t_arrival:
            v, t = finish[0], t_departure
            response[owner[0]] = t - arrival[owner[0]]
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
        else:
            if m > 0:
                v += (t_arrival - t) / m
            t = t_arrival
            key, p = v + service[i], m
            m += 1
            while p > 0 and finish[(p - 1) // 2] > key:  # sift up
                finish[p], owner[p] = finish[(p - 1) // 2], owner[(p - 1) // 2]
                p = (p - 1) // 2
            finish[p], owner[p] = key, i
            i += 1
    return response
