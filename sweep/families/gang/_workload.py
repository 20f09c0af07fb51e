"""Jobs of the gang family: the Jann et al. (1997) model, reconstructed, or an SWF trace.

A job is ``(arrival s, width tasks, work s, class)``: ``width`` tasks, each
with ``work`` seconds of computation (the run time of the model or the log),
and a class fixing how its tasks behave (compute, I/O, sync; ``_core``).

``kind: jann`` — the workload model of Jann, Pattnaik, Franke, Wang, Skovira
& Riordan (1997), "Modeling of workload in MPPs", fitted to the CTC SP2 log:
jobs fall into size ranges 1, 2, 3–4, 5–8, ..., 65–128, each with its own
service time distribution (Hyper-Erlang of common order in the paper). Their
fitted parameters are not reproduced here, so this is a **reconstruction**,
fitted by :func:`fit_ranges` to the CTC SP2 log shipped in ``data/traces/``
(jobs of at most 128 processors, as the 128-PE machine of CSSE00 §3.3):
per range, the fraction of jobs, the fraction at the range's power of two
(the others uniform in the range), and the mean and squared coefficient of
variation of the run time, matched by a two-phase hyperexponential with
balanced means (:data:`CTC_RANGES`), capped at ``runtime_cap``. Arrivals are
one renewal stream (exponential, or hyperexponential with
``interarrival_scv`` > 1) whose rate makes the offered load
``λ·E[width·work] / P`` equal the grid's ``load``; ``initial_jobs`` more jobs
(drawn alike) are present at time 0, so that the machine starts loaded
(a reconstruction: the paper's idle times at 5,000 s need a machine already
multiprogrammed).

``kind: swf`` — an SWF log (``path``; or a trace of another format an
installed reader claims by its suffix, :mod:`sweep.workloads.traces`): arrival = submit time from the first
job of the window (``start`` seconds into the log), width = requested
processors (allocated when not given), work = run time (0 raised to 1 s).
Jobs wider than the machine are dropped and *counted* (``too_wide``), as are
jobs without a processor count or run time (``unknown``); ``load`` is not
used: the log's own arrivals are replayed.

In both, each job's class is drawn from ``mix`` (fractions of compute, io and
sync jobs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.families import check_params, param
from sweep.families.gang._core import CLASS_NAMES
from sweep.workloads.named import resolve_trace_path
from sweep.workloads.swf import SWFError, SWFFileNotFoundError, SWFTrace
from sweep.workloads.traces import read_trace

KINDS = ("jann", "gang_swf")
#: Size ranges of Jann et al. (1997) up to 128 processors: (low, high).
RANGES = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64), (65, 128))
#: Fitted by :func:`fit_ranges` to CTC-SP2-1996-3.1-cln (jobs of 1..128 processors, known
#: run time): per range, fraction of jobs, fraction at the power of two, mean run time (s), SCV.
CTC_RANGES = (
    (0.4220, 1.000, 15734.0, 1.63),
    (0.0719, 1.000, 10329.0, 4.05),
    (0.1211, 0.894, 7378.0, 4.70),
    (0.1146, 0.673, 4653.0, 6.39),
    (0.1294, 0.557, 8571.0, 3.43),
    (0.0836, 0.550, 9340.0, 2.84),
    (0.0440, 0.554, 9344.0, 2.75),
    (0.0134, 0.637, 14612.0, 2.19),
)


@dataclass(frozen=True)
class GangJobs:
    """Jobs as columns in arrival order (seconds), with the trace drops by reason."""

    arrival: np.ndarray
    width: np.ndarray
    work: np.ndarray
    cls: np.ndarray
    dropped: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.arrival.size)


def fit_ranges(procs: np.ndarray, run: np.ndarray) -> tuple[tuple[float, float, float, float], ...]:
    """Per :data:`RANGES`: (fraction of jobs, fraction at the power of two, mean run, SCV)."""
    keep = (procs >= 1) & (procs <= RANGES[-1][1]) & (run > 0)
    procs, run = procs[keep], run[keep]
    rows = []
    for low, high in RANGES:
        inside = (procs >= low) & (procs <= high)
        x = run[inside]
        rows.append((float(inside.mean()), float((procs[inside] == high).mean()),
                     float(x.mean()), float(x.var() / x.mean() ** 2)))
    return tuple(rows)


def _h2(mean: float, scv: float) -> tuple[float, float, float]:
    """Balanced-means two-phase hyperexponential: (p, rate 1, rate 2); exponential when scv <= 1."""
    if scv <= 1.0:
        return 1.0, 1.0 / mean, 1.0 / mean
    p = 0.5 * (1.0 + np.sqrt((scv - 1.0) / (scv + 1.0)))
    return p, 2.0 * p / mean, 2.0 * (1.0 - p) / mean


def _draw_h2(rng: np.random.Generator, mean: float, scv: float, count: int) -> np.ndarray:
    p, r1, r2 = _h2(mean, scv)
    rate = np.where(rng.random(count) < p, r1, r2)
    return rng.exponential(1.0, count) / rate


def _capped_mean(mean: float, scv: float, cap: float) -> float:
    """E[min(X, cap)] of the hyperexponential of ``mean`` and ``scv``."""
    p, r1, r2 = _h2(mean, scv)
    return p * (1 - np.exp(-r1 * cap)) / r1 + (1 - p) * (1 - np.exp(-r2 * cap)) / r2


def _mean_width(low: int, high: int, at_top: float) -> float:
    rest = (low + high - 1) / 2.0 if high > low else float(high)
    return at_top * high + (1.0 - at_top) * rest


def mean_job_work(cap: float, table: tuple = CTC_RANGES) -> float:
    """E[width · work] (processor-seconds) of the reconstructed model, run times capped."""
    weights = np.array([row[0] for row in table])
    weights = weights / weights.sum()
    return float(sum(w * _mean_width(lo, hi, row[1]) * _capped_mean(row[2], row[3], cap)
                     for w, (lo, hi), row in zip(weights, RANGES, table, strict=True)))


def draw_classes(rng: np.random.Generator, mix: Mapping[str, float], count: int) -> np.ndarray:
    """Each of ``count`` jobs' class (an index of ``CLASS_NAMES``), drawn with the fractions of ``mix``
    (the salad family draws its jobs' classes with it too)."""
    weights = np.array([float(mix.get(name, 0.0)) for name in CLASS_NAMES])
    return rng.choice(len(CLASS_NAMES), size=count, p=weights / weights.sum()).astype(np.int64)


def jann_jobs(workload: Mapping[str, Any], processors: int, load: float, horizon: float,
              rng: np.random.Generator) -> GangJobs:
    """The reconstructed Jann et al. workload up to ``horizon`` (module docstring)."""
    rng_arrival, rng_size, rng_class = rng.spawn(3)
    cap = float(workload.get("runtime_cap", 72000.0))
    mean_gap = mean_job_work(cap) / (load * processors)
    scv = float(workload.get("interarrival_scv", 1.0))
    arrival = np.empty(0)
    while arrival.size == 0 or arrival[-1] < horizon:  # draw in blocks until past the horizon
        block = np.cumsum(_draw_h2(rng_arrival, mean_gap, scv, 256))
        arrival = np.concatenate([arrival, block + (arrival[-1] if arrival.size else 0.0)])
    initial = int(workload.get("initial_jobs", 0))
    arrival = np.concatenate([np.zeros(initial), arrival[arrival < horizon]])
    count = arrival.size
    weights = np.array([row[0] for row in CTC_RANGES])
    k = rng_size.choice(len(RANGES), size=count, p=weights / weights.sum())
    low = np.array([r[0] for r in RANGES])[k]
    high = np.array([r[1] for r in RANGES])[k]
    at_top = rng_size.random(count) < np.array([row[1] for row in CTC_RANGES])[k]
    inner = low + np.floor(rng_size.random(count) * np.maximum(high - low, 1)).astype(np.int64)
    width = np.where(at_top | (high == low), high, inner).astype(np.int64)
    work = np.empty(count)
    for i, row in enumerate(CTC_RANGES):
        chosen = k == i
        work[chosen] = _draw_h2(rng_size, row[2], row[3], int(chosen.sum()))
    work = np.clip(work, 1.0, cap)
    return GangJobs(arrival, width, work, draw_classes(rng_class, workload.get("mix", {}), count))


def trace_of(path: Any, option: str) -> SWFTrace:
    """The trace a config option names (:func:`~sweep.workloads.traces.read_trace`, which any
    installed reader extends); one-line ``ValueError`` naming ``option`` for a missing or bad file."""
    resolved = resolve_trace_path(str(path or ""))
    try:
        return read_trace(resolved)
    except SWFFileNotFoundError:
        raise ValueError(f"{option}: no such trace file: {resolved}") from None
    except SWFError as error:
        raise ValueError(f"{option}: malformed trace: {error}") from None


def swf_jobs(workload: Mapping[str, Any], processors: int, horizon: float,
             rng: np.random.Generator) -> GangJobs:
    """The log's jobs submitted within ``horizon`` s of ``start`` (module docstring)."""
    trace = trace_of(workload.get("path"), "workload.path")
    procs = np.where(trace.requested_procs > 0, trace.requested_procs, trace.allocated_procs)
    submit, run = np.asarray(trace.submit, float), np.asarray(trace.run_time, float)
    unknown = (procs <= 0) | (run < 0) | (submit < 0)
    origin = float(submit[~unknown].min()) + float(workload.get("start", 0.0))
    window = (submit >= origin) & (submit < origin + horizon)
    too_wide = window & ~unknown & (procs > processors)
    keep = window & ~unknown & ~too_wide
    order = np.flatnonzero(keep)[np.argsort(submit[keep], kind="stable")]
    dropped = {"too_wide": int(too_wide.sum()), "unknown": int((window & unknown).sum())}
    return GangJobs(submit[order] - origin, procs[order].astype(np.int64),
                    np.maximum(run[order], 1.0), draw_classes(rng, workload.get("mix", {}), order.size),
                    dropped)


def _default_mix() -> dict[str, float]:
    return {"compute": 1.0 / 3, "io": 1.0 / 3, "sync": 1.0 / 3}


@dataclass(frozen=True, kw_only=True)
class TaskBehaviour:
    """What every gang workload says of its tasks' behaviour (module docstring): its config schema."""

    mix: Mapping[str, float] = field(default_factory=_default_mix)
    io_burst: float = param(0.2, gt=0, unit="seconds", doc="RECONSTRUCTED: mean compute burst of io tasks")
    io_wait: float = param(0.5, gt=0, unit="seconds", doc="RECONSTRUCTED: mean I/O wait of io tasks")
    sync_phase: float = param(3.0, gt=0, unit="seconds", doc="RECONSTRUCTED: mean work between barriers")
    sync_imbalance: float = param(0.5, ge=0, le=1, doc="RECONSTRUCTED: spread of the phases")


@dataclass(frozen=True, kw_only=True)
class JannWorkload(TaskBehaviour):
    """``kind: jann``: jobs after Jann et al. (1997), fitted to the CTC log (RECONSTRUCTED)."""

    interarrival_scv: float = param(1.0, ge=1, doc="1: Poisson arrivals")
    runtime_cap: float = param(72000.0, gt=0, unit="seconds")
    initial_jobs: int = param(0, ge=0, doc="RECONSTRUCTED: jobs present at time 0")


@dataclass(frozen=True, kw_only=True)
class TraceWorkload(TaskBehaviour):
    """``kind: gang_swf``: job sizes and run times replayed from an SWF log."""

    path: str
    start: float = param(0.0, ge=0, unit="seconds", doc="where the replayed window starts in the log")


#: The gang family's workload kinds and their options (the config schemas).
WORKLOADS = {"jann": JannWorkload, "gang_swf": TraceWorkload}


def load_applied(point: Any) -> bool:
    """``load`` sets the arrival rate of the Jann et al. model; a trace's arrivals are replayed."""
    return point.workload.get("kind") != "gang_swf"


def check_mix(mix: Any) -> None:
    """One-line ``ValueError`` unless ``mix`` maps some of the classes to fractions >= 0, sum > 0."""
    if not isinstance(mix, Mapping) or set(mix) - set(CLASS_NAMES) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in mix.values()) \
            or sum(mix.values()) <= 0:
        raise ValueError(f"workload.mix must map some of {', '.join(CLASS_NAMES)} to fractions >= 0 "
                         f"with a positive sum, got {mix!r}")


def check_workload(workload: Mapping[str, Any], processors: int) -> None:
    """One-line ``ValueError`` naming a bad workload option."""
    kind = workload.get("kind")
    if kind not in WORKLOADS:
        raise ValueError(f"workload.kind must be one of {', '.join(KINDS)} for the gang family, "
                         f"got {kind!r}")
    check_params(WORKLOADS[kind], workload, section="workload", owner=f"workload kind {kind!r}",
                 ignore=("name", "kind"))
    check_mix(workload.get("mix", _default_mix()))
    if kind == "jann" and RANGES[-1][1] > processors:
        raise ValueError(f"workload {workload.get('name')!r} draws jobs of up to {RANGES[-1][1]} tasks, "
                         f"wider than the machine (system.processors = {processors})")
