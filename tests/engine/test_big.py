"""Big designs (issue 18 part 4): lazy points, columnar records, one copy of the results.

A 10^4-point closed-form grid is checked value by value against a plain loop
over the same points; an interrupted big sweep resumes to the same Dataset;
the driver holds the results once.
"""

from __future__ import annotations

import itertools
import math
import tracemalloc

import numpy as np
import pytest
import xarray as xr

import sweep.engine.runner as runner
import sweep.engine.tasks
from sweep.config.compose import compose, section
from sweep.engine.checkpoint import decode_records, encode_records
from sweep.engine.dataset import reproducible
from sweep.engine.records import Record, RecordBatch, concat
from sweep.families import Point, StopRule, family_of

POLICIES = ("random", "lwl", "central_queue")
HOSTS = (2, 4, 8, 16)
LOADS = tuple(round(0.05 + 0.9 * i / 28, 6) for i in range(28))
ALPHAS = tuple(round(1.05 + 0.9 * i / 30, 6) for i in range(30))  # 3 x 4 x 28 x 30 = 10,080 points


def _overrides(output, loads=LOADS, alphas=ALPHAS) -> list[str]:
    return ["workload=bounded_pareto", "model=analytic", f"grid.policy=[{','.join(POLICIES)}]",
            f"grid.load=[{','.join(map(str, loads))}]", f"grid.workload.alpha=[{','.join(map(str, alphas))}]",
            f"grid.system.hosts=[{','.join(map(str, HOSTS))}]", "replications=1", "progress=false",
            "plots=false", "engine.backend=serial", f"output={output}"]


def _reference(loads, alphas) -> dict[str, np.ndarray]:
    """Each point's closed form by a plain loop over the Cartesian product (no engine code)."""
    base = compose(["workload=bounded_pareto"])
    workload, system = section(base, "workload"), section(base, "system")
    stop = StopRule(**section(base, "stop"))
    names = ("mean_response", "mean_slowdown", "utilization", "saturated", "host_load_fraction")
    expected = {name: [] for name in names}
    for policy, load, alpha, hosts in itertools.product(POLICIES, loads, alphas, HOSTS):
        point = Point(policy={"name": policy}, workload={**workload, "alpha": alpha},
                      system={**system, "hosts": hosts}, load=load, stop=stop, model="analytic")
        summary = family_of(policy).analytic(point).summary
        for name in names:
            value = np.asarray(summary[name], dtype=float)
            expected[name].append(np.pad(value, (0, max(HOSTS) - value.size), constant_values=np.nan)
                                  if value.ndim else value)
    return {name: np.asarray(values) for name, values in expected.items()}


def test_a_10000_point_grid_equals_a_plain_loop_and_is_held_once(tmp_path, monkeypatch):
    kept = []
    real = runner.ResultArrays.dataset

    def keep(self, attrs):
        kept.append(self)
        return real(self, attrs)

    monkeypatch.setattr(runner.ResultArrays, "dataset", keep)
    warm = _overrides(tmp_path / "warm.nc", LOADS[:1], ALPHAS[:1])  # imports and caches before measuring
    runner.run_config(compose(warm), warm)
    kept.clear()
    overrides = _overrides(tmp_path / "big.nc")
    tracemalloc.start()
    dataset, _ = runner.run_config(compose(overrides), overrides)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    points = math.prod(dataset.sizes[d] for d in ("policy", "load", "alpha", "hosts"))
    assert points == 10_080
    expected = _reference(LOADS, ALPHAS)
    for name, values in expected.items():
        got = dataset[name].transpose("policy", "workload", "load", "alpha", "hosts", "replication", ...)
        np.testing.assert_array_equal(got.values.reshape(values.shape), values, err_msg=name)
    # one copy: the Dataset's variables are the arrays the records were copied into
    (results,) = kept
    for name, values in results.arrays.items():
        assert np.shares_memory(dataset[name].values, values), name
    # the driver's Python allocations at their peak (measured 12 MB): the results, the netCDF
    # write's buffers and one batch of records in flight, not objects per point (a Record, a
    # Task and a Point with its own config dicts, about 2 KiB each)
    assert peak < 2 * dataset.nbytes + 16 * 2**20, (peak, dataset.nbytes)
    xr.testing.assert_identical(xr.load_dataset(tmp_path / "big.nc"), dataset)


def test_an_interrupted_big_sweep_resumes_exactly(tmp_path, monkeypatch):
    loads, alphas = LOADS[:10], ALPHAS[:10]  # 1,200 points
    overrides = [*_overrides(tmp_path / "r.nc", loads, alphas), "engine.batch_size=100",
                 "engine.checkpoint_seconds=0"]
    calls = []
    real = sweep.engine.tasks.run_task

    def interrupted(task):
        if len(calls) == 500:
            raise KeyboardInterrupt
        calls.append(task.key)
        return real(task)

    monkeypatch.setattr(sweep.engine.tasks, "run_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run_config(compose(overrides), overrides)
    monkeypatch.setattr(sweep.engine.tasks, "run_task", real)
    prepared = runner.prepare(compose(overrides), overrides)
    assert len(prepared.done) == 500 and len(prepared.tasks) == 700  # five whole batches were saved
    assert set(prepared.done.index.tolist()).isdisjoint(t.index for t in prepared.tasks)
    [resumed] = runner.run_many([prepared])
    uninterrupted = _overrides(tmp_path / "f.nc", loads, alphas)
    fresh = runner.run_config(compose(uninterrupted), uninterrupted)[0]
    xr.testing.assert_identical(reproducible(resumed.dataset), reproducible(fresh))


def test_record_batches_round_trip_through_take_concat_and_shards():
    uniform = [Record(i, 0, {"mean": 0.5 * i, "per_host": np.arange(3.0)}, None, 1) for i in range(4)]
    assert [r.summary["mean"] for r in RecordBatch.from_records(uniform)] == [0.0, 0.5, 1.0, 1.5]
    notes = [{"note": f"x{i}"} if i % 5 == 0 else {} for i in range(12)]
    records = [Record(i, i % 2, {"mean": 0.5 * i, "n": i, "ok": i % 3 == 0,
                                 "per_host": np.arange(i % 4.0 + 1), **notes[i]},
                      {"size": np.arange(i, dtype=np.int32)} if i % 2 else None, 10 * i,
                      {"source": "kth"} if i % 4 == 0 else {}) for i in range(12)]
    batch = RecordBatch.from_records(records)
    halves = [batch.take(np.arange(0, 5)), batch.take(np.arange(5, 12))]
    for restored in (concat(halves), decode_records(encode_records(concat(halves)))):
        for original, back in zip(records, restored, strict=True):
            assert (back.index, back.replication, back.work, back.attrs) == \
                (original.index, original.replication, original.work, original.attrs)
            assert back.summary.keys() == original.summary.keys()
            for name, value in original.summary.items():
                np.testing.assert_array_equal(back.summary[name], value)
                assert type(back.summary[name]) is type(value)
            assert (back.jobs is None) == (original.jobs is None)
            for name, column in (original.jobs or {}).items():
                np.testing.assert_array_equal(back.jobs[name], column, strict=True)


def test_a_large_grid_says_it_is_being_made_before_its_points_are_checked(tmp_path, monkeypatch, capsys):
    """Checking a grid near the largest one output holds takes seconds: it is said first, not silent."""
    monkeypatch.setattr(runner, "LARGE_GRID", 3 * 4 * 2 * 2 - 1)
    overrides = [*_overrides(tmp_path / "said.nc", LOADS[:2], ALPHAS[:2]), "progress=true"]
    runner.prepare(compose(overrides), overrides).lock.release()
    assert capsys.readouterr().err == "sweep: making and checking the grid's 48 points...\n"
    monkeypatch.setattr(runner, "LARGE_GRID", 48)
    runner.prepare(compose(overrides), overrides).lock.release()
    assert capsys.readouterr().err == ""
