"""The closed forms (``model=analytic``): check values, exact special cases, completeness."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.dispatch import FAMILY
from sweep.families.dispatch._core import HostSystem
from sweep.families.dispatch._workload import JobStream, Workload
from sweep.workloads import Empirical

from ._util import CASES, point, usable_workload

POLICIES = load_families()["dispatch"].policies

#: docs/model-notes.md §3, C90 reconstruction, 2 hosts: E[W]·E[1/X], i.e. mean slowdown WITHOUT the +1.
C90_CHECK = {0.5: {"random": 2091, "lwl": 697, "sita_e": 202},
             0.8: {"random": 8364, "lwl": 3717, "sita_e": 808}}


@pytest.mark.parametrize("load", [0.5, 0.8])
@pytest.mark.parametrize("policy", ["random", "lwl", "sita_e"])
def test_c90_check_values(policy, load):
    """The notes' values are ``E[W]·E[1/X]``; ``mean_slowdown`` (response/service) is that + 1.

    Computed: Random 2091.1 / 8364.5, LWL 697.0 / 3717.5, SITA-E 202.0 / 807.9 without
    the +1; every one is nearer the notes' value without the +1 than with it.
    """
    slowdown = FAMILY.analytic(point(policy, "c90", load=load)).summary["mean_slowdown"]
    expected = C90_CHECK[load][policy]
    assert abs((slowdown - 1.0) - expected) < 1.0
    assert abs((slowdown - 1.0) - expected) < abs(slowdown - expected)


@pytest.mark.parametrize("policy", ["lwl", "central_queue"])
def test_central_queue_and_lwl_are_exact_mm2_for_exponential_sizes(policy):
    """Both are M/G/h FCFS (SH00 §3.3); with exponential sizes of mean 1 the approximation is
    exact M/M/2, whose mean wait is ρ² / (1 − ρ²) (μ = 1): 0.49 / 0.51 at ρ = 0.7. (That the two
    policies give the same schedule is test_equivalence's, job by job in simulation.)"""
    summary = FAMILY.analytic(point(policy, "exponential", hosts=2, load=0.7)).summary
    assert summary["mean_wait"] == pytest.approx(0.49 / 0.51, rel=1e-12)
    assert summary["mean_response"] == pytest.approx(0.49 / 0.51 + 1.0, rel=1e-12)


@pytest.mark.parametrize(("load", "response"), [(0.3, 1 + 2.7 / 1.4), (0.9, 1 + 8.1 / 0.2)])
def test_mgh_approximation_is_exact_for_one_host(load, response):
    """With the ½ (docs/model-notes.md §3) M/G/1 is Pollaczek–Khinchine exactly: hyperexp2 has mean 1
    and E[X²] = 9, so E[T] = 1 + ρ·9 / (2(1 − ρ)), worked by hand (2.93 at ρ = .3, 41.5 at ρ = .9);
    Random's closed form (P-K per host, another function) gives the same."""
    lwl = FAMILY.analytic(point("lwl", "hyperexp2", hosts=1, load=load)).summary
    random = FAMILY.analytic(point("random", "hyperexp2", hosts=1, load=load)).summary
    assert lwl["mean_response"] == pytest.approx(response, rel=1e-12)
    assert random["mean_response"] == pytest.approx(response, rel=1e-12)


def test_random_pk_formula():
    """Hyperexp2 mean 1, C² = 8 (E[X²] = 9), h = 2, ρ = .6: E[W] = (λ/2) E[X²] / (2(1 − ρ))."""
    summary = FAMILY.analytic(point("random", "hyperexp2", load=0.6)).summary
    assert summary["mean_wait"] == pytest.approx(0.6 * 9.0 / (2 * 0.4), rel=1e-12)
    assert summary["mean_response"] == pytest.approx(1.0 + 0.6 * 9.0 / 0.8, rel=1e-12)
    assert summary["mean_slowdown"] == math.inf  # E[1/X] diverges for exponential phases


@pytest.mark.parametrize(("policy", "params"), CASES)
def test_summary_is_complete(policy, params):
    result = FAMILY.analytic(point(policy, usable_workload(policy, params), hosts=3, load=0.6, **params))
    # a closed form has no batches of jobs, so no batch means
    assert set(result.summary) == {v.name for v in FAMILY.variables} - {"batch_mean_response"}
    assert result.summary["jobs"] == 0 and result.work == 0
    assert result.summary["utilization"] == pytest.approx(0.6)
    assert not result.summary["saturated"]
    for variable in FAMILY.variables:
        if variable.dims == ("host",):
            assert len(result.summary[variable.name]) == 3


@pytest.mark.parametrize(("policy", "params"), [("round_robin", {}), ("shortest_queue", {}),
                                                ("power_of_d", {"d": 2})])
def test_no_closed_form_gives_nan_but_utilization(policy, params):
    summary = FAMILY.analytic(point(policy, "hyperexp2", hosts=3, load=0.6, **params)).summary
    assert math.isnan(summary["mean_response"]) and summary["utilization"] == pytest.approx(0.6)


def test_var_slowdown_against_simulation():
    """Sizes 1, 2, 4 equally likely (all moments finite), Random, h = 2, ρ = .7.

    The P-K/Takács variance of the slowdown (``_analytic.pk_hosts``) against a long run.
    """
    sizes = Empirical([1.0, 2.0, 4.0])
    workload = Workload(sizes, sizes, key=("three sizes",))
    p = Point({"name": "random"}, {"name": "three sizes"}, {"hosts": 2}, 0.7,
              StopRule(jobs=4_000_000, warmup=10_000))
    policy = POLICIES["random"]
    expected = policy.hooks.analytic(p, workload)
    rng_arrivals, rng_sizes, rng_policy = np.random.default_rng(8).spawn(3)
    stream = JobStream(workload, workload.rate(0.7, 2), rng_arrivals, rng_sizes)
    system = HostSystem(2, policy.hooks.kernel, warmup=10_000, jobs=4_000_000, max_in_system=10**6)
    assign = policy.hooks.assigner(p, workload, rng_policy)
    arrival, size = stream.take(4_010_000)
    system.feed(arrival, size, assign(size, 0))
    got = system.summary()
    assert got["mean_slowdown"] == pytest.approx(expected["mean_slowdown"], rel=0.01)
    assert got["var_slowdown"] == pytest.approx(expected["var_slowdown"], rel=0.05)
    np.testing.assert_allclose(got["host_mean_slowdown"], expected["host_mean_slowdown"],
                               rtol=0.02)
