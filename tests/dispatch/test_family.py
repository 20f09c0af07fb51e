"""The dispatch family as the engine sees it: registration, variables, configs, validation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sweep.config.compose import load_option
from sweep.families import FAMILIES, family_of, load_families
from sweep.families.dispatch import FAMILY
from sweep.families.dispatch._workload import workload_of
from sweep.testing.dispatch import check_simulation

from ._util import CASES, WORKLOADS, point

REGISTERED = load_families()["dispatch"].policies

CONF = Path(__file__).resolve().parents[2] / "conf" / "policy"


def test_registered_once_with_every_policy():
    assert load_families()["dispatch"] is FAMILY
    assert all(family_of(name) is FAMILY for name in FAMILY.policies)
    assert FAMILIES["dispatch"].extra_coords["host"](point("lwl", hosts=3)).tolist() == [0, 1, 2]


def test_variables_are_declared_once_with_units():
    names = [v.name for v in FAMILY.variables]
    assert len(names) == len(set(names))
    for variable in FAMILY.variables:
        assert variable.units and variable.long_name
        assert variable.dims in ((), ("host",), ("batch",))
    assert {"mean_response", "mean_wait", "mean_slowdown", "var_slowdown", "utilization", "jobs",
            "saturated", "host_load_fraction", "host_job_fraction",
            "host_mean_slowdown"} <= set(names)


@pytest.mark.parametrize("policy", list(REGISTERED))
def test_yaml_selects_the_policy(policy):
    config = load_option("policy", policy)
    assert config["name"] == policy
    assert set(config) - {"name"} == {f.name for f in dataclasses.fields(REGISTERED[policy].params)}
    FAMILY.validate(dataclasses.replace(point(policy, "c90"), policy=config))


@pytest.mark.parametrize(("policy", "params"), CASES)
def test_simulate_returns_the_declared_variables(policy, params):
    """The declared variables, and every job served once, FCFS on its host (:mod:`sweep.testing.dispatch`)."""
    check_simulation(policy, params)


def test_no_job_records_unless_asked():
    result = FAMILY.simulate(point("lwl", jobs=100), np.random.default_rng(0))
    assert result.jobs is None


def test_every_policy_sees_the_same_job_stream():
    """Common random numbers (docs/design.md §4): Random's own draws do not shift the stream."""
    streams = []
    for policy in ("random", "lwl", "sita_e", "shortest_queue"):
        p = point(policy, "hyperexp2", jobs=3000, warmup=100, record=True)
        jobs = FAMILY.simulate(p, np.random.default_rng(42)).jobs
        streams.append((jobs["arrival"], jobs["size"]))
    for arrival, size in streams[1:]:
        np.testing.assert_array_equal(arrival, streams[0][0])
        np.testing.assert_array_equal(size, streams[0][1])


def test_stream_does_not_depend_on_the_run_length():
    short = FAMILY.simulate(point("lwl", jobs=1000, record=True), np.random.default_rng(4)).jobs
    long = FAMILY.simulate(point("lwl", jobs=100_000, record=True), np.random.default_rng(4)).jobs
    np.testing.assert_array_equal(short["size"], long["size"][:1000])
    np.testing.assert_array_equal(short["arrival"], long["arrival"][:1000])


def test_same_generator_same_result_other_generator_other_result():
    p = point("random", "hyperexp2", jobs=10_000)
    first = FAMILY.simulate(p, np.random.default_rng(1)).summary
    again = FAMILY.simulate(p, np.random.default_rng(1)).summary
    other = FAMILY.simulate(p, np.random.default_rng(2)).summary
    assert first["mean_response"] == again["mean_response"] != other["mean_response"]


def test_arrival_rate_gives_the_offered_load():
    p = point("round_robin", "hyperexp2", hosts=4, load=0.6, jobs=400_000, record=True)
    jobs = FAMILY.simulate(p, np.random.default_rng(3)).jobs
    offered = jobs["size"].sum() / (4 * (jobs["arrival"][-1] - jobs["arrival"][0]))
    assert offered == pytest.approx(0.6, rel=0.03)


def test_trace_in_order_replays_the_trace():
    values = workload_of(WORKLOADS["ctc"]).sizes.values
    p = point("lwl", "ctc", jobs=len(values) + 10, record=True)
    p = dataclasses.replace(p, workload={**p.workload, "sampling": "trace_order"})
    sizes = FAMILY.simulate(p, np.random.default_rng(0)).jobs["size"]
    np.testing.assert_array_equal(sizes[: len(values)], values)
    np.testing.assert_array_equal(sizes[len(values):], values[:10])  # then again from the start


def test_trace_bootstrap_draws_trace_values():
    values = workload_of(WORKLOADS["ctc"]).sizes.values
    sizes = FAMILY.simulate(point("lwl", "ctc", jobs=5000, record=True),
                            np.random.default_rng(0)).jobs["size"]
    assert np.isin(sizes, values).all() and not np.array_equal(sizes, values[:5000])


@pytest.mark.parametrize("change, message", [
    ({"policy": {"name": "fastest"}}, "unknown dispatch policy 'fastest'; allowed: "),
    ({"policy": {"name": "lwl", "quantum": 3}}, "policy 'lwl' has no option 'quantum'; allowed: none"),
    ({"policy": {"name": "sita_u_rule", "host1_fraction": 1.5}}, "host1_fraction must be"),
    ({"policy": {"name": "sita_u_opt"}}, "needs a finite E[1/X]"),
    ({"system": {"hosts": 0}}, "system.hosts must be an integer >= 1"),
    ({"system": {"hosts": "2"}}, "system.hosts must be an integer >= 1"),
    ({"load": -0.5}, "load must be a number > 0"),
    ({"model": "exact"}, "model must be one of simulation, analytic"),
    ({"workload": {"name": "x", "kind": "gamma"}}, "workload.kind must be one of"),
    ({"workload": {"name": "h", "kind": "hyperexp2", "mean": 1.0, "scv": 0.5}}, "workload.scv"),
])
def test_validate_gives_one_line(change, message):
    with pytest.raises(ValueError) as error:
        FAMILY.validate(dataclasses.replace(point("lwl", "exponential"), **change))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_sita_u_needs_a_finite_mean_inverse_size():
    for policy in ("sita_u_opt", "sita_u_fair"):
        with pytest.raises(ValueError, match="needs a finite E\\[1/X\\]"):
            FAMILY.validate(point(policy, "exponential"))
        FAMILY.validate(point(policy, "c90"))
