"""One generic test over every distribution member.

``MEMBERS`` lists each member with sane parameters, like scipy's ``_distr_params``;
a new member joins by one line. Sample moments are checked against ``moment``
within 5 standard errors computed from the closed forms (``moment(2k)``).
"""

import itertools
import math

import numpy as np
import pytest

from sweep.workloads.distributions import (
    BoundedPareto,
    Distribution,
    Empirical,
    Exponential,
    Hyperexp2,
    Mixture,
    TruncatedLognormal,
)
from sweep.workloads.named import c90, j90
from sweep.workloads.parallelism import BoundedGeometric

MEMBERS: list[tuple[str, Distribution]] = [
    ("exponential", Exponential(2.0)),
    ("hyperexp2", Hyperexp2(mean=1.0, scv=8.0)),
    ("hyperexp2_scv1", Hyperexp2(mean=3.0, scv=1.0)),
    ("bounded_pareto", BoundedPareto(k=1.0, p=1000.0, alpha=1.5)),
    ("bounded_pareto_alpha2", BoundedPareto(k=1.0, p=100.0, alpha=2.0)),
    ("truncated_lognormal", TruncatedLognormal(mu=1.0, sigma=1.0, lo=0.5, hi=50.0)),
    ("lognormal", TruncatedLognormal(mu=0.0, sigma=0.5, lo=0.0, hi=math.inf)),
    ("lognormal_upper_tail", TruncatedLognormal(mu=0.0, sigma=1.0, lo=20.0, hi=40.0)),
    (
        "mixture_overlapping",
        Mixture([0.7, 0.3], [TruncatedLognormal(0.0, 1.0, 0.1, 10.0), BoundedPareto(5, 200, 1.2)]),
    ),
    ("c90", c90()),
    ("j90", j90()),
    ("empirical", Empirical(np.random.default_rng(7).lognormal(0.0, 1.0, 1000))),
    ("bounded_geometric", BoundedGeometric(p=0.3838, p_nmax=0.0466)),
]
IDS = [name for name, _ in MEMBERS]
DISTRIBUTIONS = [distribution for _, distribution in MEMBERS]
SAMPLE_SIZE = 400_000


@pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=IDS)
def test_sample_moments_match_closed_forms(distribution):
    sample = distribution.sample(np.random.default_rng(20240601), SAMPLE_SIZE)
    assert sample.dtype == np.float64 and sample.shape == (SAMPLE_SIZE,)
    lo, hi = distribution.support
    assert lo <= sample.min() and sample.max() <= hi
    for k in (1, 2, -1):
        expected = distribution.moment(k)
        if not math.isfinite(expected):  # E[1/X] of exponential phases diverges
            assert k == -1 and lo == 0
            continue
        standard_error = math.sqrt((distribution.moment(2 * k) - expected**2) / SAMPLE_SIZE)
        measured = np.mean(sample**k)
        assert abs(measured - expected) <= 5 * standard_error + 1e-12 * expected, k


@pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=IDS)
def test_cdf_inverts_ppf(distribution):
    if isinstance(distribution, Empirical):  # a step cdf: exact on its own steps
        count = len(distribution.values)
        q = np.arange(1, count + 1) / count
    elif isinstance(distribution, BoundedGeometric):
        q = np.cumsum(distribution.pmf)
    else:
        q = np.linspace(0.0005, 0.9995, 1000)
    np.testing.assert_allclose(distribution.cdf(distribution.ppf(q)), q, rtol=1e-9, atol=1e-12)
    lo, hi = distribution.support
    assert distribution.cdf(lo - 1.0) == 0.0 and distribution.cdf(hi) == 1.0
    assert distribution.ppf(0.0) == pytest.approx(lo) and distribution.ppf(1.0) == hi


@pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=IDS)
def test_partial_moments_over_a_partition_add_up(distribution):
    inner = distribution.ppf(np.array([0.1, 0.5, 0.9, 0.99]))
    edges = [-math.inf, *inner, math.inf]
    for k in (-1, 0, 1, 2, 3):
        total = distribution.moment(k)
        parts = [distribution.partial_moment(k, a, b) for a, b in itertools.pairwise(edges)]
        if math.isfinite(total):
            assert sum(parts) == pytest.approx(total, rel=1e-9), k
        else:
            assert not math.isfinite(parts[0]), k
    assert distribution.moment(0) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=IDS)
def test_partial_zeroth_moment_is_probability(distribution):
    lo, hi = distribution.support
    points = [lo - 1.0, *distribution.ppf(np.array([0.05, 0.3, 0.7, 0.95])), hi, hi + 1.0]
    for a, b in itertools.pairwise(points):
        expected = distribution.cdf(b) - distribution.cdf(a)
        assert distribution.partial_moment(0, a, b) == pytest.approx(expected, rel=1e-9, abs=1e-14)


@pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=IDS)
def test_mean_and_scv_are_the_moments(distribution):
    mean, second = distribution.moment(1), distribution.moment(2)
    assert distribution.mean == mean
    assert distribution.scv == pytest.approx(second / mean**2 - 1)
    assert distribution.variance == pytest.approx(second - mean**2)


def test_known_closed_forms():
    assert Exponential(2.0).moment(3) == pytest.approx(6 * 2.0**3)
    assert Exponential(2.0).moment(-1) == math.inf
    hyperexp = Hyperexp2(mean=5.0, scv=16.0)
    assert hyperexp.mean == pytest.approx(5.0) and hyperexp.scv == pytest.approx(16.0)
    # bounded Pareto with alpha = 1: E[X] = k p ln(p/k) / (p - k)
    assert BoundedPareto(2.0, 50.0, 1.0).mean == pytest.approx(2 * 50 * math.log(25) / 48)
    # HCM's B(332.1, 1e10, 1.1) has mean 3000 (docs/model-notes.md §3)
    assert BoundedPareto(332.1, 1e10, 1.1).mean == pytest.approx(3000, rel=1e-3)
    values = np.array([1.0, 2.0, 4.0])
    empirical = Empirical(values)
    assert empirical.moment(-1) == pytest.approx(np.mean(1 / values))
    assert empirical.partial_moment(1, 1.0, 2.0) == pytest.approx(2.0 / 3)


def test_bounded_geometric_by_hand():
    # p = 1/2 on 1, 2, 4 with 1/4 at n_max = 4: (3/4)(1/2, 1/4, 1/8), the tail 1/8 folded onto
    # n_star = 2, then + 1/4 at 4: pmf 3/8, 9/32, 11/32; E[N] = 37/16, E[N²] = 7
    distribution = BoundedGeometric(p=0.5, p_nmax=0.25, n_star=2, n_max=4)
    np.testing.assert_array_equal(distribution.values, [1, 2, 4])
    np.testing.assert_allclose(distribution.pmf, [3 / 8, 9 / 32, 11 / 32], rtol=1e-15)
    assert distribution.mean == pytest.approx(37 / 16, rel=1e-15)
    assert distribution.moment(2) == pytest.approx(7.0, rel=1e-15)
    assert distribution.cdf(3.9) == pytest.approx(3 / 8 + 9 / 32)
    assert distribution.ppf(0.375) == 1.0 and distribution.ppf(0.376) == 2.0
    sizes = distribution.sizes(np.random.default_rng(5), 1000)
    assert sizes.dtype == np.int64
    np.testing.assert_array_equal(sizes, distribution.sample(np.random.default_rng(5), 1000))


def test_hyperexp2_per_draw_parameters():
    # constant parameters: the very draws of sample(), the generator left in the same state
    one, two = np.random.default_rng(8), np.random.default_rng(8)
    each = Hyperexp2.sample_each(one, 3.0, 2.0, 1000)
    np.testing.assert_array_equal(each, Hyperexp2(3.0, 4.0).sample(two, 1000))
    assert one.random() == two.random()
    # per-draw parameters: every draw from its own law (moments of each group)
    size = 400_000
    mean = np.where(np.arange(size) % 2 == 0, 1.0, 100.0)
    cv = np.where(np.arange(size) % 2 == 0, 1.0, 3.0)
    draws = Hyperexp2.sample_each(np.random.default_rng(9), mean, cv, size)
    for group, (m, c) in enumerate([(1.0, 1.0), (100.0, 3.0)]):
        part = draws[group::2]
        # the mean within 5 standard errors (m c / sqrt(n)); the CV within 5%, 4 standard errors
        # of the sample CV for C = 3 (its E[X^4] = 4! Σ p_i m_i^4 ≈ 10^4 m^4) and n = 2·10^5
        assert part.mean() == pytest.approx(m, abs=5 * m * c / np.sqrt(part.size))
        assert (part.std() / part.mean()) == pytest.approx(c, rel=0.05)


def test_same_seed_same_sample():
    distribution = c90()
    first = distribution.sample(np.random.default_rng(3), 1000)
    np.testing.assert_array_equal(first, distribution.sample(np.random.default_rng(3), 1000))


@pytest.mark.parametrize(
    ("build", "parameter"),
    [
        (lambda: Exponential(-1.0), "mean"),
        (lambda: Hyperexp2(1.0, 0.5), "scv"),
        (lambda: Hyperexp2(math.nan, 2.0), "mean"),
        (lambda: BoundedPareto(10.0, 5.0, 1.0), "p"),
        (lambda: BoundedPareto(1.0, 5.0, 0.0), "alpha"),
        (lambda: TruncatedLognormal(0.0, -1.0, 1.0, 2.0), "sigma"),
        (lambda: TruncatedLognormal(0.0, 1.0, 3.0, 2.0), "hi"),
        (lambda: Mixture([0.5, 0.6], [Exponential(1), Exponential(2)]), "weights"),
        (lambda: Empirical([1.0, -2.0]), "values"),
        (lambda: Empirical([]), "values"),
        (lambda: BoundedGeometric(p=1.5, p_nmax=0.1), "p"),
        (lambda: BoundedGeometric(p=0.5, p_nmax=0.1, n_max=100), "n_max"),
        (lambda: BoundedGeometric(p=0.5, p_nmax=0.1, n_star=3), "n_star"),
    ],
)
def test_bad_parameters_raise_one_line_naming_them(build, parameter):
    with pytest.raises(ValueError, match=f": {parameter} must be ") as caught:
        build()
    assert "\n" not in str(caught.value)


def test_bad_arguments_to_methods():
    distribution = Exponential(1.0)
    with pytest.raises(ValueError, match="q must lie in"):
        distribution.ppf(1.5)
    with pytest.raises(ValueError, match="lo <= hi"):
        distribution.partial_moment(1, 2.0, 1.0)
    with pytest.raises(ValueError, match="size"):
        distribution.sample(np.random.default_rng(0), -1)
