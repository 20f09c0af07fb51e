"""Tasks, records and the actor that turns one into the other (docs/design.md §3 step 3–4).

A task is one replication of one grid point. The tasks of a sweep are a
:class:`TaskList`: the grid and the numbers of the tasks still to run, each
task made when it is needed (a slice of it is a batch, small to send whatever
the grid's size). :class:`SimulationActor` runs batches of tasks into one
columnar :class:`~sweep.engine.records.RecordBatch`; the Ray backend wraps it
as a remote actor (warm: compiled kernels and loaded traces stay in its process), the serial backend calls it
in-process. Work per task is deterministic and side-effect free, so a retried
task returns the same record.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

import numpy as np

from sweep.config.seeding import replication_rng
from sweep.engine.records import Record, RecordBatch
from sweep.errors import TaskFailed
from sweep.families import Point, Result, family_of

if TYPE_CHECKING:
    from sweep.config.grid import Grid


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
    first_replication: int = 0

    @property
    def stream_replication(self) -> int:
        """The replication index the random stream is keyed by: ``first_replication + replication``
        (a later round of replications continues the earlier ones' streams, docs/design.md §4)."""
        return self.first_replication + self.replication

    @property
    def key(self) -> tuple[int, int]:
        return (self.index, self.replication)


class TaskList(Sequence[Task]):
    """Tasks of a grid by number (``index * replications + replication``), made when asked for.

    ``numbers`` are the tasks' numbers in the order they run. A task may be
    replaced by assignment (``tasks[0] = other``); a slice is a :class:`TaskList`
    of the same grid, so a batch sent to a worker is the grid's description and
    an array of numbers, not a pickled Point per task.
    """

    def __init__(self, grid: Grid, replications: int, seed: int, numbers: np.ndarray, sweep: int = 0,
                 replaced: Mapping[int, Task] | None = None, first_replication: int = 0) -> None:
        self.grid, self.replications, self.seed, self.sweep = grid, int(replications), int(seed), sweep
        self.first_replication = int(first_replication)
        self.numbers = np.asarray(numbers, dtype=np.int64)
        self._replaced = dict(replaced or {})

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, item: int) -> Task: ...
    @overload
    def __getitem__(self, item: slice) -> TaskList: ...
    def __getitem__(self, item: int | slice) -> Task | TaskList:
        if isinstance(item, slice):
            numbers = self.numbers[item]
            kept = set(numbers.tolist()) if self._replaced else set()
            replaced = {n: t for n, t in self._replaced.items() if n in kept}
            return TaskList(self.grid, self.replications, self.seed, numbers, self.sweep, replaced,
                            self.first_replication)
        return self._task(int(self.numbers[item]))

    def __setitem__(self, item: int, task: Task) -> None:
        self._replaced[int(self.numbers[item])] = task

    def __iter__(self) -> Iterator[Task]:
        last_index, grid_point = -1, None
        for number in self.numbers.tolist():
            if number in self._replaced:
                yield self._task(number)
                continue
            index, replication = divmod(number, self.replications)
            if index != last_index:
                last_index, grid_point = index, self.grid.point(index)
            yield Task(index, replication, grid_point.point, grid_point.stream, self.seed, self.sweep,
                       self.first_replication)

    def _task(self, number: int) -> Task:
        if number in self._replaced:
            task = self._replaced[number]
            return task if task.sweep == self.sweep else dataclasses.replace(task, sweep=self.sweep)
        index, replication = divmod(number, self.replications)
        grid_point = self.grid.point(index)
        return Task(index, replication, grid_point.point, grid_point.stream, self.seed, self.sweep,
                    self.first_replication)

    def with_sweep(self, sweep: int) -> TaskList:
        """The same tasks, labelled as sweep ``sweep``'s (:func:`sweep.engine.runner.run_many`)."""
        return TaskList(self.grid, self.replications, self.seed, self.numbers, sweep, self._replaced,
                        self.first_replication)


def run_task(task: Task) -> Record:
    """Run one task: the family's simulation, or its analytic model (``model=analytic``)."""
    started = time.perf_counter()
    family = family_of(task.point.policy["name"])
    if task.point.model == "analytic":
        result = family.analytic(task.point) if family.analytic else None
        result = result or Result(summary={})  # no closed form: the variables stay NaN
    else:
        result = family.simulate(task.point, replication_rng(task.seed, task.stream, task.stream_replication))
    return Record(task.index, task.replication, result.summary, result.jobs, result.work,
                  dict(result.attrs), task.sweep, time.perf_counter() - started)


def _describe(task: Task) -> str:
    point = task.point
    return (f"policy={point.policy.get('name')}, workload={point.workload.get('name')}, "
            f"load={point.load}, replication={task.stream_replication}")


class SimulationActor:
    """Runs batches of tasks. One instance per worker process (or one in-process)."""

    def run_batch(self, tasks: Sequence[Task]) -> RecordBatch:
        records = []
        for task in tasks:
            try:
                records.append(run_task(task))
            except Exception as error:
                raise TaskFailed(f"{_describe(task)}: {type(error).__name__}: {error}") from error
        return RecordBatch.from_records(records)


def batches(tasks: Sequence[Task], size: int | Mapping[int, int]) -> Iterator[Sequence[Task]]:
    """The tasks in consecutive slices of ``size`` (a :class:`TaskList` slice stays a list of numbers);
    given a size per sweep (``{task.sweep: size}``, the tasks of a sweep together), each slice holds
    tasks of one sweep only, at most that sweep's size."""
    if isinstance(size, int):
        for start in range(0, len(tasks), size):
            yield tasks[start : start + size]
        return
    start = 0
    while start < len(tasks):
        sweep = tasks[start].sweep
        end, limit = start + 1, min(len(tasks), start + size[sweep])
        while end < limit and tasks[end].sweep == sweep:
            end += 1
        yield tasks[start:end]
        start = end


def kernels_first(tasks: Sequence[Task], size: int | Mapping[int, int]) -> Iterator[Sequence[Task]]:
    """The batches of ``tasks``: first each policy's first task alone, then the rest in their order,
    in consecutive slices of at most ``size`` (:func:`batches`). Every task comes exactly once.

    A worker that misses numba's on-disk cache compiles the kernel while the
    node's other workers that need it wait for the compile lock
    (:mod:`sweep._numba`), and a kernel can take tens of seconds to compile.
    In plain order the first batches of a sweep are all one policy's: one
    worker compiles and the others wait. Sent first, one task per policy, the
    compilations run side by side on as many workers, each ends with its one
    task, and the node's cache is warm before the bulk arrives. With a warm
    cache the order costs nothing: the work and the records are the same
    (each task's random stream is its own), only their order differs.
    """
    first_of_policy: dict[str, int] = {}
    for position, task in enumerate(tasks):
        first_of_policy.setdefault(task.point.policy["name"], position)
    if len(first_of_policy) < 2:
        yield from batches(tasks, size)
        return
    firsts = sorted(first_of_policy.values())
    for position in firsts:
        yield tasks[position : position + 1]
    for start, end in itertools.pairwise([-1, *firsts, len(tasks)]):
        yield from batches(tasks[start + 1 : end], size)


#: Tasks per batch at most: simulations (seconds each, balanced over the workers by small
#: batches) and closed forms (microseconds each, where a batch's own cost must be shared by many).
MAX_BATCH = {"simulation": 64, "analytic": 4096}


def batch_size(tasks: int, workers: int, requested: int | None, analytic: bool = False) -> int:
    """Enough batches of ``tasks`` to keep every worker busy (about 8 each), at most :data:`MAX_BATCH`
    tasks a batch. A run of several sweeps sizes each sweep's batches by its own tasks
    (:func:`batches`): sized by the run's, the 40 long precision-driven tasks of a CV96 preset were one
    batch beside SH00's thousands of short ones, and one worker ran the whole preset."""
    largest = MAX_BATCH["analytic" if analytic else "simulation"]
    return requested or max(1, min(largest, math.ceil(tasks / (8 * workers))))
