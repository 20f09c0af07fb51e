"""From a grid point to a malleable-family Result (seed 000 §4; MODEL_NOTES §1; DESIGN §6).

``point.workload`` is a ``kind: malleable`` workload
(:mod:`~sweep.families.malleable.workload`), ``point.load`` its offered load
(``ρ = λW̄/P``, or jobs per hour with ``workload.load_unit: jobs_per_hour``),
``point.policy`` a registered policy with its options, ``point.system.processors``
``P`` (128 in every experiment of seed 000, ``conf/system/mpp128.yaml``), and
``point.stop``:

- ``ci_target`` (default 0: off): stop once the 90% confidence interval of the
  mean response time is within ``± ci_target`` of it (seed 000 §4 used ±5%);
- ``max_jobs``: with ``ci_target``, the most departures measured before giving up;
- ``control_variate``: ``demand``, ``processor_sharing`` or both
  (:mod:`~sweep.families.malleable.controls`): ``mean_response`` and
  ``ci_halfwidth`` are the control-variate estimate and interval, the batch
  means of the departed jobs' controls being regressed out
  (:func:`sweep.stats.controlled_mean`), and the stopping rule uses them;
  ``mean_response_direct`` and ``ci_halfwidth_direct`` keep the plain
  batch-means figures.

Statistics (batch means with the first batch discarded; the kernel side is in
:mod:`sweep.families.malleable._core`): after ``stop.warmup`` departures,
departures are cut into batches of ``ceil(stop.jobs / BATCHES)``; batch 0 is
discarded; from ``BATCHES`` measured batches on, the run stops when the
interval is narrow enough. At ``2·BATCHES + 2`` batches adjacent pairs merge;
before each merge, and at the end of a run that missed its target, a number in
system that grows across the batches (Mann–Kendall ``p < SAT_P``, last quarter
above the first by 0.5% of the jobs, or by 50 jobs and a factor 1.5:
:func:`sweep.families.malleable._core.growing`) marks the
point ``saturated`` and stops it. Without
``ci_target`` the run is exactly ``BATCHES + 1`` batches after the warm-up
(``stop.jobs`` measured). ``cap = min(stop.max_in_system, MAX_IN_SYSTEM)``
jobs present at once also stop a point and mark it ``saturated`` (the kernels
cost O(jobs in system) per event); so does the trend test.

Measures over the measured batches: ``mean_response``; ``ci_halfwidth``;
``mean_response_direct`` and ``ci_halfwidth_direct`` (the plain batch means, the
same as the two before without ``control_variate``); ``batches``;
``utilization`` (processor-seconds allocated / (P × time)); ``mean_allocation``
(mean over the measured jobs of acquired processor-seconds / response time);
``repartitions_per_job`` (allocation changes, §4.3).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sweep.families import Point, Result, StopRule, Variable, load_families
from sweep.families.malleable import _core
from sweep.families.malleable.controls import control_means, control_values
from sweep.families.malleable.workload import MalleableJobs, make_jobs, validate_workload
from sweep.stats import ci_halfwidth, controlled_mean

MAX_IN_SYSTEM = 10_000
BATCHES = 20
SAT_P = 1e-3

VARIABLES: tuple[Variable, ...] = (
    Variable("mean_response", "s", "mean response time"),
    Variable("ci_halfwidth", "s", "half-width of the 90% confidence interval of mean_response"),
    Variable("mean_response_direct", "s", "mean response time, plain batch means (no control variate)"),
    Variable("ci_halfwidth_direct", "s", "half-width of the 90% confidence interval of mean_response_direct"),
    Variable("batches", "1", "batch means measured (the first batch discarded)", dtype="int64"),
    Variable("utilization", "1", "fraction of processors allocated"),
    Variable("mean_allocation", "processors", "mean over jobs of acquired processor time / response"),
    Variable("repartitions_per_job", "1", "mean number of changes of a job's allocation"),
    Variable("jobs", "1", "jobs measured", dtype="int64"),
    Variable("saturated", "1", "jobs in system grew or reached the cap: stopped early", dtype="bool"),
)


def _processors(point: Point) -> int:
    processors = point.system.get("processors")
    if isinstance(processors, bool) or not isinstance(processors, int | float) or not (
            float(processors).is_integer() and processors >= 1):
        raise ValueError(f"system.processors must be a positive integer, got {processors!r}")
    return int(processors)


def stop_rule(stop: StopRule) -> _core.Stop:
    """The kernels' stopping rule from ``stop`` (``ci_target``, ``max_jobs``; module docstring).

    Without the control variates' values, which :func:`simulate` adds once the jobs are drawn.
    """
    rel = stop.ci_target  # in [0, 1): StopRule checks it
    blen = max(1, math.ceil(stop.jobs / BATCHES))
    cap = min(stop.max_in_system, MAX_IN_SYSTEM)
    if rel == 0:
        return _core.Stop(stop.warmup, stop.warmup + blen * (BATCHES + 1), cap, blen, BATCHES)
    budget = stop.max_jobs
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < blen * (BATCHES + 1):
        raise ValueError(f"stop.max_jobs must be an integer >= {blen * (BATCHES + 1)} "
                         f"(stop.jobs plus one discarded batch) with stop.ci_target, got {budget!r}")
    return _core.Stop(stop.warmup, stop.warmup + budget, cap, blen, BATCHES, float(rel), SAT_P)


def validate(point: Point) -> None:
    """Check policy, its options, workload, system, load and stop rule before any run."""
    load_families()["malleable"].params(point)
    validate_workload(point.workload)
    _processors(point)
    if not 0 < point.load < math.inf:
        raise ValueError(f"load must be > 0 (offered load rho = lambda W/P, or jobs/hour), "
                         f"got {point.load!r}")
    if point.stop.jobs < 2 * BATCHES or point.stop.warmup < 0 or point.stop.max_in_system < 1:
        raise ValueError(f"stop.jobs must be >= {2 * BATCHES}, stop.warmup >= 0 and "
                         f"stop.max_in_system >= 1; got {point.stop}")
    stop_rule(point.stop)
    control_means(point.stop.control_variate, point.workload, _processors(point), point.load)


def summarize(jobs: MalleableJobs, st: tuple, processors: int, warmup: int) -> dict[str, Any]:
    """The declared variables from the kernel's final state (module docstring)."""
    acq, depart, ist, nrep, bat, means_known = st[1], st[4], st[6], st[10], st[12], st[15]
    k, blen = int(ist[_core.I_NB]) - 1, int(ist[_core.I_BLEN])
    saturated = bool(ist[_core.I_SAT])
    if k < 1:
        return {"mean_response": math.nan, "ci_halfwidth": math.nan, "mean_response_direct": math.nan,
                "ci_halfwidth_direct": math.nan, "batches": 0,
                "utilization": math.nan, "mean_allocation": math.nan,
                "repartitions_per_job": math.nan, "jobs": 0, "saturated": saturated}
    measured = bat[1:k + 1]
    means = measured[:, _core.B_RESP] / blen
    direct = float(means.mean()), ci_halfwidth(means)
    mean, halfwidth = direct if means_known.size == 0 else \
        controlled_mean(means, measured[:, _core.B_CTL:] / blen, means_known)
    number = measured[:, _core.B_AREA] / measured[:, _core.B_TIME]
    ended = not ist[_core.I_MET] and ist[_core.I_DEP] >= ist[_core.I_TARGET]
    if ended and _core.growing(number, SAT_P, k * blen):
        saturated = True
    order = np.argsort(depart, kind="stable")[warmup + blen: warmup + blen * (k + 1)]
    response = depart[order] - jobs.arrival[order]
    return {
        "mean_response": mean,
        "ci_halfwidth": halfwidth,
        "mean_response_direct": direct[0],
        "ci_halfwidth_direct": direct[1],
        "batches": k,
        "utilization": float(measured[:, _core.B_BUSY].sum()
                             / (processors * measured[:, _core.B_TIME].sum())),
        "mean_allocation": float((acq[order] / response).mean()),
        "repartitions_per_job": float(nrep[order].mean()),
        "jobs": k * blen,
        "saturated": saturated,
    }


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication of ``point`` (module docstring)."""
    processors = _processors(point)
    names = point.stop.control_variate
    stop = stop_rule(point.stop)
    jobs = make_jobs(point.workload, processors, point.load, stop.target + stop.cap, rng)
    if names:
        stop = stop._replace(controls=control_values(names, jobs, processors),
                             control_means=control_means(names, point.workload, processors, point.load))
    family = load_families()["malleable"]
    st = family.policy(point).hooks.run(jobs, processors, family.params(point), stop)
    recorded = None
    if point.record_jobs:
        depart, acq = st[4], st[1]
        done = ~np.isnan(depart)
        recorded = {"arrival": jobs.arrival[done], "end": depart[done], "work": jobs.work[done],
                    "parallelism": jobs.parallelism[done].astype(np.float64),
                    "acquired": acq[done], "repartitions": st[10][done].astype(np.float64)}
    return Result(summary=summarize(jobs, st, processors, point.stop.warmup),
                  jobs=recorded, work=int(st[6][_core.I_EVENTS]))
