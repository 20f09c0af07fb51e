"""saturation (load grid) and saturation_search (bisection) (sweep/analysis/saturation.py)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from sweep.analysis import saturation, saturation_search
from sweep.analysis.saturation import unstable

LOADS = [0.5, 0.7, 0.9, 1.1]


def _grid(saturated: np.ndarray, metric: np.ndarray | None = None) -> xr.Dataset:
    """policy × load × replication from ``saturated`` (and the metric, default 1 + load)."""
    dims = ("policy", "load", "replication")
    coords = {"policy": ["a", "b"], "load": LOADS, "replication": [0, 1, 2]}
    if metric is None:
        metric = np.broadcast_to(1.0 + np.array(LOADS)[None, :, None], saturated.shape).copy()
    return xr.Dataset({"saturated": (dims, saturated), "mean_response": (dims, metric)}, coords=coords)


def test_grid_saturation_per_replication_with_ci():
    sat = np.zeros((2, 4, 3), dtype=bool)
    sat[0, 3, :] = True                    # a: stable up to 0.9 in every replication
    sat[1, 2:, 0] = True                   # b: 0.7, 0.9, 0.9 (replication 0 saturates at 0.9)
    sat[1, 3, 1:] = True
    out = saturation(_grid(sat))
    np.testing.assert_allclose(out.values, [0.9, (0.7 + 0.9 + 0.9) / 3])
    assert float(out.halfwidth[0]) == pytest.approx(0.0, abs=1e-12)
    assert float(out.halfwidth[1]) > 0.0 and float(out.low[1]) < float(out[1]) < float(out.high[1])
    assert not out["censored"].any()


def test_grid_saturation_needs_every_smaller_load_stable_and_flags_censoring():
    sat = np.zeros((2, 4, 3), dtype=bool)
    sat[0, 1, :] = True                    # a: unstable at 0.7, "stable" again at 0.9: answer 0.5
    sat[1, 0, :] = True                    # b: unstable already at the smallest load: NaN
    out = saturation(_grid(sat))
    assert float(out[0]) == 0.5 and np.isnan(float(out[1]))
    censored = saturation(_grid(np.zeros((2, 4, 3), dtype=bool)))
    assert censored["censored"].all() and np.allclose(censored.values, 1.1)


def test_grid_saturation_metric_blowup():
    metric = np.ones((2, 4, 3))
    metric[:, 2:, :] = 50.0                # blows up from 0.9 on, never flagged
    ds = _grid(np.zeros((2, 4, 3), dtype=bool), metric)
    assert np.allclose(saturation(ds, blowup=10).values, 0.7)
    assert np.allclose(saturation(ds).values, 1.1)
    with pytest.raises(ValueError, match="no variable"):
        saturation(ds, metric="nope")


def test_unstable_detects_growth_without_the_flag():
    """A run whose response times grow linearly is unstable; a flat noisy one is not."""
    rng = np.random.default_rng(3)
    n = 4000
    arrival = np.arange(n, dtype=float)
    flat = rng.exponential(size=n)
    growing = flat + 0.01 * arrival
    dims = ("policy", "replication", "job")
    ds = xr.Dataset({"arrival": (dims, np.broadcast_to(arrival, (2, 1, n))),
                     "end": (dims, np.stack([arrival + flat, arrival + growing])[:, None, :]),
                     "saturated": (("policy", "replication"), [[False], [False]])},
                    coords={"policy": ["flat", "growing"]})
    assert unstable(ds).squeeze().values.tolist() == [False, True]


def test_search_finds_the_saturation_load():
    """Bisection on exponential sizes: a SITA split giving host 1 the fraction f of the work
    overloads host 2 (load 2 (1 − f) ρ) from ρ = 1 / (2 (1 − f)) on: 0.625 for f = 0.2, and
    1 for f = 0.5 (SITA-E's split)."""
    over = {"policy.host1_fraction": [0.2, 0.5]}
    out = saturation_search(["policy=sita_u_rule", "workload=exponential"], over,
                            lo=0.3, hi=1.3, tol=0.02, jobs=20_000, replications=2)
    assert list(out["host1_fraction"].values) == [0.2, 0.5]
    assert np.all(out.high - out.low <= 0.02)
    np.testing.assert_allclose(out.values, [0.625, 1.0], atol=0.02)
    with pytest.raises(ValueError, match="must be stable"):
        saturation_search(["policy=lwl", "workload=exponential"], lo=1.2, hi=1.3, jobs=5_000)
