"""``sweep.stats.batch_means``: batch means, CI half-width, growth test (docs/design.md §6)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sweep.stats.batch_means import (
    batch_means,
    ci_halfwidth,
    controlled_mean,
    means_from_sums,
    trend_pvalue,
)


def test_batch_means_of_a_ramp():
    np.testing.assert_array_equal(batch_means(np.arange(10.0), 3), [1.0, 4.0, 7.0])  # 9 dropped
    with pytest.raises(ValueError):
        batch_means(np.arange(3.0), 4)


def test_means_from_sums_keeps_full_batches():
    np.testing.assert_array_equal(means_from_sums([10.0, 20.0, 3.0], [5, 5, 1]), [2.0, 4.0])
    assert means_from_sums([0.0], [0]).size == 0


def test_ci_covers_the_mean_about_90_percent_of_the_time():
    rng = np.random.default_rng(0)
    trials, covered = 2000, 0
    for _ in range(trials):
        means = batch_means(rng.normal(3.0, 2.0, 400), 20)
        covered += abs(means.mean() - 3.0) <= ci_halfwidth(means, 0.90)
    assert 0.87 < covered / trials < 0.93


def test_ci_halfwidth_value_and_edge_cases():
    """Means 1, 2, 3: s = 1, t_{2, .95} = 2.919986, half-width 2.919986 / sqrt(3)."""
    assert ci_halfwidth(np.array([1.0, 2.0, 3.0])) == pytest.approx(2.919986 / np.sqrt(3),
                                                                     rel=1e-6)
    assert np.isnan(ci_halfwidth(np.array([1.0])))
    with pytest.raises(ValueError):
        ci_halfwidth(np.array([1.0, 2.0]), 1.5)


def test_trend_test_sees_growth_and_not_noise():
    rng = np.random.default_rng(1)
    noise = rng.normal(size=32)
    assert trend_pvalue(noise + 0.3 * np.arange(32)) < 1e-6
    assert trend_pvalue(noise) > 0.05
    assert trend_pvalue(-np.arange(32.0)) > 0.99  # falling is not growth
    assert np.isnan(trend_pvalue(np.array([1.0, 2.0])))


def test_trend_test_resists_one_huge_batch():
    """Heavy tails: one batch 1000× the rest is not a trend (rank-based)."""
    means = np.random.default_rng(2).normal(size=32)
    means[-1] = 1000.0
    assert trend_pvalue(means) > 0.01


def test_controlled_mean_is_the_least_squares_intercept():
    """``Y = 2 + 3 (X − 1) + e``: the intercept at the known control mean, with the OLS standard error."""
    rng = np.random.default_rng(1)
    controls = rng.normal(1.0, 1.0, 30)
    means = 2.0 + 3.0 * (controls - 1.0) + rng.normal(0.0, 0.1, 30)
    estimate, halfwidth = controlled_mean(means, controls, 1.0)
    design = np.column_stack([np.ones(30), controls - 1.0])
    coef, rss, *_ = np.linalg.lstsq(design, means, rcond=None)
    se = np.sqrt(rss[0] / 28 * np.linalg.inv(design.T @ design)[0, 0])
    assert estimate == pytest.approx(coef[0], rel=1e-12)
    assert halfwidth == pytest.approx(stats.t.ppf(0.95, 28) * se, rel=1e-12)
    assert abs(estimate - 2.0) < 0.1 and halfwidth < abs(means.mean() - 2.0) + 0.2
    exact, width = controlled_mean(2.0 + 3.0 * (controls - 1.0), controls, 1.0)
    assert exact == pytest.approx(2.0) and width == pytest.approx(0.0, abs=1e-12)
    assert np.isnan(controlled_mean(means[:3], controls[:3], 1.0)[0])


def test_a_correlated_control_narrows_the_interval_and_keeps_coverage():
    """Y = X + noise with Var X = 4, Var noise = 1: the controlled interval is ~√5 times narrower
    than the plain one and still covers the true mean about 90% of the time."""
    rng = np.random.default_rng(2)
    trials, covered, ratio = 2000, 0, []
    for _ in range(trials):
        controls = rng.normal(5.0, 2.0, 20)
        means = 3.0 + (controls - 5.0) + rng.normal(0.0, 1.0, 20)
        estimate, halfwidth = controlled_mean(means, controls, 5.0)
        covered += abs(estimate - 3.0) <= halfwidth
        ratio.append(ci_halfwidth(means) / halfwidth)
    assert 0.87 < covered / trials < 0.93
    assert 2.0 < np.median(ratio) < 2.5
