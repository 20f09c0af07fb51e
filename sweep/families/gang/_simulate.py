"""From a grid point to a gang-family Result (CSSE00 §3.3, Tables 5–7).

``point.system`` (``conf/system/gang128.yaml``): ``processors`` (P, 128),
``slice`` (seconds per slice), ``ticks`` (ticks per slice: the resolution at
which tasks block and resume), ``times`` (the report times, seconds, whole
numbers of slices: the ``time`` dimension; the run ends at the last),
``trace_slices`` (slices of the trace diagram to keep, 0: none) and
``trace_start`` (the time of the first of them, seconds).
``point.workload``: :mod:`sweep.families.gang._workload` (jobs) and the task
behaviour ``io_burst``, ``io_wait``, ``sync_phase`` (seconds) and
``sync_imbalance`` (``_core``). ``point.load`` scales the arrival rate of the
Jann et al. workload to that offered load; a trace's arrivals are replayed and
``load`` is not used. ``stop.jobs``/``stop.warmup`` are not used either (the
run is a fixed span of simulated time, as in the paper's tables);
``stop.max_in_system`` caps the jobs present: past it the run stops, is marked
``saturated`` and its later report times are NaN.

Measures at each report time T (the ``time`` dimension): jobs completed by T,
idle fraction (PE-time in which no task ran, over P·T: the tables' Total Idle
Time), idle ratio (the same over the periods only, i.e. while the matrix
holds a job: the Idling Ratio of §3.3.1, idle slots over the slots of the
periods), empty-slot fraction (PE-time in slots of the matrix holding no
task), jobs arrived by T, idle-slot fraction (slots, PE × slice, in which
the PE ran no task at all: §3.3.1's "no assigned task during its slot" read
on the run rather than on the matrix), tasks per PE (the matrix's occupied
slots over P, averaged over the slices: the multiprogramming level each local
scheduler draws from). Scalars at the horizon: mean
response (arrival to completion) and mean slowdown (response over work per
task) of the jobs completed, and utilisation (busy PE-time fraction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep._numba import record
from sweep.families import Point, Policy, Result, Variable, check_params, load_families, param
from sweep.families._params import kernel_fields, kernel_values
from sweep.families.gang import _core
from sweep.families.gang._policy import PACKINGS
from sweep.families.gang._workload import GangJobs, check_workload, jann_jobs, swf_jobs

#: Rows of the pool from which task bursts, waits and phases are read (a power of two; 64 KB,
#: so that its random reads stay in cache).
POOL = 1 << 12

VARIABLES = (
    Variable("jobs_completed", "1", "jobs completed by the report time", ("time",), "int64"),
    Variable("idle_fraction", "1", "fraction of PE-time with no task running, up to the report time",
             ("time",)),
    Variable("empty_slot_fraction", "1",
             "fraction of PE-time in empty matrix slots, up to the report time", ("time",)),
    Variable("idle_ratio", "1", "idle fraction of PE-time in periods, i.e. while the matrix holds "
             "a job (the Idling Ratio of CSSE00 §3.3.1), up to the report time", ("time",)),
    Variable("jobs_arrived", "1", "jobs arrived by the report time", ("time",), "int64"),
    Variable("idle_slot_fraction", "1", "fraction of slots (PE x slice) in which the PE ran no task "
             "at all (the idle slot of CSSE00 3.3.1 read on the run), up to the report time",
             ("time",)),
    Variable("tasks_per_pe", "1", "mean number of tasks in the matrix per PE (its column's "
             "occupied slots), up to the report time", ("time",)),
    Variable("mean_response", "s", "mean response time of the jobs completed by the horizon"),
    Variable("mean_slowdown", "1", "mean slowdown (response / work per task) of the jobs completed"),
    Variable("utilization", "1", "fraction of PE-time with a task running, up to the horizon"),
    Variable("too_wide", "1", "trace jobs dropped as wider than the machine", dtype="int64"),
    Variable("saturated", "1", "the jobs present passed stop.max_in_system", dtype="bool"),
    Variable("trace_job", "1", "job run by each PE in each of the first ticks (-1: idle)",
             ("trace_tick", "pe"), "int64"),
    Variable("trace_owner", "1", "job owning each PE's slot in each of the first slices (-1: empty)",
             ("trace_slice", "pe"), "int64"),
)


@dataclass(frozen=True)
class Machine:
    """The system section, checked: P, slice length, ticks per slice, report times."""

    processors: int
    slice: float
    ticks: int
    times: tuple[float, ...]
    trace_slices: int
    trace_start: float = 0.0

    @property
    def report_ticks(self) -> np.ndarray:
        """The report times in ticks."""
        return np.array([round(t / self.slice) * self.ticks for t in self.times], np.int64)

    def to_ticks(self, seconds: float) -> float:
        return seconds * self.ticks / self.slice


def draw_pool(rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` rows of (U, −log(1 − U)), U uniform: the task draws of one run (``_core``)."""
    u = rng.random(size)
    return np.column_stack([u, -np.log1p(-u)])


def _report_times() -> list[float]:
    return [5000.0, 10000.0, 20000.0, 30000.0, 40000.0]


@dataclass(frozen=True)
class GangMachine:
    """The ``system`` section of the gang family (``conf/system/gang128.yaml``): its config schema."""

    processors: int = param(128, ge=1, doc="PEs (128, as Silva & Scherson 1999 simulated)")
    slice: float = param(1.0, gt=0, unit="seconds", doc="RECONSTRUCTED: one period of the global clock")
    ticks: int = param(10, ge=1, doc="RECONSTRUCTED: ticks per slice")
    times: Any = field(default_factory=_report_times)
    trace_slices: int = param(0, ge=0, doc="slices of the trace diagram kept in the result")
    trace_start: float = param(0.0, ge=0, unit="seconds", doc="first slice of the kept trace diagram")


def _whole_slices(t: float, q: float) -> bool:
    return abs(t / q - round(t / q)) <= 1e-9 * max(1.0, t / q)


def machine_of(system: Mapping[str, Any]) -> Machine:
    """The checked system section; one-line ``ValueError`` naming the bad option."""
    m = check_params(GangMachine, system, section="system", owner="system (gang)", ignore=("name",))
    q, times = m.slice, m.times
    if not isinstance(times, list | tuple) or not times or not all(
            isinstance(t, int | float) and not isinstance(t, bool) and t > 0 for t in times) \
            or any(b <= a for a, b in zip(times[:-1], times[1:], strict=False)):
        raise ValueError(f"system.times must be increasing numbers of seconds > 0, got {times!r}")
    for t in times:
        if not _whole_slices(t, q):
            raise ValueError(f"system.times must be whole numbers of slices ({q} s), got {t}")
    if (m.trace_slices and m.trace_start >= times[-1]) or not _whole_slices(m.trace_start, q):
        raise ValueError(f"system.trace_start must be a whole number of slices in [0, {times[-1]}) s, "
                         f"got {m.trace_start!r}")
    return Machine(m.processors, q, m.ticks, tuple(float(t) for t in times), m.trace_slices,
                   m.trace_start)


def validate(point: Point) -> None:
    """Check the policy, its parameters, the machine and the workload before any run."""
    policy_values(load_families()["gang"].params(point))
    if point.model != "simulation":
        raise ValueError(f"model must be simulation for the gang family, got {point.model!r}")
    machine = machine_of(point.system)
    check_workload(point.workload, machine.processors)


def load_jobs(point: Point, rng: np.random.Generator) -> GangJobs:
    """The point's jobs up to the last report time (module docstring)."""
    machine = machine_of(point.system)
    horizon = machine.times[-1]
    if point.workload.get("kind") == "gang_swf":
        return swf_jobs(point.workload, machine.processors, horizon, rng)
    return jann_jobs(point.workload, machine.processors, float(point.load), horizon, rng)


#: The two of a policy's parameters the loop itself reads (``_core.SETTINGS``), by name, and their
#: values for a policy without them: the packing rule (CSSE00 §3.3.3) and the grades' γ (§3.3.2).
LOOP_PARAMS = {"packing": "first_fit", "smoothing": 0.5}


def policy_values(params: Any) -> dict[str, bool | int | float]:
    """The policy's own parameters as the kernel's record holds them, each by its name (a choice as
    its index in its choices); one-line ``ValueError`` for one no record can hold, or for a packing
    rule the family's loop does not have (:data:`PACKINGS`)."""
    packing = getattr(params, "packing", LOOP_PARAMS["packing"])
    if packing not in PACKINGS:
        raise ValueError(f"policy.packing must be one of {', '.join(PACKINGS)} (the packing rules of the "
                         f"gang family's loop, CSSE00 §3.3.3), got {packing!r}")
    return kernel_values(params, taken=_core.SETTINGS.names)


def kernel_settings(params: Any, workload: Mapping[str, Any], machine: Machine,
                    max_jobs: int, deterministic: bool = False) -> np.ndarray:
    """The kernel's parameters, ``par``: one record, in an array of one, of the family's fields
    (``_core.SETTINGS``) and then every other parameter of the policy's dataclass by its name."""
    own = policy_values(params)
    settings = record(np.dtype(_core.SETTINGS_FIELDS + kernel_fields(own), align=True))
    settings["io_burst"] = machine.to_ticks(float(workload.get("io_burst", 0.2)))
    settings["io_wait"] = machine.to_ticks(float(workload.get("io_wait", 0.5)))
    settings["sync_phase"] = machine.to_ticks(float(workload.get("sync_phase", 3.0)))
    settings["sync_imbalance"] = float(workload.get("sync_imbalance", 0.5))
    settings["ticks"] = machine.ticks
    settings["packing"] = PACKINGS.index(getattr(params, "packing", LOOP_PARAMS["packing"]))
    settings["smoothing"] = getattr(params, "smoothing", LOOP_PARAMS["smoothing"])
    settings["deterministic"] = int(deterministic)
    settings["max_jobs"] = max_jobs
    settings["trace_from"] = round(machine.trace_start / machine.slice)
    for name, value in own.items():
        settings[name] = value
    return settings


@dataclass
class Run:
    """What one kernel run leaves: the jobs' state (ticks), the counters, the trace."""

    jobs: _core.Jobs
    tasks: _core.Tasks
    out: np.ndarray
    rec: np.ndarray
    owner: np.ndarray
    status: int
    slices: int


def job_state(arrival: np.ndarray, width: np.ndarray, work: np.ndarray, cls: np.ndarray,
              job_of: np.ndarray, left: np.ndarray, pool: np.ndarray,
              settings: np.ndarray) -> tuple[_core.Jobs, _core.Tasks]:
    """The jobs' and tasks' state at tick 0: jobs of ``width`` live tasks, ``work`` ticks a task and
    class ``cls``; task ``x`` of job ``job_of[x]`` with ``left[x]`` ticks of work, in its first
    burst or phase (``_core``)."""
    n = len(width)
    jobs = _core.Jobs(arrival=np.asarray(arrival, np.int64), width=width, work=np.asarray(work, np.int64),
                      cls=np.asarray(cls, np.int64), first=(np.cumsum(width) - width).astype(np.int64),
                      alive=width.copy(), waiting=np.zeros(n, np.int64), gen=np.zeros(n, np.int64),
                      release=np.zeros(n, np.int64), start=np.full(n, -1, np.int64),
                      end=np.full(n, -1, np.int64), last=np.zeros(n, np.int64),
                      opened=np.zeros(1, np.int64))
    left = np.asarray(left, np.int64)
    seg = np.empty(len(job_of), np.int64)
    _core.first_segments(jobs.cls, np.asarray(job_of, np.int64), left, pool, settings[0], seg)
    return jobs, _core.new_tasks(job_of, left.copy(), seg)


def run_kernel(policy: str | Policy, params: Any, arrival: np.ndarray, width: np.ndarray, work: np.ndarray,
               cls: np.ndarray, settings: np.ndarray, report: np.ndarray,
               processors: int, pool: np.ndarray, trace_ticks: int = 0) -> Run:
    """Run the policy's kernel (a registered one's name, or a :class:`~sweep.families.Policy`) on jobs
    given in ticks (arrival order); the hand-worked tests use it."""
    n = arrival.size
    width = np.asarray(width, np.int64)
    if n and width.max() > processors:
        raise ValueError(f"a job of {width.max()} tasks is wider than the machine ({processors} PEs)")
    job_of = np.repeat(np.arange(n, dtype=np.int64), width)
    jobs, tasks = job_state(arrival, width, work, cls, job_of, np.repeat(np.asarray(work, np.int64), width),
                            pool, settings)
    mach = _core.new_machine(processors, max(n, 1))
    out = record(_core.REPORT, report.size)
    for name in _core.REPORT.names:
        out[name] = -1
    ticks, trace_from = int(settings["ticks"][0]), int(settings["trace_from"][0])
    rec = np.full((max(0, min(trace_ticks, int(report[-1]) - trace_from * ticks)),
                   processors), -1, np.int64)
    owner = np.full((rec.shape[0] // ticks, processors), -1, np.int64)
    if isinstance(policy, str):
        policy = load_families()["gang"].policies[policy]
    kernel = policy.hooks.kernel
    slices = kernel(jobs, tasks, mach, pool, settings, report, out, rec, owner,
                    np.zeros(max(n, 1), np.int64))
    return Run(jobs, tasks, out, rec, owner, int(mach.outcome["status"][0]), int(slices))


def _job_of_task(run: Run, trace: np.ndarray) -> np.ndarray:
    job_of = np.repeat(np.arange(run.jobs.width.size), run.jobs.width)
    if job_of.size == 0:
        return np.full(trace.shape, -1, np.int64)
    return np.where(trace >= 0, job_of[np.maximum(trace, 0)], -1)


def summarize(run: Run, jobs: GangJobs, machine: Machine) -> dict[str, Any]:
    """The declared summary variables (module docstring)."""
    report = machine.report_ticks
    P = machine.processors
    written = run.out["idle"] >= 0
    pe_ticks = (report * P).astype(float)
    pe_slices = pe_ticks / machine.ticks
    end = run.jobs.end
    done_by = np.array([np.count_nonzero((end >= 0) & (end <= r)) for r in report], np.int64)
    arrived = np.array([np.count_nonzero(run.jobs.arrival <= r) for r in report], np.int64)
    done = end >= 0
    response = (end[done] - run.jobs.arrival[done]) * machine.slice / machine.ticks
    summary: dict[str, Any] = {
        "jobs_completed": done_by,
        "idle_fraction": np.where(written, run.out["idle"] / pe_ticks, np.nan),
        "empty_slot_fraction": np.where(written, run.out["empty"] / pe_ticks, np.nan),
        "idle_ratio": np.where(written & (run.out["held"] > 0),
                               run.out["held_idle"] / np.maximum(run.out["held"], 1),
                               np.nan),
        "jobs_arrived": arrived,
        "idle_slot_fraction": np.where(written, run.out["idle_slots"] / pe_slices, np.nan),
        "tasks_per_pe": np.where(written, run.out["task_slices"] / pe_slices, np.nan),
        "mean_response": float(response.mean()) if done.any() else np.nan,
        "mean_slowdown": float((response / jobs.work[done]).mean()) if done.any() else np.nan,
        "utilization": float(run.out["busy"][-1] / pe_ticks[-1]) if written[-1] else np.nan,
        "too_wide": int(jobs.dropped.get("too_wide", 0)),
        "saturated": run.status == _core.OVER_CAP,
    }
    if machine.trace_slices:
        summary["trace_job"] = _job_of_task(run, run.rec)
        summary["trace_owner"] = _job_of_task(run, run.owner)
    return summary


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication: jobs and the pool of uniforms from ``rng``, then the policy's kernel."""
    machine = machine_of(point.system)
    rng_jobs, rng_pool = rng.spawn(2)
    jobs = load_jobs(point, rng_jobs)
    pool = draw_pool(rng_pool, POOL)
    params = load_families()["gang"].params(point)
    settings = kernel_settings(params, point.workload, machine, int(point.stop.max_in_system))
    arrival = np.ceil(np.round(machine.to_ticks(jobs.arrival), 6)).astype(np.int64)
    work = np.ceil(np.round(machine.to_ticks(jobs.work), 6)).astype(np.int64)
    run = run_kernel(point.policy["name"], params, arrival, jobs.width, work, jobs.cls, settings,
                     machine.report_ticks, machine.processors, pool,
                     machine.trace_slices * machine.ticks)
    recorded = None
    if point.record_jobs:
        tick = machine.slice / machine.ticks
        recorded = {"arrival": jobs.arrival, "width": jobs.width.astype(float), "work": jobs.work,
                    "job_class": jobs.cls.astype(float),
                    "start": np.where(run.jobs.start >= 0, run.jobs.start * tick, np.nan),
                    "end": np.where(run.jobs.end >= 0, run.jobs.end * tick, np.nan)}
    attrs: dict[str, str | int | float] = {f"trace_dropped_{k}": v for k, v in jobs.dropped.items()}
    return Result(summary=summarize(run, jobs, machine), jobs=recorded, work=len(jobs), attrs=attrs)


def time_labels(point: Point) -> np.ndarray:
    """The ``time`` coordinate: the report times in seconds."""
    return np.array(machine_of(point.system).times)


def pe_labels(point: Point) -> np.ndarray:
    return np.arange(machine_of(point.system).processors)


def tick_labels(point: Point) -> np.ndarray:
    machine = machine_of(point.system)
    ticks = np.arange(machine.trace_slices * machine.ticks)
    return machine.trace_start + ticks * machine.slice / machine.ticks


def slice_labels(point: Point) -> np.ndarray:
    machine = machine_of(point.system)
    return machine.trace_start + np.arange(machine.trace_slices) * machine.slice
