"""The sweep from a composed config to a Dataset on disk (docs/design.md §3).

compose -> validate -> expand grid -> tasks -> backend -> records (checkpointed)
-> Dataset (one step) -> netCDF (atomic).
"""

from __future__ import annotations

import hashlib
import math
import platform
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
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
    if settings.get("design", {}).get("name") == "grid":
        settings.pop("design")  # the default: grid sweeps store the config they always did
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


def run_config(cfg: DictConfig, overrides: Sequence[str] = ()) -> tuple[xr.Dataset, Path]:
    """Run the sweep described by a composed config; return the Dataset and where it was written."""
    validate_settings(cfg)
    grid = expand(cfg, overrides)
    config_yaml = resolved_yaml(cfg)
    output = output_path(cfg)
    checkpoint = Checkpoint(output, hashlib.sha256(config_yaml.encode()).hexdigest(),
                            cfg.engine.checkpoint_seconds)
    done = checkpoint.load()
    finished = {record.key for record in done}
    tasks = [t for t in make_tasks(grid, cfg.replications, cfg.seed) if t.key not in finished]
    started = time.perf_counter()
    records = list(done)
    if tasks:
        records += _execute(cfg, tasks, checkpoint, grid, done)
    by_name = {family.name: family for family in (family_of(p.point.policy["name"]) for p in grid.points)}
    families = list(by_name.values())
    dataset = build_dataset(grid, sorted(records, key=lambda r: r.key), families,
                            cfg.replications, provenance(config_yaml, int(cfg.seed), overrides))
    write_atomic(dataset, output)
    checkpoint.remove()
    figures = _figures(cfg, dataset, output)
    if len(grid.points) == 1 and (table := point_table(dataset)):
        print(table, file=sys.stderr)
    print(summary_line(dataset, grid, cfg.replications, len(tasks), len(done),
                       time.perf_counter() - started, output, figures), file=sys.stderr)
    return dataset, output


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


def _execute(cfg: DictConfig, tasks: list[Task], checkpoint: Checkpoint, grid: Grid,
             done: list[Record]) -> list[Record]:
    engine = cfg.engine
    name = choose_backend(engine.backend, engine.address, len(tasks), cfg.model == "analytic")
    backend = make_backend(name, engine.workers, engine.address, engine.in_flight, bool(cfg.progress))
    progress = Progress(len(grid.points), cfg.replications, done, cfg.progress)
    checkpoint.start()
    received: list[Record] = []
    try:
        size = batch_size(len(tasks), backend.workers, engine.batch_size)
        for records in backend.run(batches(tasks, size)):
            received.extend(records)
            checkpoint.add(records)
            progress.update(records)
    finally:
        checkpoint.flush()
        progress.close()
        backend.close()
    return received



def run(overrides: Sequence[str] = ()) -> xr.Dataset:
    """Do what ``sweep [overrides]`` does and return the Dataset (docs/design.md §5 Python API)."""
    overrides = list(overrides)
    dataset, _ = run_config(compose(overrides), overrides)
    return dataset
