"""Simulation against queueing theory, with tolerances from the batch-means CI (STYLE 6).

- Random with exponential sizes: every host is M/M/1 at load ρ, ``E[T] = E[X]/(1 − ρ)``.
- Least-Work-Left with exponential sizes is M/M/h (SH00 §3.3):
  ``E[T] = E[X] + C(h, ρh) E[X] / (h(1 − ρ))`` with Erlang-C ``C``; checked within 1%
  with a 90% half-width below 0.5%, so that 1% is beyond the noise.
- Random and SITA-E with Hyperexp2 sizes (C² = 8): Pollaczek–Khinchine per host
  (SH00 Theorem 1), within three 90% half-widths.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.dispatch import FAMILY
from sweep.families.dispatch._analytic import erlang_c

from ._util import point

# Jobs per point: the 90% half-width of E[T] is then about 0.2% at ρ = .5, 0.4% at ρ = .8.
JOBS = {0.5: 4_000_000, 0.8: 16_000_000}


def _simulate(policy, workload, hosts, load, seed=2024):
    jobs = JOBS[load]
    p = point(policy, workload, hosts=hosts, load=load, jobs=jobs, warmup=jobs // 20)
    return FAMILY.simulate(p, np.random.default_rng(seed)).summary


def _within_one_percent(summary, expected):
    assert summary["mean_response_hw90"] < 0.005 * expected
    assert summary["mean_response"] == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize("load", [0.5, 0.8])
def test_random_exponential_is_mm1_per_host(load):
    summary = _simulate("random", "exponential", 2, load)
    _within_one_percent(summary, 1.0 / (1.0 - load))
    assert summary["mean_wait"] == pytest.approx(load / (1.0 - load), rel=0.02)
    assert summary["utilization"] == pytest.approx(load, rel=0.01)
    assert not summary["saturated"]
    np.testing.assert_allclose(summary["host_job_fraction"], 0.5, atol=0.002)


@pytest.mark.parametrize("hosts", [2, 4])
@pytest.mark.parametrize("load", [0.5, 0.8])
def test_lwl_exponential_is_mmh(hosts, load):
    summary = _simulate("lwl", "exponential", hosts, load)
    wait = erlang_c(hosts, load * hosts) / (hosts * (1.0 - load))
    _within_one_percent(summary, 1.0 + wait)
    assert summary["mean_wait"] == pytest.approx(wait, rel=0.03)
    assert summary["utilization"] == pytest.approx(load, rel=0.01)


def test_erlang_c_known_values():
    """M/M/2 at a = 1.6: C = (a²/2)/(1 − ρ) / (1 + a + (a²/2)/(1 − ρ)) = 6.4/9."""
    assert erlang_c(2, 1.6) == pytest.approx(6.4 / 9.0, rel=1e-12)
    assert erlang_c(1, 0.7) == pytest.approx(0.7, rel=1e-12)  # M/M/1: P(wait) = ρ


@pytest.mark.parametrize("policy", ["random", "sita_e"])
@pytest.mark.parametrize("load", [0.5, 0.8])
def test_hyperexp2_matches_pollaczek_khinchine(policy, load):
    summary = _simulate(policy, "hyperexp2", 2, load)
    expected = FAMILY.analytic(point(policy, "hyperexp2", hosts=2, load=load)).summary
    tolerance = 3.0 * summary["mean_response_hw90"]
    assert tolerance < 0.05 * expected["mean_response"]
    assert abs(summary["mean_response"] - expected["mean_response"]) < tolerance
    np.testing.assert_allclose(summary["host_load_fraction"], expected["host_load_fraction"],
                               atol=0.01)
    np.testing.assert_allclose(summary["host_job_fraction"], expected["host_job_fraction"],
                               atol=0.002)
