"""Malleable job streams (CV96 §3.2; docs/model-notes.md §1's reconstructed Distributions 1–4)."""

import re

import numpy as np
import pytest

from sweep.families.malleable._workload import (
    PARALLELISM,
    make_jobs,
    overall_scv,
    refitted,
    validate_workload,
)
from sweep.workloads.speedup import Eq5

BASE = {"name": "t", "kind": "malleable", "parallelism": "dist1", "demand_mean": 1000.0,
        "demand_scv": 4.0, "demand_growth": "n2", "demand_normalise": True,
        "speedup": {"model": "eq5", "phi_prime": 0.01, "beta_prime": "max"}}

# docs/model-notes.md §1 table: pmf at n = 1, 2, ..., 128 and E[N]
TABLE = {
    "dist1": ([.366, .226, .139, .086, .053, .052, .020, .059], 13.4),
    "dist3": ([.352, .217, .134, .082, .051, .050, .019, .094], 17.7),
    "dist4": ([.232, .173, .129, .096, .071, .139, .040, .121], 25.4),
}


def overall_cv(name: str, per_size_cv: float, power: int) -> float:
    d = PARALLELISM[name]
    m = d.values.astype(float) ** power / d.moment(power)
    first = np.dot(d.pmf, m)
    second = np.dot(d.pmf, (1 + per_size_cv**2) * m**2)
    return float(np.sqrt(second / first**2 - 1))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_pmf_matches_the_notes_table(name):
    pmf, mean = TABLE[name]
    np.testing.assert_allclose(PARALLELISM[name].pmf, pmf, atol=1.5e-3)
    assert PARALLELISM[name].moment(1) == pytest.approx(mean, abs=0.05)
    assert PARALLELISM[name].pmf.sum() == pytest.approx(1.0)


def test_constraints_the_reconstruction_meets():
    assert overall_cv("dist1", 10, 2) == pytest.approx(36, abs=0.1)  # Figs 6, 9
    assert overall_cv("dist3", 2, 2) == pytest.approx(6.6, abs=0.05)  # Fig 7
    d = PARALLELISM["dist1"]
    work_share = d.pmf * d.values**2 / d.moment(2)
    assert work_share[d.values >= 32].sum() == pytest.approx(0.98, abs=0.005)  # §4.1


def test_overall_cv_is_the_mixture_formula_of_the_notes():
    for name, per_size_cv in (("dist1", 10), ("dist3", 2)):
        scv = overall_scv(PARALLELISM[name], "n2", per_size_cv**2)
        assert np.sqrt(scv) == pytest.approx(overall_cv(name, per_size_cv, 2))


@pytest.mark.parametrize("p", [0.25, 0.3, 0.45, 0.5])
def test_another_p_keeps_the_printed_cw_by_resolving_p_nmax(p):
    """Distribution 3 with another geometric p (workload.parallelism_p): P_Nmax re-solved so that
    Figure 7's C_W = 6.6 (C_{W|n} = 2, m_n ∝ n²) still holds; the distribution itself moves."""
    named, other = PARALLELISM["dist3"], refitted("dist3", p, "n2", 4.0)
    assert (other.p, other.n_star, other.n_max) == (p, named.n_star, named.n_max)
    assert np.sqrt(overall_scv(other, "n2", 4.0)) == pytest.approx(6.6, abs=0.05)
    assert other.pmf.sum() == pytest.approx(1.0)
    assert abs(other.moment(1) - named.moment(1)) > 0.5


def test_the_named_p_gives_the_named_distribution_back():
    again = refitted("dist3", PARALLELISM["dist3"].p, "n2", 4.0)
    assert again.p_nmax == pytest.approx(PARALLELISM["dist3"].p_nmax, abs=1e-9)


def test_a_stream_draws_from_the_refitted_distribution():
    cfg = {**BASE, "parallelism": "dist3", "parallelism_p": 0.5}
    jobs = make_jobs(cfg, 128, 0.5, 50_000, np.random.default_rng(3))
    expected = refitted("dist3", 0.5, "n2", 4.0)
    shares = [(jobs.parallelism == n).mean() for n in expected.values]
    np.testing.assert_allclose(shares, expected.pmf, atol=0.01)


def test_a_p_no_p_nmax_can_fit_is_one_line():
    """Below p = 0.2 Distribution 1's geometric part is too flat for any P_Nmax to give C_W = 36."""
    with pytest.raises(ValueError, match=r"^workload.parallelism_p = 0.1: no P_Nmax keeps dist1's C_W = 36"):
        validate_workload({**BASE, "demand_scv": 100.0, "parallelism_p": 0.1})


def test_sampled_stream_has_the_asked_moments():
    jobs = make_jobs(BASE, 128, 0.8, 200_000, np.random.default_rng(3))
    freq = np.bincount(jobs.parallelism, minlength=129)[PARALLELISM["dist1"].values] / len(jobs)
    np.testing.assert_allclose(freq, PARALLELISM["dist1"].pmf, atol=4e-3)
    # C_W = overall_cv(dist1, 2, 2) ≈ 8: standard error of the mean ≈ 8/sqrt(2e5) ≈ 1.8%
    assert jobs.work.mean() == pytest.approx(1000.0, rel=0.08)
    rate = 0.8 * 128 / 1000.0
    assert 1 / np.diff(jobs.arrival).mean() == pytest.approx(rate, rel=0.01)
    big = jobs.parallelism == 128
    assert jobs.work[big].mean() == pytest.approx(1000 * 128**2 / PARALLELISM["dist1"].moment(2),
                                                  rel=0.05)


def test_literal_multiplier_is_an_option():
    cfg = {**BASE, "demand_normalise": False}
    jobs = make_jobs(cfg, 128, 0.5, 100_000, np.random.default_rng(3))
    d = PARALLELISM["dist1"]
    literal_mean = 1000 * d.moment(2) / d.moment(1) ** 2  # E[n²]/N̄² ≈ 9.2 × W̄
    assert literal_mean > 5000
    assert jobs.work.mean() == pytest.approx(literal_mean, rel=0.1)


def test_beta_prime_max_puts_the_speedup_peak_at_n():
    jobs = make_jobs(BASE, 128, 0.5, 1000, np.random.default_rng(0))
    np.testing.assert_allclose(np.sqrt(jobs.a / jobs.c), jobs.parallelism)  # eq. 6: M_j = N_j
    n, j = 5, int(np.argmax(jobs.parallelism))
    model = Eq5(0.01, 0.99 / jobs.parallelism[j] ** 2)
    assert jobs.a[j] / n + jobs.b[j] + jobs.c[j] * n == pytest.approx(model.time(n, jobs.work[j]))
    assert np.all(jobs.pws <= jobs.parallelism) and np.all(jobs.pws >= 1)


def test_figure5_parallelism_is_mostly_below_ten():
    cfg = {**BASE, "parallelism": "max_speedup", "demand_growth": "none", "demand_scv": 25.0,
           "speedup": {"model": "eq5", "phi_prime": 0.003, "alpha": 25.0, "beta": 25.0}}
    jobs = make_jobs(cfg, 128, 0.5, 50_000, np.random.default_rng(1))
    assert (jobs.parallelism < 10).mean() > 0.9
    assert jobs.parallelism.min() >= 1 and jobs.parallelism.max() <= 128
    np.testing.assert_array_equal(
        jobs.parallelism, np.clip(np.rint(np.sqrt(0.997 * jobs.work / 25)), 1, 128))


def test_same_generator_same_stream():
    one = make_jobs(BASE, 128, 0.7, 500, np.random.default_rng(9))
    two = make_jobs(BASE, 128, 0.7, 500, np.random.default_rng(9))
    np.testing.assert_array_equal(one.work, two.work)
    np.testing.assert_array_equal(one.arrival, two.arrival)


@pytest.mark.parametrize(("change", "message"), [
    ({"kind": "swf"}, "workload.kind must be malleable"),
    ({"parallelism": "dist9"}, "workload.parallelism must be a positive integer, one of"),
    ({"parallelism": 0}, "workload.parallelism must be"),
    ({"demand_scv": 0.5}, "workload.demand_scv must be >= 1, got 0.5"),
    ({"demand_mean": -1.0}, "workload.demand_mean must be > 0"),
    ({"demand_growth": "n3"}, "workload.demand_growth must be one of ['none', 'n', 'n2', 'nasa_ipsc']"),
    ({"demand_normalise": "yes"}, "workload.demand_normalise must be true or false"),
    ({"speedup": {"model": "amdahl"}}, "workload.speedup.model must be one of"),
    ({"speedup": {"model": "eq8", "phi": 2.0}}, "workload.speedup.phi is not an option"),
    ({"speedup": {"model": "eq5", "phi_prime": 1.5}}, "workload.speedup.phi_prime must be in [0, 1]"),
    ({"speedup": {"model": "eq2", "phi": 0.5}}, "workload.speedup.phi must be >= 1"),
    ({"parallelism": "max_speedup"}, "workload.demand_growth must be none"),
    ({"parallelism": "max_speedup", "demand_growth": "none", "speedup": {"model": "linear"}},
     "workload.parallelism: max_speedup needs a speedup with a finite maximum"),
    ({"quantum": 3}, "workload.quantum is not an option of workload kind malleable"),
    ({"parallelism": 16, "parallelism_p": 0.3}, "workload.parallelism_p needs workload.parallelism one of"),
    ({"parallelism_p": 1.0}, "workload.parallelism_p must be in (0, 1), got 1.0"),
    ({"parallelism_p": "low"}, "workload.parallelism_p must be in (0, 1), got 'low'"),
    ({"parallelism_p": 0.3, "demand_growth": "none"}, "workload.parallelism_p needs demand_growth n, n2"),
])
def test_bad_options_name_themselves(change, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        validate_workload({**BASE, **change})
