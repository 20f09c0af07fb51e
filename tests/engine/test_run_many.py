"""Several sweeps on one pool (docs/design.md §3, §9): shared tasks run once, each sweep written whole."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import xarray as xr

import sweep
import sweep.engine.tasks
from sweep.config.compose import compose
from sweep.engine.dataset import reproducible
from sweep.engine.runner import prepare, run_many
from sweep.engine.tasks import TaskFailed

SMALL = ["workload=hyperexp2", "replications=2", "stop.jobs=5000", "stop.warmup=500", "progress=false",
         "engine.backend=serial"]
FIRST = ["grid.policy=[random,lwl]", "grid.load=[0.5,0.8]"]
SECOND = ["grid.policy=[lwl,sita_e]", "grid.load=[0.8]"]  # shares lwl at 0.8 with FIRST


def _prepared(tmp_path: Path, name: str, overrides: list[str]):
    overrides = [*SMALL, *overrides, f"output={tmp_path / name}"]
    return prepare(compose(overrides), overrides, label=name)


@pytest.fixture
def counted_runs(monkeypatch):
    """How many tasks the serial backend really computes."""
    calls = []
    real = sweep.engine.tasks.run_task

    def counting(task):
        calls.append(task.key)
        return real(task)

    monkeypatch.setattr(sweep.engine.tasks, "run_task", counting)
    return calls


def test_shared_tasks_run_once_and_fill_every_sweep(tmp_path, counted_runs, capsys):
    finished = run_many([_prepared(tmp_path, "a.nc", FIRST), _prepared(tmp_path, "b.nc", SECOND)])
    assert len(counted_runs) == 2 * 4 + 2 * 2 - 2  # lwl at 0.8, two replications, once
    alone = sweep.run([*SMALL, *SECOND, f"output={tmp_path / 'alone.nc'}"])
    xr.testing.assert_identical(reproducible(finished[1].dataset), reproducible(alone))
    for one in finished:
        xr.testing.assert_identical(xr.load_dataset(one.output), one.dataset)
    assert [one.label for one in finished] == ["a.nc", "b.nc"]
    err = capsys.readouterr().err
    assert "[a.nc]" in err and "[b.nc]" in err


def test_a_finished_sweep_is_written_when_a_later_one_fails(tmp_path):
    broken = _prepared(tmp_path, "broken.nc", ["grid.load=[0.5]"])
    task = broken.tasks[0]
    broken.tasks[0] = dataclasses.replace(task, point=dataclasses.replace(task.point, workload={}))
    with pytest.raises(TaskFailed):
        run_many([_prepared(tmp_path, "good.nc", ["grid.load=[0.5]"]), broken])
    assert (tmp_path / "good.nc").exists() and not (tmp_path / "broken.nc").exists()


_COMPOSED = [["experiment=sh00_fig2", "output=/nonexistent/a.nc"],
             ["experiment=tf99_table1", "output=/nonexistent/b.nc"],
             ["experiment=ipg00_table3", "grid.policy=[gradient,rate_of_change]", "output=/nonexistent/c.nc"]]


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_configs_composed_in_a_pool_are_those_composed_here(monkeypatch, start):
    """Issue 27: sweep-reproduce composes its presets in a pool of processes (the configs travel as
    plain containers; spawned once Ray's threads exist): the same config text, the same grid, point
    for point."""
    import multiprocessing

    from sweep.engine import runner
    from sweep.engine.runner import composed, resolved_yaml

    monkeypatch.setattr(runner, "_pool_context", lambda: multiprocessing.get_context(start))
    here, pooled = list(composed(_COMPOSED, processes=1)), list(composed(_COMPOSED, processes=2))
    for (cfg, grid), (pooled_cfg, pooled_grid) in zip(here, pooled, strict=True):
        assert resolved_yaml(pooled_cfg) == resolved_yaml(cfg)
        assert pooled_cfg.hydra.runtime.choices.experiment == cfg.hydra.runtime.choices.experiment
        assert [pooled_grid.point(i) for i in range(pooled_grid.size)] == \
            [grid.point(i) for i in range(grid.size)]


def test_a_bad_config_in_the_pool_raises_at_its_turn():
    from sweep.config.compose import ConfigError
    from sweep.engine.runner import composed

    configs = composed([_COMPOSED[0], ["policy=fastest"]], processes=2)
    assert next(configs)[0].hydra.runtime.choices.experiment == "sh00_fig2"
    with pytest.raises(ConfigError, match="'fastest'"):
        next(configs)
