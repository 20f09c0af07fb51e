"""Adaptive studies in rounds (docs/design.md §3 step 5): the saturation search.

With ``saturation.search=true`` a sweep does not run its grid at one load: for
every grid point it bisects the load between ``saturation.low`` (must be
stable) and ``saturation.high`` (must be unstable) until the bracket is
narrower than ``saturation.tol``. Every point's bisection advances together:
a round is one batch of tasks — the midpoint of every open bracket, times the
replications — on the same pool, so a study of many points uses every worker
of a cluster, and Ray starts once. A round is checkpointed like a sweep
(``<output>.rounds/round-NNN.partial``, keyed by the config and the round's
loads): an interrupted search resumes where it stopped.

A probe (a point at a load) is unstable when at least half of its
replications are: flagged ``saturated`` by the family (an offered load of 1 or
more, or the in-system cap passed), or their batch mean response times
(``batch_mean_response``, first batch dropped) trend upwards at level
``saturation.alpha`` (one-sided Mann–Kendall, :func:`sweep.stats.growing`).

The result file holds, over the grid's dimensions without ``load``:
``saturation_load`` (the final bracket's midpoint) and the bracket
``saturation_low``/``saturation_high``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import xarray as xr
from omegaconf import DictConfig

from sweep.config.compose import ConfigError
from sweep.config.grid import Grid, expand
from sweep.config.seeding import stream_key
from sweep.engine.backends import Backend, choose_backend, make_backend
from sweep.engine.checkpoint import Checkpoint
from sweep.engine.dataset import write_atomic
from sweep.engine.progress import Progress
from sweep.engine.summary import plural
from sweep.engine.tasks import Record, Task, batch_size, batches
from sweep.families import family_of
from sweep.stats import growing

#: The per-replication batch means the stability test reads.
BATCH_MEANS = "batch_mean_response"


def run_saturation(cfg: DictConfig, overrides: Sequence[str], config_yaml: str, output: Path,
                   provenance: dict, grid: Grid | None = None) -> xr.Dataset:
    """The saturation search of a composed config (module docstring); writes and returns the Dataset.
    ``grid``: the config's, already expanded (else expanded here)."""
    settings = cfg.saturation
    if not settings.low < settings.high:
        raise ConfigError(f"saturation.low must be below saturation.high, got {settings.low} and "
                          f"{settings.high}")
    grid = expand(cfg, overrides) if grid is None else grid
    _check_searchable(grid)
    started = time.perf_counter()
    search = _Search(cfg, grid, config_yaml, output)
    try:
        brackets = search.bisect(settings.low, settings.high, settings.tol)
    finally:
        search.close()
    dataset = _dataset(grid, brackets, provenance, search.rounds)
    write_atomic(dataset, output)
    shutil.rmtree(search.folder, ignore_errors=True)
    print(f"sweep: saturation search over {plural(len(grid.points), 'point')} x "
          f"{plural(int(cfg.replications), 'replication')} in {plural(search.rounds, 'round')} "
          f"({plural(search.computed, 'run')} computed, {search.resumed} resumed from checkpoint) "
          f"in {time.perf_counter() - started:.1f} s -> {output}", file=sys.stderr)
    return dataset


def _check_searchable(grid: Grid) -> None:
    loads = next(a for a in grid.axes if a.key == "load").values
    if len(loads) > 1:
        raise ConfigError("saturation.search=true bisects the load: leave load out of the grid")
    if not grid.load_applied:
        raise ConfigError("saturation.search=true: the load is not applied to these points (a trace "
                          "replayed as it is); set workload.rescale_load=true")
    for point in grid.points:
        family = family_of(point.point.policy["name"])
        if not any(v.name == BATCH_MEANS for v in family.variables):
            raise ConfigError(f"saturation.search=true needs batch mean response times "
                              f"({BATCH_MEANS}), which the {family.name} family does not record")


class _Search:
    """The rounds of one search: one backend for all, one checkpoint per round."""

    def __init__(self, cfg: DictConfig, grid: Grid, config_yaml: str, output: Path) -> None:
        self.cfg, self.grid = cfg, grid
        self.folder = output.with_name(output.name + ".rounds")
        self.fingerprint = hashlib.sha256(config_yaml.encode()).hexdigest()
        self.rounds = self.computed = self.resumed = 0
        engine = cfg.engine
        tasks = 2 * len(grid.points) * int(cfg.replications)
        name = choose_backend(engine.backend, engine.address, tasks, cfg.model == "analytic")
        self.backend: Backend = make_backend(name, engine.workers, engine.address, engine.in_flight,
                                             bool(cfg.progress))

    def close(self) -> None:
        self.backend.close()

    def bisect(self, low: float, high: float, tol: float) -> np.ndarray:
        """``(points, 2)``: each point's final bracket."""
        points = len(self.grid.points)
        ends = self.round([(n, load) for n in range(points) for load in (low, high)])
        for n in range(points):
            if ends[2 * n] or not ends[2 * n + 1]:
                raise ConfigError(f"saturation: load {low} must be stable and {high} unstable, "
                                  f"at {self.grid.points[n].label(self.grid.axes)}")
        brackets = np.tile([low, high], (points, 1)).astype(np.float64)
        while (open_ := np.flatnonzero(brackets[:, 1] - brackets[:, 0] > tol)).size:
            mids = np.round(brackets[open_].mean(axis=1), 10)
            unstable = np.asarray(self.round(list(zip(open_.tolist(), mids.tolist(), strict=True))))
            brackets[open_[unstable], 1] = mids[unstable]
            brackets[open_[~unstable], 0] = mids[~unstable]
        return brackets

    def round(self, probes: list[tuple[int, float]]) -> list[bool]:
        """Whether each probe (grid point number, load) is unstable; one batch on the pool."""
        started = time.perf_counter()
        replications, seed = int(self.cfg.replications), int(self.cfg.seed)
        tasks = []
        for number, (n, load) in enumerate(probes):
            point = dataclasses.replace(self.grid.points[n].point, load=load)
            stream = stream_key(point.workload, load)
            tasks += [Task(number, r, point, stream, seed) for r in range(replications)]
        key = json.dumps([self.fingerprint, probes])
        checkpoint = Checkpoint(self.folder / f"round-{self.rounds:03d}",
                                hashlib.sha256(key.encode()).hexdigest(), self.cfg.engine.checkpoint_seconds)
        records = list(checkpoint.load(len(probes), replications))
        done = {r.key for r in records}
        todo = [t for t in tasks if t.key not in done]
        self.resumed += len(records)
        self.computed += len(todo)
        if todo:
            records += self._run(todo, checkpoint, len(probes))
        self.rounds += 1
        unstable = _unstable(records, len(probes), replications, self.cfg.saturation.alpha)
        print(f"saturation search: round {self.rounds}: {plural(len(probes), 'probe')}, "
              f"{int(np.sum(unstable))} unstable, in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)
        return unstable.tolist()

    def _run(self, tasks: list[Task], checkpoint: Checkpoint, probes: int) -> list[Record]:
        checkpoint.start()
        replications = int(self.cfg.replications)
        progress = Progress(probes, 0, bool(self.cfg.progress))
        counts = np.zeros(probes, dtype=np.int64)
        received: list[Record] = []
        try:
            size = batch_size(len(tasks), self.backend.workers, self.cfg.engine.batch_size)
            for batch in self.backend.run(batches(tasks, size)):
                received += batch
                checkpoint.add(batch)
                for record in batch:
                    counts[record.index] += 1
                finished = sum(counts[r.index] == replications for r in batch)
                progress.update(finished, sum(r.work for r in batch))
        finally:
            checkpoint.flush()
            progress.close()
        return received


def _unstable(records: Sequence[Record], probes: int, replications: int, alpha: float) -> np.ndarray:
    """Per probe: at least half of its replications saturated or trending (module docstring)."""
    votes = np.zeros(probes)
    for record in records:
        means = np.asarray(record.summary[BATCH_MEANS], dtype=np.float64)
        votes[record.index] += bool(record.summary.get("saturated")) or growing(means, alpha, means.size)
    return votes >= 0.5 * replications


def _dataset(grid: Grid, brackets: np.ndarray, attrs: dict, rounds: int) -> xr.Dataset:
    """The brackets over the grid's dimensions without ``load``."""
    axes = [a for a in grid.axes if a.key != "load"]
    shape = tuple(len(a.values) for a in axes)
    keep = [i for i, a in enumerate(grid.axes) if a.key != "load"]
    low = np.full(shape, math.nan)
    high = np.full(shape, math.nan)
    for point, (lo, hi) in zip(grid.points, brackets, strict=True):
        position = tuple(point.position[i] for i in keep)
        low[position], high[position] = lo, hi
    dims = [a.dim for a in axes]
    coords = {a.dim: list(a.values) for a in axes}

    def variable(values: np.ndarray, long_name: str) -> tuple:
        return dims, values, {"units": "1", "long_name": long_name}

    return xr.Dataset({"saturation_load": variable(0.5 * (low + high), "largest stable load (midpoint "
                                                                         "of the final bisection bracket)"),
                       "saturation_low": variable(low, "largest load found stable"),
                       "saturation_high": variable(high, "smallest load found unstable")},
                      coords=coords, attrs={**attrs, "saturation_rounds": rounds})
