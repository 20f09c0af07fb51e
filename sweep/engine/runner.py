"""The sweep from a composed config to a Dataset on disk (docs/design.md §3).

compose -> validate -> expand grid -> tasks -> backend -> records (checkpointed)
-> Dataset (one step) -> netCDF (atomic).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import platform
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import xarray as xr
from omegaconf import DictConfig, OmegaConf

import sweep
from sweep.engine.backends import choose_backend, make_backend
from sweep.engine.checkpoint import Checkpoint
from sweep.engine.config import compose, plain, validate_settings
from sweep.engine.dataset import build_dataset, write_atomic
from sweep.engine.grid import Grid, expand
from sweep.engine.progress import Progress
from sweep.engine.summary import point_table, summary_line
from sweep.engine.tasks import Record, Task
from sweep.families import family_of

#: Options that change how a sweep runs, not what it computes: left out of the fingerprint.
_EXECUTION_KEYS = ("engine", "output", "progress", "plots")


def resolved_yaml(cfg: DictConfig) -> str:
    """The config that determines the results, as YAML (stored in the Dataset)."""
    settings = plain(cfg)
    for key in _EXECUTION_KEYS:
        settings.pop(key, None)
    return OmegaConf.to_yaml(OmegaConf.create(settings))


def output_path(cfg: DictConfig) -> Path:
    """``output`` if given, else ``results.nc`` in Hydra's run directory (docs/design.md §5)."""
    return Path(cfg.output if cfg.output else Path(cfg.hydra.run.dir) / "results.nc").absolute()


def make_tasks(grid: Grid, replications: int, seed: int) -> list[Task]:
    return [Task(p.index, r, p.point, p.stream, seed) for p in grid.points for r in range(replications)]


def batches(tasks: Sequence[Task], size: int) -> Iterator[list[Task]]:
    for start in range(0, len(tasks), size):
        yield list(tasks[start : start + size])


def batch_size(tasks: int, workers: int, requested: int | None) -> int:
    """Enough batches to keep every worker busy (about 8 each), at most 64 tasks a batch."""
    return requested or max(1, min(64, math.ceil(tasks / (8 * workers))))


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
    done: list[Record]
    tasks: list[Task]

    @property
    def runs(self) -> int:
        return len(self.grid.points) * int(self.cfg.replications)


@dataclass
class FinishedSweep:
    """A sweep written to ``output``; ``compute_seconds`` is the time its tasks took in the workers
    (this run's and the checkpoint's), ``figures`` the figure files written beside it."""

    label: str
    dataset: xr.Dataset
    output: Path
    compute_seconds: float
    figures: list[Path]


def prepare(cfg: DictConfig, overrides: Sequence[str] = (), label: str = "") -> PreparedSweep:
    """Validate ``cfg``, expand its design, read its checkpoint: the tasks still to run."""
    validate_settings(cfg)
    grid = expand(cfg, overrides)
    config_yaml = resolved_yaml(cfg)
    output = output_path(cfg)
    checkpoint = Checkpoint(output, hashlib.sha256(config_yaml.encode()).hexdigest(),
                            cfg.engine.checkpoint_seconds)
    done = checkpoint.load()
    finished = {record.key for record in done}
    tasks = [t for t in make_tasks(grid, cfg.replications, cfg.seed) if t.key not in finished]
    return PreparedSweep(label, cfg, list(overrides), grid, config_yaml, output, checkpoint, done, tasks)


def run_config(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[xr.Dataset, Path]:
    """Run the sweep described by a composed config; return the Dataset and where it was written.

    With ``saturation.search=true`` the sweep is a saturation search
    (:mod:`sweep.engine.adaptive`) over the grid's points instead.
    """
    if cfg.saturation.search:
        from sweep.engine.adaptive import run_saturation

        validate_settings(cfg)
        config_yaml, output = resolved_yaml(cfg), output_path(cfg)
        dataset = run_saturation(cfg, overrides, config_yaml, output,
                                 provenance(config_yaml, int(cfg.seed), overrides))
        _figures(cfg, dataset, output)
        return dataset, output
    [finished] = run_many([prepare(cfg, overrides)])
    return finished.dataset, finished.output


def run_many(sweeps: Sequence[PreparedSweep]) -> list[FinishedSweep]:
    """Run several sweeps on one backend, one progress display over all (docs/design.md §3, §9).

    The backend, its workers and the progress display follow the first sweep's
    ``engine`` and ``progress`` settings. A task that two sweeps share (the same
    point, stream, seed and replication: presets of one paper often repeat
    points) runs once and fills both. Each sweep checkpoints next to its own
    output and is written, atomically, as soon as its last task is in, so a
    failure later costs none of the sweeps already finished.
    """
    started = time.perf_counter()
    runner = _ManySweeps(sweeps)
    finished = {i: runner.finish(i, started) for i, s in enumerate(sweeps) if not s.tasks}
    if runner.unique:
        finished |= runner.execute(started)
    return [finished[i] for i in range(len(sweeps))]


def _task_identity(task: Task) -> str:
    """What a task computes (not where its result goes): equal identities give equal records."""
    return json.dumps([dataclasses.asdict(task.point), task.stream, task.seed, task.replication],
                      sort_keys=True, default=str)


class _ManySweeps:
    """The bookkeeping of :func:`run_many`: unique tasks, who else needs each record, completion."""

    def __init__(self, sweeps: Sequence[PreparedSweep]) -> None:
        self.sweeps = [dataclasses.replace(s, tasks=[dataclasses.replace(t, sweep=i) for t in s.tasks])
                       for i, s in enumerate(sweeps)]
        self.records: list[list[Record]] = [list(s.done) for s in self.sweeps]
        self.unique: list[Task] = []
        self.copies: dict[tuple[int, int, int], list[Task]] = {}  # (sweep, index, replication) -> others
        if len(self.sweeps) == 1:
            self.unique = self.sweeps[0].tasks
        else:
            first: dict[str, Task] = {}
            for task in (t for s in self.sweeps for t in s.tasks):
                original = first.setdefault(_task_identity(task), task)
                if original is task:
                    self.unique.append(task)
                else:
                    self.copies.setdefault((original.sweep, *original.key), []).append(task)

    def execute(self, started: float) -> dict[int, FinishedSweep]:
        engine, cfg = self.sweeps[0].cfg.engine, self.sweeps[0].cfg
        analytic = all(s.cfg.model == "analytic" for s in self.sweeps)
        name = choose_backend(engine.backend, engine.address, len(self.unique), analytic)
        backend = make_backend(name, engine.workers, engine.address, engine.in_flight, bool(cfg.progress))
        counts = [Counter(r.index for r in records) for records in self.records]
        points = sum(len(s.grid.points) for s in self.sweeps)
        progress = Progress(points, sum(self._points_done(i, c) for i, c in enumerate(counts)), cfg.progress)
        for prepared in self.sweeps:
            if prepared.tasks:
                prepared.checkpoint.start()
        finished: dict[int, FinishedSweep] = {}
        try:
            size = batch_size(len(self.unique), backend.workers, engine.batch_size)
            for batch in backend.run(batches(self.unique, size)):
                done_points, touched = 0, set()
                for record in self._with_copies(batch):
                    i = record.sweep
                    self.records[i].append(record)
                    self.sweeps[i].checkpoint.add([record])
                    counts[i][record.index] += 1
                    done_points += counts[i][record.index] == self.sweeps[i].cfg.replications
                    touched.add(i)
                progress.update(done_points, sum(r.work for r in batch))
                for i in sorted(touched):
                    if len(self.records[i]) == self.sweeps[i].runs:
                        progress.write_above(lambda i=i: finished.setdefault(i, self.finish(i, started)))
        finally:
            for prepared in self.sweeps:
                prepared.checkpoint.flush()
            progress.close()
            backend.close()
        return finished

    def _points_done(self, i: int, counts: Counter) -> int:
        return sum(1 for n in counts.values() if n >= self.sweeps[i].cfg.replications)

    def _with_copies(self, batch: list[Record]) -> Iterator[Record]:
        for record in batch:
            yield record
            for copy in self.copies.get((record.sweep, *record.key), ()):
                yield dataclasses.replace(record, index=copy.index, sweep=copy.sweep, seconds=0.0)

    def finish(self, i: int, started: float) -> FinishedSweep:
        """Build sweep ``i``'s Dataset in one step, write it atomically, say so in one line."""
        prepared = self.sweeps[i]
        cfg, grid = prepared.cfg, prepared.grid
        records = sorted(self.records[i], key=lambda r: r.key)
        by_name = {family.name: family for family in (family_of(p.point.policy["name"]) for p in grid.points)}
        dataset = build_dataset(grid, records, list(by_name.values()), cfg.replications,
                                provenance(prepared.config_yaml, int(cfg.seed), prepared.overrides))
        write_atomic(dataset, prepared.output)
        prepared.checkpoint.remove()
        figures = _figures(cfg, dataset, prepared.output)
        if len(grid.points) == 1 and (table := point_table(dataset)):
            print(table, file=sys.stderr)
        line = summary_line(dataset, grid, cfg.replications, len(prepared.tasks), len(prepared.done),
                            time.perf_counter() - started, prepared.output, figures)
        print(f"{line} [{prepared.label}]" if prepared.label else line, file=sys.stderr)
        compute_seconds = sum(r.seconds for r in records)
        return FinishedSweep(prepared.label, dataset, prepared.output, compute_seconds, figures)


def provenance(config_yaml: str, seed: int, overrides: Sequence[str]) -> dict[str, str | int]:
    """The Dataset's attributes (docs/design.md §5): config, seed, command line, creation time, versions."""
    import netCDF4
    import numba
    import numpy
    import xarray

    created = datetime.now(UTC).isoformat(timespec="seconds")
    command = shlex.join(["sweep", *overrides])
    versions = {"sweep": sweep.__version__, "python": platform.python_version(), "numpy": numpy.__version__,
                "numba": numba.__version__, "xarray": xarray.__version__, "netCDF4": netCDF4.__version__}
    return {"Conventions": "CF-1.10", "title": "sweep results", "config": config_yaml,
            "sweep_version": sweep.__version__, "seed": seed, "command_line": command,
            "history": f"{created}: {command}", "date_created": created,
            "software_versions": ", ".join(f"{name} {version}" for name, version in versions.items())}


def _figures(cfg: DictConfig, dataset: xr.Dataset, output: Path) -> list[Path]:
    """The experiment's paper figures next to the result file (``plots=true``)."""
    if not cfg.plots:
        return []
    from sweep.analysis.figures import write_figures

    return write_figures(dataset, cfg.hydra.runtime.choices.get("experiment"), output.parent)


def run(overrides: Sequence[str] = ()) -> xr.Dataset:
    """Do what ``sweep [overrides]`` does and return the Dataset (docs/design.md §5 Python API)."""
    overrides = list(overrides)
    dataset, _ = run_config(compose(overrides), overrides)
    return dataset
