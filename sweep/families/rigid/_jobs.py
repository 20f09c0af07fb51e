"""Rigid jobs from a Standard Workload Format trace (TF99 §3.1; docs/model-notes.md §2).

A trace becomes plain arrays, one entry per job, in submit order:

``submit``
    SWF field 2 (s from the log's start).
``run``
    The run time the simulation uses: SWF field 4, a run time of 0 raised to 1 s,
    then clipped to the requested time when ``overrun="kill"`` (the default: seed
    001 §3.1, "jobs that exceeded their declared runtime were immediately killed").
``requested``
    The user's estimate, SWF field 9. With ``overrun="extend"`` it is raised to the
    run time instead (what many simulators do). A missing estimate (≤ 0) is
    replaced by the run time: the scheduler then knows the exact run time of that
    job (counted as ``estimate_from_runtime``). Every scheduling decision uses
    this column, never ``run`` (docs/model-notes.md §2).
``procs``
    Requested processors (SWF field 8), falling back to the allocated processors
    (field 5) when field 8 ≤ 0.
``priority``
    User plus political priority, UP + PP of TF99 §2.2: 0 for every job, or
    ``priority_gap`` for every ``priority_every``-th job of each simulated part
    (the 5th, 10th, ... job; TF99 §3.3, Tables 3–4: every fifth job had
    UP = PP = 1, i.e. a gap of 2). The count restarts in each part because the
    paper assigned priorities "for each of the twelve monthly logs". With
    ``quota_every = k > 0`` every k-th job of each part is over quota instead:
    PP = −∞ (``-inf``), which gives it infinite slack (TF99 §2.2;
    docs/model-notes.md §2). Which jobs are over quota is a made-up rule (the paper
    ran no quota experiment), and a quota job overrides a priority one.

``submit_jitter = J > 0`` perturbs the trace: every submit time moves by a
whole number of seconds drawn uniformly from ``[−J, J]`` with ``rng`` (times
below 0 become 0), and each part is re-sorted by the new times (ties in the
old order). Each job keeps its part and its priority, so the perturbation
changes nothing but the arrival times: the spread of a result over seeds is
the noise floor of a trace result (sweep's addition, not in TF99).

Drop rule (docs/model-notes.md §2), each drop counted by reason in ``RigidJobs.dropped``:
``no_processors`` (neither field 8 nor field 5 positive), ``too_many_processors``
(more than the simulated machine), ``unknown_runtime`` (field 4 < 0),
``unknown_submit`` (field 2 < 0). KTH drops exactly one job (27313, no
processor count). Adjustments that keep a job are counted in
``RigidJobs.adjusted``.

``load`` (a target offered load, or ``None`` to replay the trace's own
arrivals) rescales the inter-arrival times of each part so that its offered
load ``ρ = Σ procs·run / (P · span)`` equals ``load``, ``span`` being the part's
first to last submission (:func:`offered_load`); the first submission stays
put and every gap is multiplied by ``ρ_trace / load``. This is the usual way to
sweep load over a trace (e.g. Feitelson & Mu'alem Weil 1998), not something
Talby & Feitelson 1999 (TF99) did: it replays KTH as logged. A part whose jobs all
arrive at once has no span and is left as is.

``split="month"`` groups the jobs by the calendar month of their submission in
the log's local time (``UnixStartTime`` plus ``TimeZoneString``, or the
``TimeZone`` offset when only that is given, else UTC); each month is simulated
on its own from an empty machine (TF99 §3.2, Table 1). ``split="none"``
keeps the whole trace as one part labeled ``"all"``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Protocol
from zoneinfo import ZoneInfo

import numpy as np

OVERRUN = ("kill", "extend")
SPLIT = ("none", "month")


class Trace(Protocol):
    """The part of ``sweep.workloads.swf.SWFTrace`` this module reads."""

    header: dict[str, str]
    unix_start_time: int | None
    job_number: np.ndarray
    submit: np.ndarray
    run_time: np.ndarray
    allocated_procs: np.ndarray
    requested_procs: np.ndarray
    requested_time: np.ndarray


@dataclass(frozen=True)
class RigidJobs:
    """Jobs as columns in submit order; part ``k`` is ``slice(bounds[k], bounds[k+1])``."""

    job_number: np.ndarray
    submit: np.ndarray
    run: np.ndarray
    requested: np.ndarray
    procs: np.ndarray
    priority: np.ndarray
    labels: tuple[str, ...]
    bounds: np.ndarray
    processors: int
    dropped: dict[str, int] = field(default_factory=dict)
    adjusted: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.submit.size)

    def part(self, k: int) -> slice:
        """The index range of part ``k`` (a month, or the whole trace)."""
        return slice(int(self.bounds[k]), int(self.bounds[k + 1]))


def prepare(trace: Trace, *, processors: int = 128, overrun: str = "kill",
            split: str = "none", priority_every: int = 0,
            priority_gap: float = 2.0, quota_every: int = 0,
            load: float | None = None, submit_jitter: int = 0,
            rng: np.random.Generator | None = None) -> RigidJobs:
    """Turn an SWF trace into simulation-ready rigid jobs (docs/model-notes.md §2).

    ``processors`` is the simulated machine (the paper used 128 for KTH, whose
    real machine had 100); ``overrun``, ``split``, ``priority_every``,
    ``priority_gap``, ``quota_every``, ``load`` and ``submit_jitter`` (drawn with
    ``rng``) as in the module docstring. Raises ``ValueError`` naming the bad option.
    """
    if processors < 1:
        raise ValueError(f"system.processors must be a positive integer, got {processors}")
    if overrun not in OVERRUN:
        raise ValueError(f"workload.overrun must be one of {', '.join(OVERRUN)}, got {overrun!r}")
    if split not in SPLIT:
        raise ValueError(f"workload.split must be one of {', '.join(SPLIT)}, got {split!r}")
    if load is not None and not load > 0:
        raise ValueError(f"load must be > 0 to rescale a trace, got {load}")
    for name, every in (("priority_every", priority_every), ("quota_every", quota_every)):
        if every < 0:
            raise ValueError(f"workload.{name} must be >= 0, got {every}")
    if not np.isfinite(priority_gap):  # NaN is the slack code's marker of a job without priority
        raise ValueError(f"workload.priority_gap must be a finite number, got {priority_gap}")
    if submit_jitter < 0 or submit_jitter != int(submit_jitter):
        raise ValueError(f"workload.submit_jitter must be a whole number of seconds >= 0, "
                         f"got {submit_jitter!r}")
    if submit_jitter and rng is None:
        raise ValueError("workload.submit_jitter needs a random generator (rng)")

    procs = np.asarray(trace.requested_procs, dtype=np.int64)
    allocated = np.asarray(trace.allocated_procs, dtype=np.int64)
    procs = np.where(procs > 0, procs, allocated)
    submit = np.asarray(trace.submit, dtype=np.float64)
    run = np.asarray(trace.run_time, dtype=np.float64)
    req = np.asarray(trace.requested_time, dtype=np.float64)

    reasons = {
        "unknown_submit": submit < 0,
        "unknown_runtime": run < 0,
        "no_processors": procs <= 0,
        "too_many_processors": procs > processors,
    }
    keep = np.ones(submit.size, dtype=bool)
    dropped = {}
    for reason, bad in reasons.items():  # each job counted once, under its first reason
        dropped[reason] = int(np.count_nonzero(bad & keep))
        keep &= ~bad

    if not keep.any():
        kept = ", ".join(f"{n} {reason.replace('_', ' ')}" for reason, n in dropped.items() if n)
        raise ValueError(f"workload.path: the trace has no job to run on {processors} processors"
                         + (f" (dropped: {kept})" if kept else " (it holds no jobs)"))
    order = np.flatnonzero(keep)
    order = order[np.argsort(submit[order], kind="stable")]  # trace order among equal submits
    submit, run, req, procs = submit[order], run[order], req[order], procs[order]

    adjusted = {"zero_runtime": int(np.count_nonzero(run == 0))}
    run = np.maximum(run, 1.0)
    no_estimate = req <= 0
    adjusted["estimate_from_runtime"] = int(np.count_nonzero(no_estimate))
    req = np.where(no_estimate, run, req)
    over = run > req
    adjusted[f"overrun_{overrun}"] = int(np.count_nonzero(over))
    if overrun == "kill":
        run = np.minimum(run, req)
    else:
        req = np.maximum(req, run)

    if split == "month":
        labels, bounds = _month_parts(trace.header, trace.unix_start_time, submit)
    else:
        labels, bounds = ("all",), np.array([0, submit.size], dtype=np.int64)

    if load is not None:
        submit = submit.copy()
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            submit[a:b] = submit[a] + offsets_at_load(submit[a:b], run[a:b], procs[a:b], processors, load)

    priority = np.zeros(submit.size)
    for every, value in ((priority_every, priority_gap), (quota_every, -np.inf)):
        if every > 0:
            for a, b in zip(bounds[:-1], bounds[1:], strict=True):
                priority[a + every - 1:b:every] = value

    job_number = np.asarray(trace.job_number, dtype=np.int64)[order]
    if submit_jitter:
        submit = np.maximum(submit + rng.integers(-submit_jitter, submit_jitter + 1, submit.size), 0.0)
        moved = np.concatenate([a + np.argsort(submit[a:b], kind="stable")
                                for a, b in zip(bounds[:-1], bounds[1:], strict=True)])
        submit, run, req, procs = submit[moved], run[moved], req[moved], procs[moved]
        priority, job_number = priority[moved], job_number[moved]

    return RigidJobs(
        job_number=job_number, submit=submit,
        run=run, requested=req, procs=procs, priority=priority, labels=labels,
        bounds=bounds, processors=int(processors), dropped=dropped, adjusted=adjusted)


def offered_load(submit: np.ndarray, run: np.ndarray, procs: np.ndarray,
                 processors: int) -> float:
    """``Σ procs·run / (processors · span)``, span = first to last submission (``inf`` if 0)."""
    span = float(submit[-1] - submit[0]) if submit.size else 0.0
    work = float((procs * run).sum())
    return work / (processors * span) if span > 0 else np.inf


def offsets_at_load(submit: np.ndarray, run: np.ndarray, procs: np.ndarray, processors: int,
                    load: float) -> np.ndarray:
    """Each submission's time after the first, every gap multiplied by ``ρ_trace / load``
    (:func:`offered_load`), so that the jobs' offered load is ``load`` (module docstring); as they are
    when the submissions have no span. The salad family places its trace arrivals with it too."""
    rho = offered_load(submit, run, procs, processors)
    offsets = submit - submit[0]
    return offsets * (rho / load) if np.isfinite(rho) else offsets


def _timezone(header: dict[str, str]) -> dt.tzinfo:
    """The log's local time zone: ``TimeZoneString``, else the ``TimeZone`` offset, else UTC."""
    if header.get("TimeZoneString"):
        return ZoneInfo(header["TimeZoneString"].strip())
    if header.get("TimeZone"):
        return dt.timezone(dt.timedelta(seconds=int(header["TimeZone"])))
    return dt.UTC


def _month_parts(header: dict[str, str], unix_start: int | None,
                 submit: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """Labels ("1996-09", ...) and index bounds of the submit months present.

    Month boundaries are computed once as local midnights of each month's first
    day (a dozen datetimes), then every job is placed with one ``searchsorted``.
    """
    if unix_start is None:
        raise ValueError("workload.split=month needs the trace's UnixStartTime header")
    if submit.size == 0:
        return (), np.zeros(1, dtype=np.int64)
    tz = _timezone(header)
    unix_start = int(unix_start)
    first = dt.datetime.fromtimestamp(unix_start + submit[0], tz)
    last = dt.datetime.fromtimestamp(unix_start + submit[-1], tz)
    year, month = first.year, first.month
    labels, edges = [], []
    while (year, month) <= (last.year, last.month):
        labels.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        edges.append(dt.datetime(year, month, 1, tzinfo=tz).timestamp() - unix_start)
    bounds = np.concatenate(([0], np.searchsorted(submit, edges, side="left")))
    present = np.diff(bounds) > 0
    starts = bounds[:-1][present]
    return (tuple(np.array(labels)[present].tolist()),
            np.append(starts, submit.size).astype(np.int64))
