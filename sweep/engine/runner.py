"""The sweep from a composed config to a Dataset on disk (docs/design.md §3).

compose -> validate -> expand grid -> tasks -> backend -> records (checkpointed)
-> Dataset (one step) -> netCDF (atomic).
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import platform
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr
from omegaconf import DictConfig, OmegaConf

from sweep._numba import is_cached
from sweep._version import __version__
from sweep.config.compose import ConfigError, compose, plain, validate_settings
from sweep.config.grid import Grid, axes_of, expand
from sweep.engine.adaptive import run_saturation
from sweep.engine.backends import PluginPart, choose_backend, make_backend
from sweep.engine.checkpoint import Checkpoint
from sweep.engine.dataset import ResultArrays, write_atomic
from sweep.engine.output import OutputLock, claim_output, lock_path
from sweep.engine.progress import Progress
from sweep.engine.records import RecordBatch
from sweep.engine.summary import grid_table, point_table, summary_line
from sweep.engine.tasks import Task, TaskList, batch_size, batches, kernels_first
from sweep.errors import WriteFailed
from sweep.families import Family, Point, family_of, plugin_of
from sweep.workloads.config import plugin_parts_of

#: Draws an experiment's figures: ``draw(dataset, experiment, folder, stem)`` -> the files written
#: (``stem``: the result file's name without ``.nc``, for a sweep's default figure).
DrawFigures = Callable[[xr.Dataset, str | None, Path, str], list[Path]]

#: Options that change how a sweep runs, not what it computes: left out of the fingerprint.
_EXECUTION_KEYS = ("engine", "output", "overwrite", "progress", "plots")


def resolved_yaml(cfg: DictConfig) -> str:
    """The config that determines the results, as YAML (stored in the Dataset). A value given as an
    environment variable (``${oc.env:NAME}``) is stored as written, not as its value: a result file
    holds no secret of the shell that made it, and its config still replays where NAME is set."""
    settings = _keep_environment_references(plain(cfg), OmegaConf.to_container(cfg, resolve=False))
    for key in _EXECUTION_KEYS:
        settings.pop(key, None)
    if settings.get("design", {}).get("name") == "grid":
        settings.pop("design")  # the default: grid sweeps store the config they always did
    if settings.get("first_replication") == 0:
        settings.pop("first_replication")  # likewise: the first round of replications
    return OmegaConf.to_yaml(OmegaConf.create(settings))


def _keep_environment_references(settings: Any, written: Any) -> Any:
    """``settings`` with every value that ``written`` (the same config unresolved) gives as
    ``${oc.env:...}`` put back as written."""
    if isinstance(written, str) and "${oc.env:" in written:
        return written
    if isinstance(settings, dict) and isinstance(written, dict):
        return {key: _keep_environment_references(value, written.get(key)) for key, value in settings.items()}
    if isinstance(settings, list) and isinstance(written, list) and len(settings) == len(written):
        return [_keep_environment_references(v, w) for v, w in zip(settings, written, strict=True)]
    return settings


def output_path(cfg: DictConfig) -> Path:
    """``output`` if given, else ``results.nc`` in Hydra's run directory (docs/design.md §5), or
    ``results-2.nc``, ``results-3.nc``, ... there when another sweep started in the same second holds
    that name (a name sweep chose is never refused nor replaced)."""
    if cfg.output:
        return Path(cfg.output).absolute()
    folder = Path(cfg.hydra.run.dir).absolute()
    names = (folder / f"results{f'-{n}' if n > 1 else ''}.nc" for n in itertools.count(1))
    return next(path for path in names if not path.exists() and not lock_path(path).exists())


def make_tasks(grid: Grid, replications: int, seed: int, done: np.ndarray | None = None,
               first_replication: int = 0) -> TaskList:
    """Every (point, replication) of ``grid`` but the task numbers in ``done``
    (``index * replications + replication``), each task made when it is needed; the random streams
    of replications ``first_replication, first_replication + 1, ...``."""
    numbers = np.arange(grid.size * replications, dtype=np.int64)
    if done is not None and len(done):
        numbers = np.setdiff1d(numbers, done, assume_unique=False)
    return TaskList(grid, replications, seed, numbers, first_replication=first_replication)


#: How many of a sweep's longest tasks it reports (:attr:`FinishedSweep.longest_tasks`).
LONGEST_KEPT = 5


@dataclass
class PreparedSweep:
    """A composed, validated sweep with its checkpoint read: what is left to run, where it goes."""

    label: str
    cfg: DictConfig
    overrides: list[str]
    grid: Grid
    config_yaml: str
    output: Path
    checkpoint: Checkpoint
    done: RecordBatch
    tasks: Sequence[Task]
    lock: OutputLock
    #: False: the Dataset is returned, not written (``sweep.run`` without ``output=``; the checkpoint
    #: and lock live in its temporary folder).
    write: bool = True

    @property
    def runs(self) -> int:
        return self.grid.size * int(self.cfg.replications)


@dataclass
class FinishedSweep:
    """A sweep written to ``output``; ``compute_seconds`` is the time its tasks took in the workers
    (this run's and the checkpoint's), ``figures`` the figure files written beside it, and
    ``longest_tasks`` the :data:`LONGEST_KEPT` longest tasks of this run."""

    label: str
    dataset: xr.Dataset
    output: Path
    compute_seconds: float
    figures: list[Path]
    #: The longest tasks of this run, longest first: (seconds, the point and replication).
    longest_tasks: list[tuple[float, str]] = dataclasses.field(default_factory=list)


def composed(overrides_lists: Sequence[Sequence[str]], processes: int | None = None
             ) -> Iterator[tuple[DictConfig, Grid]]:
    """Each sweep's composed and validated config with its grid, in order, composed in a pool of
    ``processes`` (default: this machine's cores) when there are several sweeps.

    Composing is the driver's slowest step before a large run (about half a second a Hydra
    compose, several for a preset whose group axes compose every option), and each sweep's is
    independent. A bad config raises its :class:`ConfigError` when its turn comes.
    """
    processes = min(processes or os.cpu_count() or 1, len(overrides_lists))
    if processes <= 1:
        yield from map(_compose_and_expand, overrides_lists)
        return
    with ProcessPoolExecutor(processes, mp_context=_pool_context()) as pool:
        for container, grid in pool.map(_compose_and_expand_plain, overrides_lists):
            yield OmegaConf.create(container), grid


def _pool_context() -> multiprocessing.context.BaseContext:
    """``fork`` (the children inherit the registered schemas and start at once) while every thread of
    this process is one Python made; ``spawn`` once a native library has started its own, named
    threads (Ray's gRPC threads outlive ``ray.shutdown``, and a fork would copy their locks
    half-held: a later round of ``sweep-reproduce`` composes after Ray has run)."""
    try:
        tasks = Path("/proc/self/task")
        names = {(task / "comm").read_text() for task in tasks.iterdir()}
    except OSError:
        names = {"unknown", "several"}
    return multiprocessing.get_context("fork" if len(names) == 1 else "spawn")


def _compose_and_expand(overrides: Sequence[str]) -> tuple[DictConfig, Grid]:
    cfg = compose(list(overrides))
    return cfg, _validated_grid(cfg, overrides)


#: A grid of more points than this says so before its points are made and checked, one by one (about
#: 15 µs a point here: 15 s for the largest grid one output holds, :data:`sweep.config.grid.MAX_POINTS`).
LARGE_GRID = 100_000


def _validated_grid(cfg: DictConfig, overrides: Sequence[str]) -> Grid:
    """The grid of a composed config whose settings are checked first."""
    validate_settings(cfg)
    if cfg.progress and (points := math.prod(len(axis.values) for axis in axes_of(cfg))) > LARGE_GRID:
        print(f"sweep: making and checking the grid's {points:,} points...", file=sys.stderr, flush=True)
    return expand(cfg, overrides)


def _compose_and_expand_plain(overrides: Sequence[str]) -> tuple[dict, Grid]:
    """:func:`_compose_and_expand` for a pool: the config as plain containers, interpolations kept (its
    schema classes are made at run time and cannot be pickled); the same values, the same
    :func:`resolved_yaml`."""
    cfg, grid = _compose_and_expand(overrides)
    return OmegaConf.to_container(cfg, resolve=False), grid


def prepare(cfg: DictConfig, overrides: Sequence[str] = (), label: str = "",
            grid: Grid | None = None, write: bool = True) -> PreparedSweep:
    """Validate ``cfg``, expand its design, claim its output (:mod:`sweep.engine.output`), read its
    checkpoint: the tasks still to run.

    Parameters
    ----------
    cfg
        A composed config (:func:`sweep.config.compose.compose`).
    overrides
        The overrides it was composed from.
    label
        The sweep's name in the lines a run of several prints (``sweep-reproduce``'s presets).
    grid
        ``cfg``'s grid when already expanded (:func:`composed`).

    Returns
    -------
    PreparedSweep
        What :func:`run_many` runs; it holds the output's lock until then.

    Raises
    ------
    sweep.errors.ConfigError
        A bad option, or an output another sweep holds or wrote.
    """
    if grid is None:
        grid = _validated_grid(cfg, overrides)
    config_yaml = resolved_yaml(cfg)
    output = output_path(cfg)
    lock = claim_output(output, config_yaml, bool(cfg.overwrite))
    try:
        checkpoint = Checkpoint(output, hashlib.sha256(config_yaml.encode()).hexdigest(),
                                cfg.engine.checkpoint_seconds)
        done = checkpoint.load(grid.size, int(cfg.replications))
    except BaseException:
        lock.release()
        raise
    numbers = done.index * int(cfg.replications) + done.replication
    tasks = make_tasks(grid, cfg.replications, cfg.seed, numbers, int(cfg.first_replication))
    return PreparedSweep(label, cfg, list(overrides), grid, config_yaml, output, checkpoint, done, tasks,
                         lock, write)


def run_config(cfg: DictConfig, overrides: Sequence[str] = (), draw: DrawFigures | None = None,
               verbose: bool = True, write: bool = True) -> tuple[xr.Dataset, Path]:
    """Run the sweep described by a composed config; return the Dataset and where it was written.

    With ``saturation.search=true`` the sweep is a saturation search
    (:mod:`sweep.engine.adaptive`) over the grid's points instead.

    Parameters
    ----------
    cfg
        A config from :func:`sweep.config.compose.compose`.
    overrides
        The overrides it was composed from (the file's ``command_line``; grid axes of ``-m``).
    draw
        With ``plots=true``, ``draw(dataset, experiment, folder, stem)`` draws the experiment's
        figures (or the sweep's default figure) beside the result file and returns their paths.
    verbose
        Print the notes, progress bar, table and summary line (``False``: nothing).
    write
        Write the Dataset to ``output`` (``False``: return it only; a saturation search writes
        its file whatever this says).

    Returns
    -------
    tuple[xarray.Dataset, pathlib.Path]
        The results and the file they were written to.
    """
    if cfg.saturation.search:
        grid = _validated_grid(cfg, overrides)  # settles replications before the config is stored
        config_yaml, output = resolved_yaml(cfg), output_path(cfg)
        lock = claim_output(output, config_yaml, bool(cfg.overwrite))
        try:
            dataset = run_saturation(cfg, overrides, config_yaml, output,
                                     provenance(config_yaml, int(cfg.seed), overrides), grid)
        finally:
            lock.release()
        _figures(cfg, dataset, output, draw)
        return dataset, output
    [finished] = run_many([prepare(cfg, overrides, write=write)], draw, verbose)
    return finished.dataset, finished.output


def run_many(sweeps: Sequence[PreparedSweep], draw: DrawFigures | None = None, verbose: bool = True,
             on_finished: Callable[[FinishedSweep], None] | None = None) -> list[FinishedSweep]:
    """Run several sweeps on one backend, one progress display over all (docs/design.md §3, §9).

    The backend, its workers and the progress display follow the first sweep's
    ``engine`` and ``progress`` settings. A task that two sweeps share (the same
    point, stream, seed and replication: presets of one paper often repeat
    points) runs once and fills both. Each sweep checkpoints next to its own
    output and is written, atomically, as soon as its last task is in, so a
    failure later costs none of the sweeps already finished.

    Parameters
    ----------
    sweeps
        From :func:`prepare`; their outputs' locks are released at the end, whatever happens.
    draw
        Draws each sweep's figures (:func:`run_config`).
    verbose
        Print the notes, the progress bar, the tables and the summary lines.
    on_finished
        Called with each sweep as soon as it is written (``sweep-reproduce`` starts drawing a
        preset's figures while the others still run).

    Returns
    -------
    list[FinishedSweep]
        One per sweep, in order.
    """
    started = time.perf_counter()
    if verbose:
        for prepared in sweeps:  # options that take no effect here, said before the run (docs/design.md §8)
            for note in prepared.grid.notes:
                print(f"sweep: {note}{f' [{prepared.label}]' if prepared.label else ''}", file=sys.stderr)
    try:
        runner = _ManySweeps(sweeps, draw, verbose, on_finished)
        finished = {i: runner.finish(i, started) for i, s in enumerate(sweeps) if not s.tasks}
        if runner.unique:
            finished |= runner.execute(started)
    finally:  # a failed or interrupted run lets a rerun, in this process or another, take the outputs
        for prepared in sweeps:
            prepared.lock.release()
    return [finished[i] for i in range(len(sweeps))]


def _task_identity(task: Task) -> str:
    """What a task computes (not where its result goes): equal identities give equal records."""
    return json.dumps([dataclasses.asdict(task.point), task.stream, task.seed, task.stream_replication],
                      sort_keys=True, default=str)


class _ManySweeps:
    """The bookkeeping of :func:`run_many`: unique tasks, who else needs each record, completion.

    Each sweep's results go straight into its :class:`ResultArrays` as batches
    arrive; a per-point count of replications received says when points and
    sweeps are complete (numpy, not a dict per point).
    """

    def __init__(self, sweeps: Sequence[PreparedSweep], draw: DrawFigures | None = None,
                 verbose: bool = True, on_finished: Callable[[FinishedSweep], None] | None = None) -> None:
        self.draw, self.verbose, self.on_finished = draw, verbose, on_finished
        outputs = [s.output for s in sweeps]
        if shared := next((o for n, o in enumerate(outputs) if o in outputs[:n]), None):
            raise ConfigError(f"output={shared} is named by two sweeps of one run; one output holds one "
                              "sweep")
        self.sweeps = [dataclasses.replace(s, tasks=_with_sweep(s.tasks, i)) for i, s in enumerate(sweeps)]
        self.results = [ResultArrays(s.grid, _families(s.grid), s.cfg.replications, s.cfg.first_replication)
                        for s in self.sweeps]
        self.counts = [np.zeros(s.grid.size, dtype=np.int64) for s in self.sweeps]
        self.compute_seconds = [0.0] * len(self.sweeps)
        self.longest: list[list[tuple[float, int, int]]] = [[] for _ in self.sweeps]
        for i, prepared in enumerate(self.sweeps):
            self._receive(i, prepared.done)
        self.unique: Sequence[Task] = []
        self.copies: dict[tuple[int, int, int], list[Task]] = {}  # (sweep, index, replication) -> others
        if len(self.sweeps) == 1:
            self.unique = self.sweeps[0].tasks
        else:
            first: dict[str, Task] = {}
            unique = []
            for task in (t for s in self.sweeps for t in s.tasks):
                original = first.setdefault(_task_identity(task), task)
                if original is task:
                    unique.append(task)
                else:
                    self.copies.setdefault((original.sweep, *original.key), []).append(task)
            self.unique = unique

    def _batch_sizes(self, workers: int, requested: int | None, analytic: bool) -> int | dict[int, int]:
        """The batch size (:func:`sweep.engine.tasks.batch_size`): of the one sweep's tasks, or per
        sweep of a run of several, each by its own unique tasks (they are together in
        :attr:`unique`, sweep after sweep)."""
        if len(self.sweeps) == 1:
            return batch_size(len(self.unique), workers, requested, analytic)
        tasks = collections.Counter(task.sweep for task in self.unique)
        return {sweep: batch_size(count, workers, requested, analytic) for sweep, count in tasks.items()}

    def _receive(self, i: int, batch: RecordBatch) -> int:
        """Take sweep ``i``'s records; the number of its points they complete."""
        self.results[i].add(batch)
        self.compute_seconds[i] += float(batch.seconds.sum())
        counts = self.counts[i]
        np.add.at(counts, batch.index, 1)
        touched = np.unique(batch.index)
        return int(np.count_nonzero(counts[touched] == self.sweeps[i].cfg.replications))

    def _keep_longest(self, i: int, batch: RecordBatch) -> None:
        """Sweep ``i``'s :data:`LONGEST_KEPT` longest tasks so far, given a batch of its records."""
        rows = np.argsort(-batch.seconds, kind="stable")[:LONGEST_KEPT]
        tasks = [(float(batch.seconds[r]), int(batch.index[r]), int(batch.replication[r])) for r in rows]
        self.longest[i] = sorted(self.longest[i] + tasks, reverse=True)[:LONGEST_KEPT]

    def longest_tasks(self, i: int) -> list[tuple[float, str]]:
        """Sweep ``i``'s longest tasks of this run: seconds, and the point and replication."""
        prepared = self.sweeps[i]
        first = int(prepared.cfg.first_replication)
        return [(seconds, f"{prepared.grid.label(index)}, "
                          f"replication={first + replication}")
                for seconds, index, replication in self.longest[i] if seconds > 0]

    def execute(self, started: float) -> dict[int, FinishedSweep]:
        engine, cfg = self.sweeps[0].cfg.engine, self.sweeps[0].cfg
        analytic = all(s.cfg.model == "analytic" for s in self.sweeps)
        name = choose_backend(engine.backend, engine.address, len(self.unique), analytic)
        backend = make_backend(name, engine.workers, engine.address, engine.in_flight, bool(cfg.progress))
        try:
            backend.check_loadable(_plugins(s.grid for s in self.sweeps if s.tasks))
        except ConfigError:
            backend.close()
            raise
        families = _families_to_compile(s.grid for s in self.sweeps if s.tasks) if self.verbose else []
        if families:
            print(f"sweep: compiling the {', '.join(families)} kernels (first run on this machine or after "
                  f"an update: seconds to minutes; later runs load them from numba's cache)",
                  file=sys.stderr)
        points = sum(s.grid.size for s in self.sweeps)
        done = sum(int(np.count_nonzero(c >= s.cfg.replications)) for c, s in zip(self.counts, self.sweeps,
                                                                                    strict=True))
        progress = Progress(points, done, bool(cfg.progress) and self.verbose,
                            phase="compiling" if families else None)
        for prepared in self.sweeps:
            if prepared.tasks:
                prepared.checkpoint.start()
        finished: dict[int, FinishedSweep] = {}
        try:
            size = self._batch_sizes(backend.workers, engine.batch_size, analytic)
            ordered = batches(self.unique, size) if analytic else kernels_first(self.unique, size)
            for records in backend.run(ordered):
                batch = RecordBatch.of(records)
                done_points, touched = 0, set()
                for i, part in self._with_copies(batch):
                    self.sweeps[i].checkpoint.add(part)
                    done_points += self._receive(i, part)
                    self._keep_longest(i, part)
                    touched.add(i)
                progress.update(done_points, int(batch.work.sum()))
                for i in sorted(touched):
                    if self.results[i].received == self.sweeps[i].runs:
                        if self._all_received():
                            progress.close()  # the last sweep's summary line ends the output: no bar after it
                            finished.setdefault(i, self.finish(i, started))
                        else:
                            progress.write_above(lambda i=i: finished.setdefault(i, self.finish(i, started)))
        finally:
            for prepared in self.sweeps:
                prepared.checkpoint.flush()
            progress.close()
            backend.close()
        return finished

    def _all_received(self) -> bool:
        """Whether every sweep has all its records."""
        return all(r.received == s.runs for r, s in zip(self.results, self.sweeps, strict=True))

    def _with_copies(self, batch: RecordBatch) -> Iterator[tuple[int, RecordBatch]]:
        """``(sweep, records)``: the batch's own, then copies for the sweeps that share a task."""
        yield from batch.by_sweep()
        if not self.copies:
            return
        copies = [dataclasses.replace(record, index=copy.index, sweep=copy.sweep, seconds=0.0)
                  for record in batch for copy in self.copies.get((record.sweep, *record.key), ())]
        if copies:
            yield from RecordBatch.from_records(copies).by_sweep()

    def finish(self, i: int, started: float) -> FinishedSweep:
        """Build sweep ``i``'s Dataset on its filled arrays, write it atomically, say so in one line."""
        prepared = self.sweeps[i]
        cfg = prepared.cfg
        dataset = self.results[i].dataset(provenance(prepared.config_yaml, int(cfg.seed), prepared.overrides))
        if prepared.write:
            _write_or_rescue(dataset, prepared)
        prepared.checkpoint.remove()
        prepared.lock.release()
        figures = _figures(cfg, dataset, prepared.output, self.draw)
        if self.verbose:
            _say_finished(prepared, dataset, figures, time.perf_counter() - started)
        finished = FinishedSweep(prepared.label, dataset, prepared.output, self.compute_seconds[i], figures,
                                 self.longest_tasks(i))
        if self.on_finished is not None:
            self.on_finished(finished)
        return finished


def _write_or_rescue(dataset: xr.Dataset, prepared: PreparedSweep) -> None:
    """Write the result file; if that fails (a full disk, a folder made read-only), save the records
    still in memory and say in one line where they are (:class:`WriteFailed`)."""
    try:
        write_atomic(dataset, prepared.output)
    except OSError as error:
        try:
            saved = prepared.checkpoint.rescue()
        except OSError:
            saved = None
        where = ("nothing was saved: the runs must be computed again" if saved is None else
                 f"the finished runs are saved in {saved}" + (
                     "" if saved == prepared.checkpoint.folder else
                     f"; move its shards into {prepared.checkpoint.folder}") +
                 " and run the same command again to resume")
        raise WriteFailed(f"cannot write {prepared.output} ({error.strerror or error}); {where}") from error


def _say_finished(prepared: PreparedSweep, dataset: xr.Dataset, figures: list[Path], seconds: float) -> None:
    """A one-point sweep's table or its headline over the grid; then the summary line (stderr). Sweeps
    sharing a pool (``sweep-reproduce``'s presets and their rounds, labelled) print only the line."""
    grid = prepared.grid
    if prepared.label:
        table = ""
    elif grid.size == 1:
        table = point_table(dataset)
    else:
        table = grid_table(dataset, grid, _families(grid)[0].headline)
    if table:
        print(table, file=sys.stderr)
    line = summary_line(dataset, grid, prepared.cfg.replications, len(prepared.tasks),
                        len(prepared.done), seconds, prepared.output, figures)
    print(f"{line} [{prepared.label}]" if prepared.label else line, file=sys.stderr)


def _with_sweep(tasks: Sequence[Task], sweep: int) -> Sequence[Task]:
    if isinstance(tasks, TaskList):
        return tasks.with_sweep(sweep)
    return [dataclasses.replace(t, sweep=sweep) for t in tasks]


def _first_points(grid: Grid, keys: Callable[[str], bool]) -> Iterator[Point]:
    """For each value of each axis whose key ``keys`` accepts, the first point with it (one point per
    option looked at, not every point)."""
    for n, axis in enumerate(grid.axes):
        if keys(axis.key):
            for value in range(len(axis.values)):
                yield grid.first_with(n, value).point


def _policy_points(grid: Grid) -> Iterator[tuple[Family, Point]]:
    """For each option of the grid's policy axis, its first point and the policy's family."""
    for point in _first_points(grid, lambda key: key == "policy"):
        yield family_of(point.policy["name"]), point


def _families(grid: Grid) -> list[Family]:
    """The families of a grid's policies."""
    return list({family.name: family for family, _ in _policy_points(grid)}.values())


def _plugins(grids: Iterable[Grid]) -> dict[PluginPart, str]:
    """What installed plugins add that these grids use (policies, distribution kinds, trace readers):
    the entry point of each. One point per option of each axis that chooses a policy or sets the
    workload is looked at, not every point."""
    used: dict[PluginPart, str] = {}
    for grid in grids:
        for point in _first_points(grid, lambda key: key in ("policy", "workload") or
                                   key.startswith("workload.")):
            if where := plugin_of(point.policy["name"]):
                used[PluginPart("policy", point.policy["name"])] = where
            used |= {PluginPart(*part): where for part, where in plugin_parts_of(point.workload).items()}
    return used


def _families_to_compile(grids: Iterable[Grid]) -> list[str]:
    """The families whose kernel for a policy of these grids is not in numba's on-disk cache."""
    return sorted({family.name for grid in grids for family, point in _policy_points(grid)
                   if not is_cached(getattr(family.policy(point).hooks, "kernel", None))})


def provenance(config_yaml: str, seed: int, overrides: Sequence[str]) -> dict[str, str | int]:
    """The Dataset's attributes (docs/design.md §5): config, seed, command line, creation time, versions."""
    import netCDF4
    import numba
    import numpy
    import xarray

    created = datetime.now(UTC).isoformat(timespec="seconds")
    command = shlex.join(["sweep", *overrides])
    versions = {"sweep": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
                "numba": numba.__version__, "xarray": xarray.__version__, "netCDF4": netCDF4.__version__}
    return {"Conventions": "CF-1.10", "title": "sweep results", "config": config_yaml,
            "sweep_version": __version__, "seed": seed, "command_line": command,
            "history": f"{created}: {command}", "date_created": created,
            "software_versions": ", ".join(f"{name} {version}" for name, version in versions.items())}


def _figures(cfg: DictConfig, dataset: xr.Dataset, output: Path, draw: DrawFigures | None) -> list[Path]:
    """The experiment's paper figures, or the sweep's default figure, next to the result file
    (``plots=true`` and a ``draw`` given)."""
    if not cfg.plots or draw is None:
        return []
    return draw(dataset, cfg.hydra.runtime.choices.get("experiment"), output.parent, output.stem)


def run(overrides: Sequence[str] = (), draw: DrawFigures | None = None, verbose: bool = True,
        write: bool = True) -> xr.Dataset:
    """Do what ``sweep [overrides]`` does and return the Dataset (docs/design.md §5 Python API).

    ``draw`` draws the figures (``sweep.run`` passes :func:`sweep.analysis.figures.write_figures`;
    the engine draws nothing itself). ``write=False``: the Dataset is returned without being
    written to ``output`` (``sweep.run`` without ``output=``, whose output is a temporary folder).
    """
    overrides = list(overrides)
    dataset, _ = run_config(compose(overrides), overrides, draw, verbose, write)
    return dataset
