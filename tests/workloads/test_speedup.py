"""Speedup models (CV96 §3.2.1) against hand values and brute force."""

import numpy as np
import pytest

from sweep.workloads.speedup import (
    Eq2,
    Eq5,
    Eq8,
    Linear,
    beta_prime_at_max,
    execution_time,
    maximum_point,
    pws,
)


def test_eq5_load_imbalance_halves_efficiency_on_100_processors():
    # §4.1: φ' = 0.01 "implies that efficiency loss due to load imbalance is 50% on 100 processors"
    model = Eq5(phi_prime=0.01)
    assert model.time(100, 1000.0) == pytest.approx((1 + 99 * 0.01) * 1000 / 100)  # 19.9 s
    assert model.speedup(100, 1000.0) / 100 == pytest.approx(1 / 1.99)
    assert model.time(1, 1000.0) == pytest.approx(1000.0)  # no overhead on one processor


def test_eq5_alpha_and_beta_prime_by_hand():
    # T'(4) = (1 + 3·0.1)·200/4 + 5 + 3·0.01·200 = 65 + 5 + 6 = 76
    assert Eq5(phi_prime=0.1, beta_prime=0.01, alpha=5.0).time(4, 200.0) == pytest.approx(76.0)


def test_eq2_by_hand_and_its_maximum():
    model = Eq2(phi=1.2, alpha=10.0, beta=2.0)
    assert model.time(5, 1000.0) == pytest.approx(1.2 * 1000 / 5 + 10 + 5 * 2)  # 220
    assert model.maximum(1000.0) == pytest.approx(np.sqrt(1000 * 1.2 / 2.0))  # eq. 3
    assert np.isinf(Eq2(phi=1.0, beta=0.0).maximum(1000.0))


def test_eq6_maximum_and_eq7_efficiency():
    # eq. 6: M' = sqrt((1 − φ')/β') = sqrt(0.81/0.01) = 9, whatever W
    model = Eq5(phi_prime=0.19, beta_prime=0.01)
    np.testing.assert_allclose(model.maximum(np.array([10.0, 1e6])), 9.0)
    n = np.arange(1, 30)
    assert np.argmax(model.speedup(n, 50.0)) + 1 == 9
    # eq. 7: efficiency c on N satisfies (N−1)φ' + N(N−1)β' = 1/c − 1
    N, phi, beta = 16, 0.02, 0.001
    c = Eq5(phi, beta).speedup(N, 3.0) / N
    assert (N - 1) * phi + N * (N - 1) * beta == pytest.approx(1 / c - 1)


def test_eq8_is_eq5_with_eq9_and_its_pws_is_delta():
    delta = 100.0
    n = np.arange(1, 129)
    np.testing.assert_allclose(Eq8(delta).speedup(n, 7.0), (delta + 1) * n / (delta + n))
    np.testing.assert_allclose(Eq8(delta).time(n, 7.0), Eq5(phi_prime=1 / (1 + delta)).time(n, 7.0))
    assert Eq8(delta).speedup(100, 1.0) == pytest.approx(50.5)
    assert Eq8(delta).pws(5.0, 128) == 100
    assert Eq8(delta).pws(5.0, 64) == 64  # capped at N_j
    np.testing.assert_array_equal(Eq8(np.array([3.0, 40.0])).pws(1.0, 128), [3, 40])


def test_linear_speedup():
    model = Linear()
    assert model.time(8, 80.0) == pytest.approx(10.0)
    assert model.pws(1.0, 128) == 128  # S²/n = n grows: the cap
    assert np.isinf(model.maximum(1.0))


def test_figure5_parallelism_is_the_maximum_point():
    # docs/model-notes.md §1: W = 1000, φ' = 0.003, β = 25 s: M = sqrt((1 − φ')W/β) = 6.31
    model = Eq5(phi_prime=0.003, beta=25.0, alpha=25.0)
    assert model.maximum(1000.0) == pytest.approx(np.sqrt(997 / 25))
    assert model.time(3, 1000.0) == pytest.approx((1 + 2 * 0.003) * 1000 / 3 + 25 + 2 * 25)


def test_beta_prime_at_max_puts_the_peak_at_n():
    phi = np.array([0.0, 0.01, 0.3])
    n = np.array([1, 32, 128])
    beta = beta_prime_at_max(phi, n)
    np.testing.assert_allclose(Eq5(phi, beta).maximum(np.ones(3)), n)


def test_pws_matches_brute_force():
    rng = np.random.default_rng(5)
    size = 2000
    a = rng.uniform(1, 1e4, size)
    b = rng.uniform(-1, 1, size) * rng.choice([0, 1e-3, 1, 100], size)
    c = rng.uniform(0, 1, size) * rng.choice([0, 1e-4, 1e-2, 10], size)
    cap = rng.integers(1, 200, size)
    n = np.arange(1, 201)[:, None]
    valid = (execution_time(n, a, b, c) > 0).all(axis=0)  # every model of eqs. 1–8 has T > 0
    assert valid.mean() > 0.9
    a, b, c, cap = a[valid], b[valid], c[valid], cap[valid]
    got = pws(a, b, c, cap)
    cost = np.where(n <= cap, n * execution_time(n, a, b, c) ** 2, np.inf)
    best = cost.min(axis=0)
    # the smallest n within rounding of the minimum
    expected = np.argmax(cost <= best * (1 + 1e-12), axis=0) + 1
    np.testing.assert_array_equal(got, expected)


def test_maximum_point_arrays():
    np.testing.assert_allclose(maximum_point([4.0, 9.0, 1.0], [1.0, 1.0, 0.0]), [2.0, 3.0, np.inf])


def test_average_parallelism_against_brute_force():
    # EQS-AVG's avg (reconstructed): W / least T(n) over real n in [1, cap], rounded, within [1, cap]
    from sweep.workloads.speedup import average_parallelism

    rng = np.random.default_rng(6)
    size = 500
    a = rng.uniform(1, 1e4, size)
    b = rng.uniform(0, 50, size)
    c = rng.uniform(0, 1, size) * rng.choice([0, 1e-2, 1], size)
    cap = rng.integers(1, 129, size)
    x = np.linspace(1, 128, 128 * 400 + 1)[:, None]
    t = np.where(x <= cap, execution_time(x, a, b, c), np.inf)
    expected = np.clip(np.rint((a + b + c) / t.min(axis=0)), 1, cap)
    got = average_parallelism(a, b, c, cap)
    assert np.mean(got == expected) > 0.99  # the grid's resolution decides a few roundings
    assert np.all(np.abs(got - expected) <= 1)
