"""confidence_interval, ratio, size_class_means (sweep/analysis/compare.py)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from scipy import stats

from sweep.analysis import confidence_interval, job_quantity, ratio, size_class_means


def test_confidence_interval_is_student_t():
    values = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0]])
    da = xr.DataArray(values, dims=("policy", "replication"), coords={"policy": ["a", "b"]})
    ci = confidence_interval(da, level=0.9)
    low, high = stats.t.interval(0.9, 3, loc=2.5, scale=stats.sem(values[0]))
    np.testing.assert_allclose(ci.values, [2.5, 5.0])
    np.testing.assert_allclose([ci.low[0], ci.high[0]], [low, high])
    assert float(ci.halfwidth[1]) == 0.0
    assert ci.attrs["level"] == 0.9


def test_confidence_interval_single_value_and_nan():
    one = confidence_interval(xr.DataArray([[3.0]], dims=("x", "replication")))
    assert np.isnan(one.halfwidth).all() and float(one.squeeze()) == 3.0
    gappy = confidence_interval(xr.DataArray([1.0, np.nan, 3.0], dims="replication"))
    assert float(gappy) == 2.0 and np.isfinite(float(gappy.halfwidth))
    with pytest.raises(ValueError, match="no dimension"):
        confidence_interval(xr.DataArray([1.0, 2.0], dims="load"))


def _paired(trials: int, n: int, rho: float, seed: int = 1) -> xr.DataArray:
    """``trials`` independent experiments of n paired replications: x = 2 y + noise, y ~ 10 + noise."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=(trials, n))
    y = 10 + common
    x = 2 * (10 + rho * common + np.sqrt(1 - rho**2) * rng.normal(size=(trials, n)))
    return xr.DataArray(np.stack([x, y]), dims=("policy", "trial", "replication"),
                        coords={"policy": ["x", "base"]}, name="m")


@pytest.mark.parametrize("method", ["delta", "paired"])
def test_ratio_covers_the_true_ratio(method):
    """Over 4000 experiments of 10 replications the 90% interval covers the true ratio 2 about 90%."""
    r = ratio(_paired(4000, 10, 0.5), "base", method=method).sel(policy="x")
    covered = float(((r.low <= 2.0) & (r.high >= 2.0)).mean())
    assert 0.87 < covered < 0.93, covered


def test_ratio_delta_estimate_and_common_random_numbers():
    da = _paired(1, 8, 0.95)
    r = ratio(da, "base").sel(policy="x").squeeze()
    means = da.mean("replication").squeeze()
    assert float(r) == pytest.approx(float(means.sel(policy="x") / means.sel(policy="base")))
    assert float(ratio(da, "base").sel(policy="base").squeeze()) == 1.0
    independent = ratio(_paired(1, 8, 0.0), "base").sel(policy="x").squeeze()
    assert float(r.halfwidth) < 0.5 * float(independent.halfwidth)  # positive covariance: tighter


def test_ratio_errors():
    da = _paired(1, 4, 0.5)
    with pytest.raises(ValueError, match="baseline"):
        ratio(da, "nope")
    with pytest.raises(ValueError, match="method"):
        ratio(da, "base", method="bootstrap")


def _jobs() -> xr.Dataset:
    """Two replications of four jobs each (the second with one job fewer: NaN padding)."""
    arrival = [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, np.nan]]
    size = [[1.0, 10.0, 2.0, 100.0], [1.0, 10.0, 4.0, np.nan]]
    start = [[0.0, 1.0, 11.0, 13.0], [0.0, 1.0, 11.0, np.nan]]
    end = np.array(start) + np.array(size)
    dims = ("replication", "job")
    return xr.Dataset({"arrival": (dims, arrival), "size": (dims, size), "start": (dims, start),
                       "end": (dims, end)})


def test_size_class_means_by_hand():
    """Slowdowns (end − arrival)/size: rep 0: 1, 1, 5.5, 1.1; rep 1: 1, 1, 3.25."""
    ds = _jobs()
    np.testing.assert_allclose(job_quantity(ds).values[0], [1.0, 1.0, 5.5, 1.1])
    means = size_class_means(ds, [5.0])
    np.testing.assert_allclose(means.transpose("replication", "size_class").values,
                               [[(1.0 + 5.5) / 2, (1.0 + 1.1) / 2], [(1.0 + 3.25) / 2, 1.0]])
    waits = size_class_means(ds, [5.0, 50.0], quantity="wait")
    np.testing.assert_allclose(waits.isel(replication=0).values, [4.5, 0.0, 10.0])
    assert np.isnan(float(size_class_means(ds, [0.5]).isel(size_class=0, replication=0)))
    with pytest.raises(ValueError, match="record_jobs"):
        size_class_means(ds.drop_vars("end"), [5.0])
