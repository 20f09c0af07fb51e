"""From a grid point to a malleable-family Result (seed 000 §4; MODEL_NOTES §1; DESIGN §6).

``point.workload`` is a ``kind: malleable`` workload
(:mod:`~sweep.families.malleable.workload`), ``point.system["processors"]`` is
``P`` (128 in every experiment of seed 000, ``conf/system/mpp128.yaml``),
``point.load`` the offered load ``ρ = λW̄/P``, ``point.policy`` a registered
policy with its options.

One replication pre-draws ``warmup + jobs + cap`` jobs, runs until
``warmup + jobs`` departures, and measures the ``jobs`` departures after the
first ``warmup`` (the discarded first batch). ``cap = min(stop.max_in_system,
MAX_IN_SYSTEM)``: the kernels cost O(jobs in system) per event, so a point past
saturation is stopped once ``cap`` jobs are present and marked ``saturated``
(it can never run out of pre-drawn arrivals first).

Measures over the measured departures: ``mean_response`` (departure − arrival);
``ci_halfwidth``, the half-width of its 90% Student-t confidence interval from
``BATCHES`` batch means of consecutive departures; ``mean_allocation``, the
mean over jobs of acquired processor-seconds / response time; ``utilization``,
processor-seconds allocated / (P × time) from the ``warmup``-th departure to the
end.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats

from sweep.families import Point, Result, Variable
from sweep.families.malleable import _core
from sweep.families.malleable._policy import POLICIES
from sweep.families.malleable.workload import MalleableJobs, make_jobs, validate_workload

MAX_IN_SYSTEM = 10_000
BATCHES = 20
LEVEL = 0.90

VARIABLES: tuple[Variable, ...] = (
    Variable("mean_response", "s", "mean response time"),
    Variable("ci_halfwidth", "s", "half-width of the 90% confidence interval of mean_response"),
    Variable("utilization", "1", "fraction of processors allocated"),
    Variable("mean_allocation", "processors", "mean over jobs of acquired processor time / response"),
    Variable("jobs", "1", "jobs measured", dtype="int64"),
    Variable("saturated", "1", "jobs in system reached the cap: stopped early", dtype="bool"),
)


def _processors(point: Point) -> int:
    processors = point.system.get("processors")
    if isinstance(processors, bool) or not isinstance(processors, int | float) or not (
            float(processors).is_integer() and processors >= 1):
        raise ValueError(f"system.processors must be a positive integer, got {processors!r}")
    return int(processors)


def validate(point: Point) -> None:
    """Check policy, its options, workload, system, load and stop rule before any run."""
    name = point.policy["name"]
    if name not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(sorted(POLICIES))}, got {name!r}")
    POLICIES[name].make_params(point.policy)
    validate_workload(point.workload)
    _processors(point)
    if not 0 < point.load < math.inf:
        raise ValueError(f"load must be > 0 (offered load rho = lambda W/P), got {point.load!r}")
    if point.stop.jobs < 2 * BATCHES or point.stop.warmup < 0 or point.stop.max_in_system < 1:
        raise ValueError(f"stop.jobs must be >= {2 * BATCHES}, stop.warmup >= 0 and "
                         f"stop.max_in_system >= 1; got {point.stop}")


def summarize(jobs: MalleableJobs, depart: np.ndarray, acq: np.ndarray, ist: np.ndarray,
              fst: np.ndarray, processors: int, warmup: int) -> dict[str, Any]:
    """The declared variables from the kernel's final state (module docstring)."""
    order = np.argsort(depart, kind="stable")[warmup:ist[_core.I_DEP]]
    response = depart[order] - jobs.arrival[order]
    saturated = bool(ist[_core.I_SAT])
    if response.size == 0:
        return {"mean_response": math.nan, "ci_halfwidth": math.nan, "utilization": math.nan,
                "mean_allocation": math.nan, "jobs": 0, "saturated": saturated}
    length = response.size // BATCHES
    halfwidth = math.nan
    if length > 0:
        means = response[: length * BATCHES].reshape(BATCHES, length).mean(axis=1)
        t = stats.t.ppf(0.5 + LEVEL / 2, BATCHES - 1)
        halfwidth = t * np.std(means, ddof=1) / math.sqrt(BATCHES)
    span = fst[_core.F_T] - fst[_core.F_START]
    return {
        "mean_response": float(response.mean()),
        "ci_halfwidth": float(halfwidth),
        "utilization": float(fst[_core.F_BUSY] / (processors * span)) if span > 0 else math.nan,
        "mean_allocation": float((acq[order] / response).mean()),
        "jobs": int(response.size),
        "saturated": saturated,
    }


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication of ``point`` (module docstring)."""
    processors, stop = _processors(point), point.stop
    cap = min(stop.max_in_system, MAX_IN_SYSTEM)
    target = stop.warmup + stop.jobs
    jobs = make_jobs(point.workload, processors, point.load, target + cap, rng)
    policy = POLICIES[point.policy["name"]]
    depart, acq, ist, fst = policy.run(jobs, processors, policy.make_params(point.policy),
                                       stop.warmup, target, cap)
    recorded = None
    if point.record_jobs:
        done = ~np.isnan(depart)
        recorded = {"arrival": jobs.arrival[done], "end": depart[done], "work": jobs.work[done],
                    "parallelism": jobs.parallelism[done].astype(np.float64),
                    "acquired": acq[done]}
    return Result(summary=summarize(jobs, depart, acq, ist, fst, processors, stop.warmup),
                  jobs=recorded, work=int(ist[_core.I_EVENTS]))
