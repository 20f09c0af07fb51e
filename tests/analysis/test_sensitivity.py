"""Sensitivity indices (sweep/analysis/sensitivity.py) against functions with known indices."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.analysis.sensitivity import sensitivity


def _grid(function, levels, extra=None):
    """``function`` on the Cartesian grid of ``levels`` ({name: values}) as a Dataset."""
    coords = dict(levels, **(extra or {}))
    mesh = np.meshgrid(*coords.values(), indexing="ij")
    y = function(**dict(zip(coords, mesh, strict=True)))
    return xr.Dataset({"y": (tuple(coords), y)}, coords=coords)


def _ishigami(x1, x2, x3, a=7.0, b=0.1):
    return np.sin(x1) + a * np.sin(x2) ** 2 + b * x3 ** 4 * np.sin(x1)


def test_sobol_ishigami():
    """Ishigami (a = 7, b = 0.1), uniform on [−π, π]³: S1 = 0.314, 0.442, 0; ST = 0.558, 0.442, 0.244."""
    x = -np.pi + (np.arange(60) + 0.5) * (2 * np.pi / 60)  # midpoints: uniform inputs
    ds = _grid(_ishigami, {"x1": x, "x2": x, "x3": x})
    out = sensitivity(ds, ["x1", "x2", "x3"], variable="y")
    np.testing.assert_allclose(out["S1"].values, [0.3139, 0.4424, 0.0], atol=0.01)
    np.testing.assert_allclose(out["ST"].values, [0.5576, 0.4424, 0.2437], atol=0.01)
    assert list(out["parameter"].values) == ["x1", "x2", "x3"]


def test_morris_linear_and_kept_dims():
    """y = c·(2a + 5b): every elementary effect per whole range is 2c (a on [0, 1]), 10c (b on [0, 2]), 0."""
    def f(a, b, z, c):
        return c * (2 * a + 5 * b) + 0 * z
    ds = _grid(f, {"a": np.linspace(0, 1, 4), "b": np.linspace(0, 2, 4), "z": np.linspace(5, 6, 4)},
               {"c": np.array([1.0, -3.0])})
    out = sensitivity(ds, ["a", "b", "z"], variable="y", method="morris", trajectories=10)
    assert out["mu_star"].dims == ("parameter", "c")
    np.testing.assert_allclose(out["mu_star"].sel(c=1.0).values, [2, 10, 0], atol=1e-9)
    np.testing.assert_allclose(out["mu"].sel(c=-3.0).values, [-6, -30, 0], atol=1e-9)
    np.testing.assert_allclose(out["sigma"].values, 0, atol=1e-9)


@pytest.mark.parametrize("kwargs, message", [
    ({"dims": ["nope"]}, "nope"), ({"dims": ["x1"], "variable": "w"}, "w"),
    ({"dims": ["x1"], "method": "fast"}, "method"), ({"dims": ["x1"], "method": "morris"}, "even"),
])
def test_bad_requests_name_themselves(kwargs, message):
    ds = _grid(lambda x1, x2: x1 + x2, {"x1": np.arange(3.0), "x2": np.arange(3.0)})
    with pytest.raises(ValueError, match=message):
        sensitivity(ds, **{"variable": "y", **kwargs})


def test_tiny_rigid_run(tmp_path):
    """Slack backfilling on KTH (whole trace at 128): SF and α_u on two levels each."""
    ds = sweep.run(["policy=slack", "workload=kth", "workload.split=none", "system=sp2_128",
                    "replications=1", "grid.policy.slack_factor=[0,3]",
                    "grid.policy.alpha_u=[0.5,1]", "engine.backend=serial", "progress=false",
                    f"output={tmp_path / 's.nc'}"])
    out = sensitivity(ds, ["slack_factor", "alpha_u"])
    s1, st = out["S1"].squeeze(drop=True), out["ST"].squeeze(drop=True)
    assert ((s1 >= 0) & (s1 <= st + 1e-12) & (st <= 1 + 1e-12)).all()
    assert s1.sum() <= 1 + 1e-12
    assert s1.sel(parameter="slack_factor") > 0.5  # SF = 0 is conservative: the big change
    morris = sensitivity(ds, ["slack_factor", "alpha_u"], method="morris", trajectories=4)
    assert morris["mu"].squeeze(drop=True).sel(parameter="slack_factor") < 0  # slack lowers the wait
