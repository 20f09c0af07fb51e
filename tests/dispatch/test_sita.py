"""SITA cutoffs: each rule does what its definition says (SH00 §1.2, §4.1, §4.4)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep.families.dispatch import FAMILY, sita_e, sita_u_opt, sita_u_rule
from sweep.families.dispatch._sita import interval_moments, mean_excess_slowdown, rate_at
from sweep.families.dispatch._workload import workload_of

from ._util import WORKLOADS, point


def _analytic(policy, workload, hosts, load, **params):
    return FAMILY.analytic(point(policy, workload, hosts=hosts, load=load, **params)).summary


@pytest.mark.parametrize("workload", ["exponential", "hyperexp2", "c90", "bounded_pareto"])
@pytest.mark.parametrize("hosts", [2, 3, 4])
def test_sita_e_equalises_load(workload, hosts):
    fractions = _analytic("sita_e", workload, hosts, 0.5)["host_load_fraction"]
    np.testing.assert_allclose(fractions, 1.0 / hosts, rtol=1e-9)


def test_sita_e_exponential_cutoff():
    """1 − e^{−c}(1 + c) = 1/2 at c = 1.678346990016..."""
    cutoff, = sita_e.rule(workload_of(WORKLOADS["exponential"]).cutoffs, 2, 0.5, {})
    assert cutoff == pytest.approx(1.6783469900166608, rel=1e-10)


def test_sita_e_on_the_c90_reconstruction_matches_the_paper():
    """SH00 §3.3: 98.7% of jobs to host 1, E[X²|host1] = 4.5e7, E[X²|host2] = 6.5e10."""
    dist = workload_of(WORKLOADS["c90"]).sizes
    moments = interval_moments(dist, sita_e.rule(dist, 2, 0.5, {}))
    p = moments[0]
    assert p[0] == pytest.approx(0.987, abs=0.0005)
    assert moments[2][0] / p[0] == pytest.approx(4.5e7, rel=0.05)
    assert moments[2][1] / p[1] == pytest.approx(6.5e10, rel=0.05)


def test_sita_e_simulated_load_split():
    p = point("sita_e", "hyperexp2", hosts=3, load=0.7, jobs=1_000_000, warmup=0)
    summary = FAMILY.simulate(p, np.random.default_rng(3)).summary
    np.testing.assert_allclose(summary["host_load_fraction"], 1 / 3, atol=0.01)


@pytest.mark.parametrize("workload", ["c90", "bounded_pareto"])
@pytest.mark.parametrize("hosts", [2, 3])
@pytest.mark.parametrize("load", [0.3, 0.5, 0.8])
def test_sita_u_fair_equalises_host_slowdowns(workload, hosts, load):
    summary = _analytic("sita_u_fair", workload, hosts, load)
    slowdowns = summary["host_mean_slowdown"]
    np.testing.assert_allclose(slowdowns, slowdowns[0], rtol=1e-6)  # partial moments: ~1e-8
    assert np.all(summary["host_load_fraction"] * hosts * load < 1.0)


@pytest.mark.parametrize("workload", ["c90", "bounded_pareto"])
@pytest.mark.parametrize("hosts", [2, 3])
@pytest.mark.parametrize("load", [0.3, 0.5, 0.8])
def test_sita_u_opt_is_best(workload, hosts, load):
    best = _analytic("sita_u_opt", workload, hosts, load)
    for other in ("sita_e", "sita_u_fair", "sita_u_rule"):
        assert best["mean_slowdown"] <= _analytic(other, workload, hosts, load)["mean_slowdown"]
    assert np.all(best["host_load_fraction"] * hosts * load < 1.0)


@pytest.mark.parametrize("load", [0.3, 0.5, 0.8])
def test_sita_u_opt_is_a_local_minimum(load):
    """h = 2, C90: moving the cutoff by ±0.1% does not lower the P-K mean slowdown."""
    from sweep.families.dispatch import sita_u_opt

    dist = workload_of(WORKLOADS["c90"]).cutoffs
    rate = rate_at(dist, 2, load)
    cutoff, = sita_u_opt.rule(dist, 2, load, {})
    best = mean_excess_slowdown(dist, rate, (cutoff,))
    for factor in (0.999, 1.001):
        assert mean_excess_slowdown(dist, rate, (cutoff * factor,)) >= best * (1 - 1e-12)


@pytest.mark.parametrize("load", [0.3, 0.5, 0.8])
def test_rule_of_thumb_two_hosts(load):
    """SH00 §4.4: host 1 gets the fraction ρ/2 of the load."""
    fractions = _analytic("sita_u_rule", "c90", 2, load)["host_load_fraction"]
    np.testing.assert_allclose(fractions, [load / 2, 1 - load / 2], rtol=1e-9)


def test_rule_of_thumb_more_hosts_reconstruction():
    """h = 4, ρ = .6: host 1 gets ρ/h = .15 (load ρ² = .36), the others .85/3 each."""
    summary = _analytic("sita_u_rule", "c90", 4, 0.6)
    np.testing.assert_allclose(summary["host_load_fraction"], [0.15, *[0.85 / 3] * 3], rtol=1e-9)
    assert summary["host_load_fraction"][0] * 4 * 0.6 == pytest.approx(0.36)
    assert sita_u_rule.host1_fraction(4, 0.6, None) == pytest.approx(0.15)


def test_rule_with_a_fixed_fraction():
    fractions = _analytic("sita_u_rule", "c90", 2, 0.5, host1_fraction=0.3)["host_load_fraction"]
    assert fractions[0] == pytest.approx(0.3, rel=1e-9)


def test_trace_cutoffs_come_from_the_first_half():
    """CTC: SITA-E's cutoff halves the work of the first half of the trace, not of all of it."""
    workload = workload_of(WORKLOADS["ctc"])
    head = workload.cutoffs.values
    assert len(head) == len(workload.sizes.values) // 2
    np.testing.assert_array_equal(head, workload.sizes.values[: len(head)])
    cutoff, = sita_e.rule(workload.cutoffs, 2, 0.5, {})
    below = head[head <= cutoff].sum() / head.sum()
    assert 0.5 <= below < 0.5 + head.max() / head.sum()
    assert FAMILY.analytic(point("sita_e", "ctc", load=0.5)).summary["host_load_fraction"][0] \
        != pytest.approx(0.5, abs=1e-3)


def test_one_host_has_no_cutoffs():
    summary = _analytic("sita_u_opt", "c90", 1, 0.5)
    assert summary["host_job_fraction"].tolist() == [1.0]
    random = _analytic("random", "c90", 1, 0.5)
    assert summary["mean_slowdown"] == pytest.approx(random["mean_slowdown"], rel=1e-12)
    assert math.isfinite(summary["mean_slowdown"])


@pytest.mark.parametrize("policy", ["sita_u_opt", "sita_u_fair"])
@pytest.mark.parametrize("load", [0.5, 0.8])
def test_cutoffs_by_simulation_agree_with_the_analysis(policy, load):
    """SH00 §4.1: cutoffs "determined both analytically and experimentally ... Both methods
    yielded about the same result". C90, 2 hosts, 2·10⁵ jobs per candidate: host 1's share of the
    work within 0.015 of the analytic cutoff's (measured: 0.004 at most at ρ = 0.5, 0.008 at 0.8)."""
    shares = [_analytic(policy, "c90", 2, load, **params)["host_load_fraction"][0]
              for params in ({}, {"cutoff_fit": "simulation", "fit_jobs": 200_000})]
    assert abs(shares[1] - shares[0]) < 0.015, shares


def test_simulated_fit_is_deterministic_and_sees_only_the_cutoff_distribution():
    """The fit's stream has its own seed: the same cutoff twice; another seed, another cutoff."""
    fit = {"cutoff_fit": "simulation", "fit_jobs": 20_000}
    dist = workload_of(WORKLOADS["ctc"]).cutoffs
    first = sita_u_opt.rule(dist, 2, 0.6, fit)
    assert sita_u_opt.rule(dist, 2, 0.6, fit) == first
    assert first[0] in dist.values  # a trace value of the first half: exact work quantiles
    assert sita_u_opt.rule(dist, 2, 0.6, {**fit, "fit_seed": 1}) != first


def test_simulated_fit_is_for_two_hosts():
    with pytest.raises(ValueError, match="cutoff_fit=simulation fits the paper's 2-host cutoff"):
        FAMILY.validate(point("sita_u_fair", "c90", hosts=3, cutoff_fit="simulation"))
    with pytest.raises(ValueError, match="cutoff_fit must be one of analytic, simulation"):
        FAMILY.validate(point("sita_u_fair", "c90", cutoff_fit="experiment"))


def test_sizes_from_rest_evaluates_out_of_sample():
    """``sizes_from: rest``: jobs drawn from the trace after the part the cutoffs are fitted on."""
    whole = workload_of(WORKLOADS["ctc"])
    rest = workload_of({**WORKLOADS["ctc"], "sizes_from": "rest"})
    np.testing.assert_array_equal(rest.cutoffs.values, whole.cutoffs.values)
    np.testing.assert_array_equal(np.concatenate([rest.cutoffs.values, rest.sizes.values]),
                                  whole.sizes.values)
