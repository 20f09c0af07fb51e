"""From a grid point to a rigid-family Result (Talby & Feitelson 1999, TF99 §3).

``point.workload`` (``conf/workload/kth.yaml``, ``swf.yaml``): ``kind: swf``,
``path`` (relative paths are tried against the working directory, then the
repository root; an SWF file, or one in a format an installed trace reader
claims by its suffix: :mod:`sweep.workloads.traces`), ``split`` (``none`` |
``month``), ``overrun`` (``kill`` | ``extend``), ``priority_every``, ``priority_gap``, ``quota_every``,
``rescale_load``, ``submit_jitter`` — see
:mod:`sweep.families.rigid._jobs`. ``point.system.processors`` is the machine
size (128 as in the paper). ``point.policy`` names a registered policy and
carries its parameters.

Trace runs are deterministic: ``rng`` is used only to perturb the submit
times (``workload.submit_jitter > 0``), the same draw for every policy of a
replication. ``point.load`` is used
only with ``workload.rescale_load: true`` (``conf/workload/kth_scaled.yaml``):
each part's inter-arrival times are scaled to that offered load
(:func:`~sweep.families.rigid._jobs.prepare`); otherwise the trace's own
arrivals are replayed. Each part (the whole
trace, or each calendar month) is simulated from an empty machine.

Measures, over all simulated jobs (wait = start − submit, response = wait + run):
``mean_wait`` is total wait over total jobs — the paper's yearly figure, not
the mean of the monthly means (TF99 §3.2); slowdown is response / run;
bounded slowdown is ``max(response / max(run, 10 s), 1)``; utilization is the
processor-seconds used over ``processors`` times the summed span of the parts
(first submission to last end of each part). ``mean_wait_high`` /
``mean_wait_low`` split the jobs by priority UP + PP > 0 or not (Table 3; NaN
for an empty class; jobs over quota count as low).
With ``split=month`` the same measures (the two classes included: Table 3 prints
them per month) come as ``monthly_*``
variables on a ``month`` dimension labeled ``"1996-09"``, ...
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep.families import Point, Result, Variable, load_families
from sweep.families.rigid._jobs import RigidJobs, offered_load, prepare
from sweep.workloads.named import resolve_trace_path
from sweep.workloads.swf import SWFError, SWFFileNotFoundError
from sweep.workloads.traces import read_trace

BOUND = 10.0  # τ of the bounded slowdown, seconds

_MEASURES = (
    ("mean_wait", "s", "mean wait time (total wait / total jobs)"),
    ("mean_response", "s", "mean response time"),
    ("mean_slowdown", "1", "mean slowdown (response / run time)"),
    ("mean_bounded_slowdown", "1", "mean bounded slowdown (tau = 10 s)"),
    ("utilization", "1", "processor utilization"),
    ("max_wait", "s", "longest wait time"),
)

VARIABLES: tuple[Variable, ...] = (
    *(Variable(name, units, long_name) for name, units, long_name in _MEASURES),
    Variable("mean_wait_high", "s", "mean wait time of high-priority jobs"),
    Variable("mean_wait_low", "s", "mean wait time of low-priority jobs"),
    Variable("offered_load", "1", "offered load of the jobs run: sum(procs x run) / (processors x span "
             "of submissions); the trace's own unless workload.rescale_load"),
    Variable("jobs", "1", "jobs measured", dtype="int64"),
    Variable("saturated", "1", "point did not reach steady state", dtype="bool"),
    *(Variable(f"monthly_{name}", units, f"{long_name}, per calendar month", ("month",))
      for name, units, long_name in _MEASURES),
    Variable("monthly_mean_wait_high", "s", "mean wait time of high-priority jobs, per calendar month",
             ("month",)),
    Variable("monthly_mean_wait_low", "s", "mean wait time of low-priority jobs, per calendar month",
             ("month",)),
    Variable("monthly_jobs", "1", "jobs measured, per calendar month", ("month",), "int64"),
)


def load_jobs(point: Point, rng: np.random.Generator | None = None) -> RigidJobs:
    """The point's jobs; ``ValueError`` naming the option for any bad input.

    ``rng`` draws ``workload.submit_jitter``; without it (validation, month labels,
    which the jitter does not change) a fixed stream is used.
    """
    workload = point.workload
    if workload.get("kind") != "swf":
        raise ValueError(f"workload.kind must be swf for the rigid policies, "
                         f"got {workload.get('kind')!r}")
    path = resolve_trace_path(workload.get("path") or "")
    try:
        trace = read_trace(path)
    except SWFFileNotFoundError:
        raise ValueError(f"workload.path: no such trace file: {path} (relative paths are "
                         "tried against the working directory, then the repository root)"
                         ) from None
    except SWFError as error:
        raise ValueError(f"workload.path: malformed trace: {error}") from None
    processors = point.system.get("processors", 128)
    if not float(processors).is_integer():
        raise ValueError(f"system.processors must be a positive integer, got {processors!r}")
    return prepare(trace, processors=int(processors),
                   overrun=workload.get("overrun", "kill"), split=workload.get("split", "none"),
                   priority_every=int(workload.get("priority_every", 0)),
                   priority_gap=float(workload.get("priority_gap", 2.0)),
                   quota_every=int(workload.get("quota_every", 0)),
                   load=float(point.load) if workload.get("rescale_load", False) else None,
                   submit_jitter=_whole(workload.get("submit_jitter", 0)),
                   rng=np.random.default_rng(0) if rng is None else rng)


def _whole(value: Any) -> int | float:
    """An integral value as int; anything else as is, for :func:`prepare` to reject by name."""
    return int(value) if float(value).is_integer() else value


def validate(point: Point) -> None:
    """Check the policy, its parameters, the workload and the system before any run."""
    load_families()["rigid"].params(point)
    load_jobs(point)


def schedule(jobs: RigidJobs, policy: str, params: Any) -> np.ndarray:
    """Start times of every job, each part simulated on its own from an empty machine."""
    start = np.empty(len(jobs))
    run = load_families()["rigid"].policies[policy].hooks.schedule
    for k in range(len(jobs.labels)):
        s = jobs.part(k)
        start[s] = run(jobs.submit[s], jobs.run[s], jobs.requested[s], jobs.procs[s],
                       jobs.priority[s], jobs.processors, params)
    return start


def _span(jobs: RigidJobs, start: np.ndarray, s: slice) -> float:
    """First submission to last end of one part."""
    return float((start[s] + jobs.run[s]).max() - jobs.submit[s][0])


def _measures(jobs: RigidJobs, start: np.ndarray, s: slice, span: float) -> dict[str, float]:
    submit, run, procs = jobs.submit[s], jobs.run[s], jobs.procs[s]
    wait = start[s] - submit
    response = wait + run
    return {
        "mean_wait": float(wait.mean()),
        "mean_response": float(response.mean()),
        "mean_slowdown": float((response / run).mean()),
        "mean_bounded_slowdown": float(np.maximum(response / np.maximum(run, BOUND), 1).mean()),
        "utilization": float((procs * run).sum()) / (jobs.processors * span),
        "max_wait": float(wait.max()),
    }


def _class_waits(wait: np.ndarray, priority: np.ndarray) -> tuple[float, float]:
    """Mean wait of the high-priority (UP + PP > 0) and the other jobs; NaN for an empty class."""
    high = priority > 0
    return (float(wait[high].mean()) if high.any() else np.nan,
            float(wait[~high].mean()) if (~high).any() else np.nan)


def summarize(jobs: RigidJobs, start: np.ndarray) -> dict[str, Any]:
    """The declared summary variables from the start times (module docstring)."""
    if len(jobs) == 0:
        return {"jobs": 0, "saturated": False}
    parts = [jobs.part(k) for k in range(len(jobs.labels))]
    spans = [_span(jobs, start, s) for s in parts]
    summary: dict[str, Any] = _measures(jobs, start, slice(None), sum(spans))
    wait = start - jobs.submit
    summary["mean_wait_high"], summary["mean_wait_low"] = _class_waits(wait, jobs.priority)
    summary["jobs"] = len(jobs)
    summary["offered_load"] = offered_load(jobs.submit, jobs.run, jobs.procs, jobs.processors)
    summary["saturated"] = False
    if jobs.labels != ("all",):
        monthly = [_measures(jobs, start, s, span) for s, span in zip(parts, spans, strict=True)]
        for name, _, _ in _MEASURES:
            summary[f"monthly_{name}"] = np.array([m[name] for m in monthly])
        classes = np.array([_class_waits(wait[s], jobs.priority[s]) for s in parts]).reshape(-1, 2)
        summary["monthly_mean_wait_high"], summary["monthly_mean_wait_low"] = classes.T
        summary["monthly_jobs"] = np.diff(jobs.bounds)
    return summary


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One trace run of ``point`` (``rng``: the submit-time jitter only; module docstring)."""
    jobs = load_jobs(point, rng)
    params = load_families()["rigid"].params(point)
    start = schedule(jobs, point.policy["name"], params)
    recorded = None
    if point.record_jobs:
        recorded = {"job_number": jobs.job_number.astype(np.float64), "submit": jobs.submit,
                    "start": start, "end": start + jobs.run}
    attrs: dict[str, str | int | float] = {f"trace_dropped_{k}": v for k, v in jobs.dropped.items()}
    attrs.update({f"trace_adjusted_{k}": v for k, v in jobs.adjusted.items()})
    return Result(summary=summarize(jobs, start), jobs=recorded, work=len(jobs), attrs=attrs)


def load_applied(point: Point) -> bool:
    """Whether ``point.load`` shapes the jobs: only when the trace is rescaled to it
    (``workload.rescale_load``); else the trace is replayed as it is (``offered_load``)."""
    return bool(point.workload.get("rescale_load", False))


def deterministic(point: Point) -> bool:
    """Whether a run of ``point`` draws no random number: the trace is replayed without
    ``workload.submit_jitter`` (rescaling it to a load is no draw), so replications would be the
    same run (module docstring)."""
    return not point.workload.get("submit_jitter", 0)


def month_labels(point: Point) -> np.ndarray:
    """Labels of the ``month`` dimension: the calendar months of the point's trace."""
    return np.array(load_jobs(point).labels)
