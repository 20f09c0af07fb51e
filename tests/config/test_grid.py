"""Grid expansion and stream keys (docs/design.md §3, §4)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.config.compose import ConfigError, compose
from sweep.config.grid import _dim_names, build_axes, expand
from sweep.config.seeding import replication_rng, stream_key
from sweep.families import all_policies, family_of


def test_core_axes_are_always_present_and_come_first():
    axes = build_axes(compose(["grid.system.hosts=[2,4]", "policy=lwl", "load=0.6"]))
    assert [a.dim for a in axes] == ["policy", "workload", "load", "hosts"]
    assert axes[0].values == ("lwl",) and axes[2].values == (0.6,) and axes[3].values == (2, 4)


def test_colliding_last_components_keep_the_whole_key():
    names = _dim_names(["policy", "system.hosts", "a.mean", "b.mean"])
    assert names == ["policy", "hosts", "a_mean", "b_mean"]


def test_a_last_component_that_names_a_variable_keeps_the_whole_key_or_is_refused():
    assert _dim_names(["policy", "stop.jobs"], frozenset({"jobs"})) == ["policy", "stop_jobs"]
    with pytest.raises(ConfigError, match="^grid.jobs would make a dimension named 'jobs', which is a var"):
        _dim_names(["policy", "jobs"], frozenset({"jobs"}))
    axes = build_axes(compose(["grid.stop.jobs=[1000,2000]", "policy=lwl"]))
    assert [a.dim for a in axes] == ["policy", "workload", "load", "stop_jobs"]


def test_a_stop_axis_gives_each_point_its_own_stopping_rule():
    """``grid.stop.jobs`` was once a dimension whose points all ran the base rule: the same run
    labelled with different lengths."""
    overrides = ["grid.stop.jobs=[1000,3000]", "grid.stop.warmup=[10,20]", "policy=lwl"]
    grid = expand(compose(overrides), overrides)
    rules = {(p.point.stop.jobs, p.point.stop.warmup) for p in grid.points}
    assert rules == {(1000, 10), (1000, 20), (3000, 10), (3000, 20)}
    with pytest.raises(ConfigError, match=r"^stop.jobs must be an integer >= 1, got 0 \(at .*stop_jobs=0\)"):
        expand(compose(["grid.stop.jobs=[1000,0]", "policy=lwl"]), ["grid.stop.jobs=[1000,0]"])


def test_float_labels_are_rounded():
    axes = build_axes(compose(["grid.load=[0.30000000000000004,0.7]"]))
    assert axes[2].values == (0.3, 0.7)


def test_duplicate_grid_value_is_refused():
    with pytest.raises(ConfigError, match="twice"):
        build_axes(compose(["grid.load=[0.5,0.5]"]))


def test_points_are_the_cartesian_product_with_options_composed():
    cfg = compose(["grid.policy=[random,sita_e]", "grid.workload=[exponential,hyperexp2]",
                   "grid.load=[0.5,0.8]", "grid.workload.scv=[4.0,16.0]"])
    grid = expand(cfg, ["grid.policy=[random,sita_e]", "grid.workload=[exponential,hyperexp2]",
                        "grid.load=[0.5,0.8]", "grid.workload.scv=[4.0,16.0]"])
    assert grid.shape == (2, 2, 2, 2) and len(grid.points) == 16
    by_position = {p.position: p.point for p in grid.points}
    assert by_position[(1, 1, 0, 1)].policy["name"] == "sita_e"
    assert by_position[(1, 1, 0, 1)].workload["scv"] == 16.0
    assert "scv" not in by_position[(0, 0, 0, 1)].workload  # exponential has no scv: left alone


def test_stream_key_ignores_the_policy_but_not_workload_or_load():
    grid = expand(compose(["grid.policy=[random,lwl]", "grid.load=[0.5,0.8]"]),
                  ["grid.policy=[random,lwl]", "grid.load=[0.5,0.8]"])
    keys = {p.position: p.stream for p in grid.points}
    assert keys[(0, 0, 0)] == keys[(1, 0, 0)]
    assert keys[(0, 0, 0)] != keys[(0, 0, 1)]
    low, high = ({"name": "hyperexp2", "scv": scv} for scv in (4.0, 8.0))
    assert stream_key(low, 0.5) != stream_key(high, 0.5)


def test_replication_streams_are_independent_and_reproducible():
    key = stream_key({"name": "exponential", "mean": 1.0}, 0.5)
    first = replication_rng(1, key, 0).random(5)
    assert np.array_equal(first, replication_rng(1, key, 0).random(5))
    assert not np.array_equal(first, replication_rng(1, key, 1).random(5))
    assert not np.array_equal(first, replication_rng(2, key, 0).random(5))


class _LoadNotRead(float):
    """A load that fails any check reading it: a float whose every comparison and use raises."""

    def _read(self, *args):
        raise AssertionError("a family check read point.load")

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __float__ = __bool__ = _read
    __add__ = __radd__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __sub__ = __rsub__ = _read
    __hash__ = float.__hash__


@pytest.mark.parametrize("policy", sorted(all_policies()), ids=str)
def test_no_family_check_reads_the_load(policy):
    """The grid checks each combination of options once, whatever its loads
    (:func:`sweep.config.grid._checked_combinations`): sound only while the family's ``validate``,
    ``load_applied`` and ``deterministic`` never read ``point.load`` (:class:`sweep.families.Family`)."""
    overrides = [f"policy={policy}"]
    point = expand(compose(overrides), overrides).point(0).point
    object.__setattr__(point, "load", _LoadNotRead(0.5))
    family = family_of(policy)
    family.validate(point)
    for check in (family.load_applied, family.deterministic):
        if check is not None:
            check(point)


def test_every_combination_of_options_and_every_load_is_checked():
    """Checked once per combination of the other options, the loads apart: a bad option in the last
    combination and a bad load last in its axis are both found, each naming its point."""
    overrides = ["policy=lwl", "grid.load=[0.3,0.5,0.7]", "grid.system.hosts=[2,0]"]
    bad_hosts = r"^system.hosts must be an integer >= 1, got 0 \(at .*load=0.3, hosts=0\)$"
    with pytest.raises(ConfigError, match=bad_hosts):
        expand(compose(overrides), overrides)
    overrides = ["policy=lwl", "grid.load=[0.3,0.5,1e-300]", "grid.system.hosts=[2,4]"]
    with pytest.raises(ConfigError, match="^load must be a finite number >= 1e-10"):
        expand(compose(overrides), overrides)
    overrides = ["grid.policy=[lwl,random]", "grid.load=[0.3,0.5,0.7]", "grid.system.hosts=[2,4]"]
    grid = expand(compose(overrides), overrides)
    assert grid.size == 12 and grid.load_applied and not grid.deterministic
