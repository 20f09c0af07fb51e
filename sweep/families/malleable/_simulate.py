"""From a grid point to a malleable-family Result (CV96 §4).

``point.workload`` is a ``kind: malleable`` workload
(:mod:`~sweep.families.malleable._workload`), ``point.load`` its offered load
(``ρ = λW̄/P``, or jobs per hour with ``workload.load_unit: jobs_per_hour``),
``point.policy`` a registered policy with its options, ``point.system.processors``
``P`` (128 in every experiment of CV96, ``conf/system/mpp128.yaml``), and
``point.stop``:

- ``ci_target`` (default 0: off): stop once the 90% confidence interval of the
  mean response time is within ``± ci_target`` of it (CV96 §4 used ±5%);
- ``max_jobs``: with ``ci_target``, the most departures measured before giving up;
- ``control_variate``: ``demand``, ``processor_sharing`` or both
  (:mod:`~sweep.families.malleable._controls`): ``mean_response`` and
  ``mean_response_hw90`` are the control-variate estimate and interval, the batch
  means of the departed jobs' controls being regressed out
  (:func:`sweep.stats.controlled_mean`), and the stopping rule uses them;
  ``mean_response_direct`` and ``mean_response_direct_hw90`` keep the plain
  batch-means figures.

Statistics (batch means with the first batch discarded; the kernel side is in
:mod:`sweep.families.malleable._core`): after ``stop.warmup`` departures,
departures are cut into batches of ``ceil(stop.jobs / BATCHES)``; batch 0 is
discarded; from ``BATCHES`` measured batches on (with ``ci_target``) the run
stops when the interval is narrow enough. At ``2·BATCHES + 2`` batches adjacent
pairs merge; before each merge, when the interval is met, and at the end of a
run that missed its target, a number in system that grows across the batches
(Mann–Kendall ``p < SAT_P``, last quarter above the first by 0.5% of the jobs,
or by 50 jobs and a factor 1.5: :func:`sweep.families.malleable._core.growing`)
marks the point ``saturated`` and stops it. After the first merge the test also
runs after every batch, at the level ``SAT_P / (BATCHES + 1)`` (the ``BATCHES + 1``
tests between two merges then flag a stable point no more often than the one
at the merge), so a growing backlog stops the run at once rather than at the
next doubling of its length (issue 15; it waits for the first merge, as before,
so that the fill-up from an empty system is not taken for growth).
Without ``ci_target`` the run is exactly ``BATCHES + 1`` batches after the
warm-up (``stop.jobs`` measured). ``cap = min(stop.max_in_system,
MAX_IN_SYSTEM)`` jobs present at once also stop a point and mark it
``saturated`` (the kernels cost O(jobs in system) per event). Jobs are drawn
as the run needs them (:class:`~sweep.families.malleable._workload.MalleableStream`,
in chunks of ``CHUNK_JOBS``), so a point that stops early, saturated or within
its interval, draws no more than it simulated.

Measures over the measured batches: ``mean_response``; ``mean_response_hw90``
(a half-width is ``<variable>_hw90`` in every family); ``mean_response_direct``
and ``mean_response_direct_hw90`` (the plain batch means, the same as the two
before without ``control_variate``); ``batches``;
``utilization`` (processor-seconds allocated / (P × time)) and ``utilization_hw90``
(over the batches' utilizations); ``mean_allocation``
(mean over the measured jobs of acquired processor-seconds / response time);
``repartitions_per_job`` (allocation changes, §4.3).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sweep.families import Point, Result, StopRule, Variable, load_families
from sweep.families.malleable import _core
from sweep.families.malleable._controls import ControlledStream, control_means
from sweep.families.malleable._workload import MalleableJobs, MalleableStream, validate_workload
from sweep.stats import ci_halfwidth, controlled_mean

MAX_IN_SYSTEM = 10_000
BATCHES = 20
SAT_P = 1e-3

VARIABLES: tuple[Variable, ...] = (
    Variable("mean_response", "s", "mean response time"),
    Variable("mean_response_hw90", "s", "half-width of the 90% confidence interval of mean_response"),
    Variable("mean_response_direct", "s", "mean response time, plain batch means (no control variate)"),
    Variable("mean_response_direct_hw90", "s",
             "half-width of the 90% confidence interval of mean_response_direct"),
    Variable("batches", "1", "batch means measured (the first batch discarded)", dtype="int64"),
    Variable("utilization", "1", "fraction of processors allocated"),
    Variable("utilization_hw90", "1", "half-width of the 90% confidence interval of utilization"),
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
    """The loop's stopping rule from ``stop`` (module docstring), which :class:`StopRule` has checked.

    What is the malleable family's own is checked here: ``stop.jobs`` fills
    ``BATCHES`` batches of at least two jobs, and with ``ci_target`` the budget
    ``max_jobs`` holds at least ``stop.jobs`` plus the discarded batch. Without
    the control variates' means, which :func:`simulate` adds.
    """
    if stop.jobs < 2 * BATCHES:
        raise ValueError(f"stop.jobs must be >= {2 * BATCHES} ({BATCHES} batch means of at least two "
                         f"jobs), got {stop.jobs!r}")
    blen = math.ceil(stop.jobs / BATCHES)
    cap = min(stop.max_in_system, MAX_IN_SYSTEM)
    if stop.ci_target == 0:
        return _core.Stop(stop.warmup, stop.warmup + blen * (BATCHES + 1), cap, blen, BATCHES)
    if stop.max_jobs is None or stop.max_jobs < blen * (BATCHES + 1):
        raise ValueError(f"stop.max_jobs must be an integer >= {blen * (BATCHES + 1)} "
                         f"(stop.jobs plus one discarded batch) with stop.ci_target, got {stop.max_jobs!r}")
    return _core.Stop(stop.warmup, stop.warmup + stop.max_jobs, cap, blen, BATCHES, float(stop.ci_target),
                      SAT_P)


def validate(point: Point) -> None:
    """Check policy, its options, workload, system, load and stop rule before any run."""
    _core.option_values(load_families()["malleable"].params(point))
    validate_workload(point.workload)
    _processors(point)
    stop_rule(point.stop)
    control_means(point.stop.control_variate, point.workload, _processors(point), point.load)


def summarize(outcome: _core.Outcome, processors: int) -> dict[str, Any]:
    """The declared variables from the loop's final batch sums and scalars (module docstring)."""
    _, batches, sc = outcome
    k, blen = int(sc.batch) - 1, int(sc.batch_length)
    saturated = bool(sc.saturated)
    if k < 1:
        return {"mean_response": math.nan, "mean_response_hw90": math.nan, "mean_response_direct": math.nan,
                "mean_response_direct_hw90": math.nan, "batches": 0,
                "utilization": math.nan, "utilization_hw90": math.nan, "mean_allocation": math.nan,
                "repartitions_per_job": math.nan, "jobs": 0, "saturated": saturated}
    measured = slice(1, k + 1)
    means = batches.response[measured] / blen
    direct = float(means.mean()), ci_halfwidth(means)
    mean, halfwidth = direct if batches.means.size == 0 else \
        controlled_mean(means, batches.controls[measured] / blen, batches.means)
    ended = not sc.met and sc.departed >= sc.target
    if ended and _core.growing(_core.number_in_system(batches, k), SAT_P, k * blen):
        saturated = True
    return {
        "mean_response": mean,
        "mean_response_hw90": halfwidth,
        "mean_response_direct": direct[0],
        "mean_response_direct_hw90": direct[1],
        "batches": k,
        "utilization": float(batches.busy[measured].sum() / (processors * batches.time[measured].sum())),
        "utilization_hw90": ci_halfwidth(batches.busy[measured] / (processors * batches.time[measured])),
        "mean_allocation": float(batches.allocation[measured].sum() / (k * blen)),
        "repartitions_per_job": float(batches.changes[measured].sum() / (k * blen)),
        "jobs": k * blen,
        "saturated": saturated,
    }


def simulate(point: Point, rng: np.random.Generator, *, chunk_jobs: int = _core.CHUNK_JOBS) -> Result:
    """One replication of ``point`` (module docstring), its jobs streamed ``chunk_jobs`` at a time."""
    processors = _processors(point)
    names = point.stop.control_variate
    stop = stop_rule(point.stop)
    if names:
        stop = stop._replace(control_means=control_means(names, point.workload, processors, point.load))
    chunks = ControlledStream(MalleableStream(point.workload, processors, point.load, rng), names,
                              processors, chunk_jobs)
    taken: list[MalleableJobs] = []
    departed: list[_core.Log] = []

    def recorded_chunks() -> tuple[MalleableJobs, np.ndarray | None, bool]:
        jobs, controls, more = chunks()
        taken.append(jobs)
        return jobs, controls, more

    family = load_families()["malleable"]
    hooks = family.policy(point).hooks
    params = family.params(point)
    if point.record_jobs:
        outcome = hooks.stream(recorded_chunks, processors, params, stop, departed.append)
    else:
        outcome = hooks.stream(chunks, processors, params, stop)
    return Result(summary=summarize(outcome, processors),
                  jobs=_job_arrays(taken, departed) if point.record_jobs else None,
                  work=int(outcome.scalars.events))


def _job_arrays(taken: list[MalleableJobs], departed: list[_core.Log]) -> dict[str, np.ndarray]:
    """The departed jobs (``record_jobs``), in arrival order."""
    log = _core.Log(*(np.concatenate(column) for column in zip(*departed, strict=True))) if departed else \
        _core.Log(np.empty(0, np.int64), np.empty(0), np.empty(0), np.empty(0, np.int64), np.empty(0))
    order = np.argsort(log.ident, kind="stable")
    ident = log.ident[order]
    arrival, work, parallelism = (np.concatenate([getattr(jobs, name) for jobs in taken])[ident]
                                  for name in ("arrival", "work", "parallelism"))
    return {"arrival": arrival, "end": log.depart[order], "work": work,
            "parallelism": parallelism.astype(np.float64), "acquired": log.acquired[order],
            "repartitions": log.changes[order].astype(np.float64)}
