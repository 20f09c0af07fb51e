"""Tasks, records and the actor that turns one into the other (docs/design.md §3 step 3–4).

A task is one replication of one grid point. :class:`SimulationActor` runs
batches of tasks; the Ray backend wraps it as a remote actor (warm: compiled
kernels and loaded traces stay in its process), the serial backend calls it
in-process. Work per task is deterministic and side-effect free, so a retried
task returns the same record.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.engine.seeding import replication_rng
from sweep.families import Point, Result, family_of


@dataclass(frozen=True)
class Task:
    """Replication ``replication`` of grid point ``index`` (of sweep ``sweep`` when several
    sweeps share one pool, :func:`sweep.engine.runner.run_many`)."""

    index: int
    replication: int
    point: Point
    stream: tuple[int, ...]
    seed: int
    sweep: int = 0

    @property
    def key(self) -> tuple[int, int]:
        return (self.index, self.replication)


@dataclass
class Record:
    """What comes back from a task: small, picklable, enough to fill the Dataset.

    ``seconds`` is the time the task took in its worker (not reproducible: for
    reports of where compute went, never stored in the Dataset).
    """

    index: int
    replication: int
    summary: dict[str, Any]
    jobs: dict[str, np.ndarray] | None
    work: int
    attrs: dict[str, Any] = field(default_factory=dict)
    sweep: int = 0
    seconds: float = 0.0

    @property
    def key(self) -> tuple[int, int]:
        return (self.index, self.replication)


def run_task(task: Task) -> Record:
    """Run one task: the family's simulation, or its analytic model (``model=analytic``)."""
    started = time.perf_counter()
    family = family_of(task.point.policy["name"])
    if task.point.model == "analytic":
        result = family.analytic(task.point) if family.analytic else None
        result = result or Result(summary={})  # no closed form: the variables stay NaN
    else:
        result = family.simulate(task.point, replication_rng(task.seed, task.stream, task.replication))
    return Record(task.index, task.replication, result.summary, result.jobs, result.work,
                  dict(result.attrs), task.sweep, time.perf_counter() - started)


class TaskFailed(RuntimeError):
    """A task raised; the message names the point and the original error in one line."""


def _describe(task: Task) -> str:
    point = task.point
    return (f"policy={point.policy.get('name')}, workload={point.workload.get('name')}, "
            f"load={point.load}, replication={task.replication}")


class SimulationActor:
    """Runs batches of tasks. One instance per worker process (or one in-process)."""

    def run_batch(self, tasks: Sequence[Task]) -> list[Record]:
        records = []
        for task in tasks:
            try:
                records.append(run_task(task))
            except Exception as error:
                raise TaskFailed(f"{_describe(task)}: {type(error).__name__}: {error}") from error
        return records
