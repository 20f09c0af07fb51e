"""Rounds of replications (sweep/reproduce/rounds.py): what a claim reads, and parts that join into
the same Dataset one longer run gives (docs/design.md §4, §9)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.reproduce.claims import Claim, Expectation
from sweep.reproduce.rounds import Part, combine, readings, replications_at, union

_SMALL = ["policy=random", "workload=c90", "system.hosts=2", "stop.jobs=2000", "stop.warmup=200",
          "engine.backend=serial", "progress=false", "plots=false", "grid.policy=[random,lwl]",
          "grid.load=[0.5,0.7]"]


def _claim(args: dict) -> Claim:
    return Claim("test", "c", "§1", "words", "ratio", args, Expectation.parse({"value": 1}, "test"))


def test_a_claim_reads_its_policies_and_selected_labels_of_each_preset():
    claim = _claim({"numerator": {"quantity": "ratio", "preset": "a", "policy": "x", "baseline": "y",
                                  "select": {"load": [0.5, 0.8]}},
                    "denominator": {"quantity": "mean", "preset": "b", "select": {"load": 0.8}}})
    assert readings(claim, "a") == [{"policy": ["x", "y"], "load": [0.5, 0.8]}]
    assert readings(claim, "b") == [{"load": [0.8]}]
    assert readings(claim, "c") == []


def test_a_claim_reads_the_baseline_its_record_leaves_to_the_quantity():
    """CV96's ``response_ratio`` is over EQS unless the record names a baseline: the rounds must add
    EQS's replications with the policy's, or the ratio pairs four runs with one."""
    claim = Claim("cv96", "c", "§1", "words", "response_ratio",
                  {"preset": "a", "policy": "fb_pws", "select": {"load": [0.9]}},
                  Expectation.parse({"value": 1}, "test"))
    assert readings(claim, "a") == [{"policy": ["fb_pws", "eqs"], "load": [0.9]}]
    named = dataclasses.replace(claim, args={**claim.args, "baseline": "eqs_pws"})
    assert readings(named, "a") == [{"policy": ["fb_pws", "eqs_pws"], "load": [0.9]}]
    change = dataclasses.replace(claim, quantity="ratio_change",
                                 args={"presets": ["a", "b"], "policy": "fb_pws"})
    assert readings(change, "b") == [{"policy": ["fb_pws", "eqs"]}]


def test_the_union_of_readings_reads_a_dimension_whole_where_one_reading_does():
    assert union([{"policy": ["x"], "load": [0.5]}, {"policy": ["y"]}]) == {"policy": ["x", "y"]}
    assert union([{"load": [0.5]}, {"load": [0.8, 0.5]}]) == {"load": [0.5, 0.8]}
    assert union([]) is None


def test_rounds_of_replications_join_into_the_longer_run(tmp_path):
    """Replications 0-1, then 2-3 at one load only, joined: equal, value for value, to a run of
    four replications at those points; NaN where the second round did not go."""
    whole = sweep.run([*_SMALL, "replications=4", f"output={tmp_path / 'whole.nc'}"])
    first = sweep.run([*_SMALL, "replications=2", f"output={tmp_path / 'first.nc'}"])
    later = sweep.run([*_SMALL, "replications=2", "first_replication=2", "grid.load=[0.7]",
                       f"output={tmp_path / 'later.nc'}"])
    assert list(later["replication"].values) == [2, 3]
    joined = combine([first, later])
    assert list(joined["replication"].values) == [0, 1, 2, 3]
    response = joined["mean_response"]
    xr.testing.assert_equal(response.sel(load=0.7), whole["mean_response"].sel(load=0.7))
    xr.testing.assert_equal(response.sel(load=0.5, replication=[0, 1]),
                            whole["mean_response"].sel(load=0.5, replication=[0, 1]))
    assert np.isnan(response.sel(load=0.5, replication=[2, 3]).values).all()
    assert replications_at(joined, {"load": [0.7]}) == 4
    assert replications_at(joined, {}) == 2


@pytest.mark.parametrize("method", ["delta", "paired"])
def test_a_ratio_counts_only_the_replications_run_at_both_labels(method):
    from sweep.analysis import ratio

    values = np.array([[1.0, 2.0, 3.0, np.nan], [2.0, 4.1, 5.9, np.nan]])  # (policy, replication)
    da = xr.DataArray(values, dims=("policy", "replication"), coords={"policy": ["a", "b"]})
    full = ratio(da, "a", method=method).sel(policy="b")
    three = ratio(da.isel(replication=[0, 1, 2]), "a", method=method).sel(policy="b")
    assert float(full) == pytest.approx(float(three))
    assert float(full["halfwidth"]) == pytest.approx(float(three["halfwidth"]))


def test_a_round_starts_with_the_presets_whose_tasks_ran_longest(tmp_path):
    """Issue 27: a later round's parts go to the pool longest tasks first, measured per preset over
    the parts this invocation ran (a preset reused from disk: 0 s, last); ties keep their order."""
    import argparse

    from sweep.reproduce.cli import _Parts, longest_first

    runner = _Parts(tmp_path / "data", argparse.Namespace(out=tmp_path, workers=1))
    try:
        runner.parts = {"short": [Part("short", 0, 1)], "long": [Part("long", 0, 1), Part("long", 1, 7)],
                        "reused": [Part("reused", 0, 1)], "tied": [Part("tied", 0, 1)]}
        runner.longest_by_part = [(3.0, "short"), (20.0, "long"), (25.0, "long+r1"), (3.0, "tied")]
        assert [runner.longest_task(p) for p in ("short", "long", "reused", "tied")] == [3.0, 25.0, 0.0, 3.0]
        round_two = [Part(name, 1, 7) for name in ("reused", "short", "long", "tied")]
        assert [part.preset for part in longest_first(round_two, runner.longest_task)] == [
            "long", "short", "tied", "reused"]
    finally:
        runner.drawings.close()


def test_a_later_round_sends_its_tasks_one_a_batch(tmp_path):
    """A later round's tasks are long replications near saturation: batches of several would put a
    point's consecutive replications on one worker in a row (issue 27); the first round's batching is
    the engine's. The batch size is an execution setting, outside the result's fingerprint."""
    import argparse

    from sweep.reproduce.cli import _Parts

    args = argparse.Namespace(out=tmp_path, workers=16, seed=None, address=None, progress=False)
    runner = _Parts(tmp_path / "data", args)
    try:
        runner.axes["cv96_fig6b"] = {"load": "load", "policy": "policy"}
        later = runner._part_overrides(Part("cv96_fig6b", 1, 7, {"load": [0.95]}), {"cv96_fig6b": []})
        first = runner._part_overrides(Part("cv96_fig6b", 0, 1), {"cv96_fig6b": []})
    finally:
        runner.drawings.close()
    assert later[-4:] == ["replications=7", "first_replication=1", "engine.batch_size=1", "grid.load=[0.95]"]
    assert not any(o.startswith("engine.batch_size") for o in first)


class _OnePreset:
    """What ``_next_round`` asks of the runner, for one preset ``p`` of one part (replication 0)."""

    def __init__(self, dataset: xr.Dataset):
        self.parts = {"p": [Part("p", 0, 1)]}
        self.axes = {"p": {"policy": "policy", "load": "load"}}
        self._dataset = dataset

    def dataset(self, preset: str) -> xr.Dataset:
        return self._dataset

    def judgement(self, claim, datasets):
        from sweep.reproduce.claims import evaluate

        return evaluate(claim, datasets)

    def replications(self, preset: str) -> int:
        return 1

    def longest_task(self, preset: str) -> float:
        return 0.0


def _one_run(hw90: float) -> xr.Dataset:
    """Two policies at two loads, one run each: y's mean is twice x's, ± ``hw90`` of each mean."""
    mean = np.array([[[10.0], [12.0]], [[20.0], [24.0]]])  # (policy, load, replication)
    dims = ("policy", "load", "replication")
    return xr.Dataset({"mean_response": (dims, mean), "mean_response_hw90": (dims, hw90 * mean)},
                      coords={"policy": ["x", "y"], "load": [0.5, 0.9], "replication": [0]})


@pytest.mark.parametrize(("quick", "hw90", "floor", "expected"), [
    (False, 0.01, 4, [Part("p", 1, 3, {"load": [0.9], "policy": ["y", "x"]})]),  # decided, below its floor
    (False, 0.01, 1, []),                  # decided, no floor: one run's interval is judged
    (True, 0.01, 4, []),                   # --quick judges one run: no floor
    (False, 0.9, 4, [Part("p", 1, 3, {"load": [0.9], "policy": ["y", "x"]})]),  # undecided: the floor at once
])
def test_a_preset_floor_sends_every_claim_to_its_replications_decided_or_not(quick, hw90, floor, expected):
    """``min_replicate`` (issue 24: one run's batch-means interval does not cover the spread between
    runs near saturation): at full precision every claim reading the preset gets replications up to
    the floor at the points it reads, in one round, whether or not its one run decided it."""
    from sweep.reproduce.claims import Paper
    from sweep.reproduce.cli import _next_round

    claim = Claim("test", "c", "§1", "words", "mean", {"preset": "p", "variable": "mean_response",
                                                        "select": {"policy": ["y", "x"], "load": 0.9}},
                  Expectation.parse({"above": 5}, "test"))
    paper = Paper("test", "t", {"p": ()}, (claim,), budgets={"p": floor}, floors={"p": floor})
    assert _next_round([paper], _OnePreset(_one_run(hw90)), quick) == expected
