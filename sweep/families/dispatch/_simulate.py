"""The dispatch family's entry points: validate, simulate, analytic (the engine contract).

``simulate`` draws the job stream (``_workload.JobStream``) and the policy's
own random numbers from three children of the replication's generator, in
that order for every policy (docs/design.md §4), then feeds the stream to a
``_core.HostSystem`` in chunks of :data:`CHUNK_JOBS` jobs, so memory stays
flat however long the run. ``simulate_arrays`` runs given arrival times and
sizes instead (hand-worked schedules, traces replayed as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import Point, Policy, Result, Variable, load_families
from sweep.families.dispatch._core import _NO_HOSTS, HostSystem
from sweep.families.dispatch._workload import JobStream, Workload, workload_of

#: Jobs per kernel call (the job stream itself is drawn in fixed blocks).
CHUNK_JOBS = 1 << 16

VARIABLES = (
    Variable("mean_response", "s", "mean response time (arrival to completion)"),
    Variable("mean_wait", "s", "mean waiting time in queue (arrival to start)"),
    Variable("mean_slowdown", "1", "mean slowdown, response time / service time (>= 1)"),
    Variable("var_slowdown", "1", "variance of the slowdown over jobs"),
    Variable("mean_response_hw90", "s",
             "half-width of the 90% batch-means confidence interval of mean_response"),
    Variable("mean_slowdown_hw90", "1",
             "half-width of the 90% batch-means confidence interval of mean_slowdown"),
    Variable("batch_mean_response", "s",
             "mean response time of each batch of measured jobs, in arrival order (for trend tests)",
             dims=("batch",)),
    Variable("utilization", "1", "busy fraction of the hosts during measurement"),
    Variable("jobs", "1", "jobs measured", dtype="int64"),
    Variable("saturated", "1", "a host's offered load >= 1, or the in-system cap was passed",
             dtype="bool"),
    Variable("host_load_fraction", "1", "fraction of the total work sent to each host",
             dims=("host",)),
    Variable("host_job_fraction", "1", "fraction of the jobs sent to each host", dims=("host",)),
    Variable("host_mean_slowdown", "1", "mean slowdown of the jobs each host served",
             dims=("host",)),
)


@dataclass(frozen=True)
class Hosts:
    """A distributed server of ``hosts`` identical hosts (``conf/system/distributed.yaml``)."""

    hosts: int


def _policy_of(point: Point) -> Policy:
    return load_families()["dispatch"].policy(point)


def _positive_int(value: Any, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def validate(point: Point) -> None:
    """One-line ``ValueError`` for a bad option, before anything runs."""
    policy = _policy_of(point)
    policy.make_params(point.policy)
    _positive_int(point.system.get("hosts"), "system.hosts", 1)
    workload = workload_of(point.workload)  # raises ValueError naming a bad workload option
    if policy.hooks.check is not None:
        policy.hooks.check(point, workload)


def simulate(point: Point, rng: np.random.Generator, *, chunk_jobs: int = CHUNK_JOBS) -> Result:
    """One replication: Poisson arrivals at ``λ = ρ h / E[X]``, sizes from the workload."""
    workload = workload_of(point.workload)
    rng_arrivals, rng_sizes, rng_policy = rng.spawn(3)
    stream = JobStream(workload, workload.rate(point.load, int(point.system["hosts"])),
                       rng_arrivals, rng_sizes)
    return _run(point, workload, stream.take, rng_policy, chunk_jobs)


def simulate_arrays(point: Point, arrival: np.ndarray, size: np.ndarray,
                    rng: np.random.Generator | None = None, *,
                    chunk_jobs: int = CHUNK_JOBS) -> Result:
    """Run the given jobs (time-ordered arrivals); ``stop.warmup + stop.jobs`` at most.

    ``point.workload`` still fixes the SITA cutoffs and the analytic saturation
    flag; ``rng`` feeds Random's choices (required for ``random`` only).
    """
    arrival = np.asarray(arrival, dtype=np.float64)
    size = np.asarray(size, dtype=np.float64)
    if arrival.shape != size.shape or arrival.ndim != 1 or np.any(np.diff(arrival) < 0) \
            or np.any(size <= 0):
        raise ValueError("arrival and size must be 1-D, of one length, arrival sorted, size > 0")
    position = 0

    def take(count: int) -> tuple[np.ndarray, np.ndarray]:
        nonlocal position
        window = slice(position, position + count)
        position += count
        return arrival[window], size[window]

    stop = point.stop
    limit = min(len(arrival), stop.warmup + stop.jobs)
    if limit <= stop.warmup:
        raise ValueError(f"{len(arrival)} jobs leave none to measure after {stop.warmup} warm-up")
    return _run(point, workload_of(point.workload), take, rng, chunk_jobs, limit)


def _run(point: Point, workload: Workload,
         take: Callable[[int], tuple[np.ndarray, np.ndarray]],
         rng_policy: np.random.Generator | None, chunk_jobs: int,
         limit: int | None = None) -> Result:
    policy = _policy_of(point)
    stop = point.stop
    hosts = int(point.system["hosts"])
    hooks = policy.hooks
    system = HostSystem(hosts, hooks.kernel, warmup=stop.warmup,
                        jobs=(limit or stop.warmup + stop.jobs) - stop.warmup,
                        max_in_system=stop.max_in_system, record_jobs=point.record_jobs)
    assign = hooks.assigner(point, workload, rng_policy) if hooks.assigner else None
    total, done = system.warmup + system.jobs, 0
    while done < total and not system.stopped:
        arrival, size = take(min(chunk_jobs, total - done))
        system.feed(arrival, size, assign(size, done) if assign else _NO_HOSTS)
        done += len(arrival)
    summary = system.summary()
    summary["saturated"] = bool(summary["saturated"] or hooks.analytic(point, workload)["saturated"])
    jobs = system.job_arrays() if point.record_jobs else None
    return Result(summary=summary, jobs=jobs, work=system.simulated)


def analytic(point: Point) -> Result:
    """The closed-form model of the point (``model=analytic``): NaN where there is none."""
    summary = _policy_of(point).hooks.analytic(point, workload_of(point.workload))
    return Result(summary=summary, work=0)

