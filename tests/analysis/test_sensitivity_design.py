"""Sensitivity indices of sample designs (sweep/analysis/sensitivity.py; docs/sensitivity.md; issue 17)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.analysis.sensitivity import sensitivity
from sweep.config.design import ATTRIBUTE, SAMPLERS, draw, to_json

#: The M/G/h closed form of Central-Queue (SH00 §3.3; docs/model-notes.md §3) over load, C^2, hosts.
ANALYTIC = ["policy=central_queue", "workload=hyperexp2", "model=analytic", "replications=1",
            "progress=false", "plots=false", "engine.backend=serial"]
RANGES = {"load": (0.3, 0.7), "scv": (1.0, 8.0)}
HOSTS = [1, 2, 3, 4]


def _midpoints(low: float, high: float, cells: int) -> str:
    return "[" + ",".join(f"{low + (i + 0.5) * (high - low) / cells:.12g}" for i in range(cells)) + "]"


def _quadrature(tmp_path, cells: int) -> xr.Dataset:
    """Exact ANOVA indices on the grid of cell midpoints: the midpoint rule for uniform inputs."""
    ds = sweep.run([*ANALYTIC, f"grid.load={_midpoints(*RANGES['load'], cells)}",
                    f"grid.workload.scv={_midpoints(*RANGES['scv'], cells)}",
                    f"grid.system.hosts=[{','.join(map(str, HOSTS))}]",
                    f"output={tmp_path / f'q{cells}.nc'}"])
    return sensitivity(ds, ["load", "scv", "hosts"]).squeeze(drop=True)


def test_saltelli_agrees_with_quadrature_of_the_closed_form(tmp_path):
    """Saltelli (N = 512, 4,096 points) against quadrature of the same closed form.

    Hosts (an integer key) are sampled equally likely on 1..4, as the grid weighs its four
    values; load and C² are uniform, as the grid's midpoints. The quadrature has converged:
    doubling the grid (10 -> 20 cells a side) moves no index by more than 0.005 (measured:
    20 -> 40 moves none by more than 0.001). Every S1, ST and S2 estimate lies within one
    half-width of its 95% bootstrap interval (SALib's ``*_conf``) of the quadrature.
    """
    ds = sweep.run([*ANALYTIC, "design=saltelli", "design.samples=512",
                    *(f"design.params.{k}=[{lo},{hi}]" for k, (lo, hi) in
                      (("load", RANGES["load"]), ("workload.scv", RANGES["scv"]),
                       ("system.hosts", (HOSTS[0], HOSTS[-1])))),
                    f"output={tmp_path / 's.nc'}"])
    estimate = sensitivity(ds).squeeze(drop=True)
    coarse, fine = _quadrature(tmp_path, 10), _quadrature(tmp_path, 20)
    upper = np.triu_indices(3, 1)
    for name in ("S1", "ST", "S2"):
        exact, rough = fine[name].values, coarse[name].values
        got, half = estimate[name].values, estimate[f"{name}_hw95"].values
        if name == "S2":
            exact, rough, got, half = exact[upper], rough[upper], got[upper], half[upper]
        np.testing.assert_allclose(exact, rough, atol=0.005, err_msg=f"{name}: quadrature not converged")
        assert (np.abs(got - exact) <= half).all(), f"{name}: {got} vs quadrature {exact}, ±{half}"
        assert (half < 0.2).all(), f"{name}: intervals too wide to test anything: {half}"
    assert list(estimate["parameter"].values) == ["load", "scv", "hosts"]
    assert estimate["S1"].sel(parameter="hosts") > estimate["S1"].sel(parameter="load")


def _design_dataset(name: str, function, ranges: dict[str, tuple[float, float]], samples: int,
                    extra: xr.DataArray | None = None, **options) -> xr.Dataset:
    """``function`` of the parameters on a drawn design, laid out as a sweep of that design."""
    sampler = SAMPLERS[name]
    design = draw(name, sampler.options(samples=samples, **options), ranges, list(ranges),
                  [False] * len(ranges), root_seed=7)
    coords = {dim: ("sample", design.values[:, j]) for j, dim in enumerate(ranges)}
    y = xr.DataArray(function(*design.values.T), dims="sample", coords=coords)
    if extra is not None:
        y = y * extra
    ds = xr.Dataset({"y": y})
    ds.attrs[ATTRIBUTE] = to_json(design)
    return ds


def test_morris_design_gives_the_elementary_effects_of_a_linear_function():
    """y = c (2a + 5b): per whole range the effects are 2c (a on [0, 1]), 10c (b on [0, 2]), 0 (z)."""
    c = xr.DataArray([1.0, -3.0], dims="c", coords={"c": [1.0, -3.0]})
    ds = _design_dataset("morris", lambda a, b, z: 2 * a + 5 * b + 0 * z,
                         {"a": (0, 1), "b": (0, 2), "z": (5, 6)}, 10, extra=c)
    out = sensitivity(ds, variable="y")
    assert out["mu_star"].dims == ("parameter", "c") and "mu_star_hw95" in out
    np.testing.assert_allclose(out["mu_star"].sel(c=1.0).values, [2, 10, 0], atol=1e-9)
    np.testing.assert_allclose(out["mu"].sel(c=-3.0).values, [-6, -30, 0], atol=1e-9)
    np.testing.assert_allclose(out["sigma"].values, 0, atol=1e-9)


@pytest.mark.parametrize("name, samples", [("lhs", 1000), ("sobol_qmc", 1024)])
def test_rbd_fast_on_space_filling_samples(name, samples):
    """y = a + 2b, uniform on [0, 1]²: Var = 1/12 + 4/12, so S1 = 0.2 and 0.8 (within 2 half-widths)."""
    ds = _design_dataset(name, lambda a, b: a + 2 * b, {"a": (0, 1), "b": (0, 1)}, samples)
    out = sensitivity(ds, variable="y")
    assert out.attrs["method"] == "rbd_fast"
    assert (np.abs(out["S1"].values - [0.2, 0.8]) <= 2 * out["S1_hw95"].values).all(), out


@pytest.mark.parametrize("name, samples", [("saltelli", 64), ("morris", 10), ("lhs", 200)])
def test_bootstrap_intervals_are_reproducible(name, samples):
    """The same Dataset gives the same half-widths, call after call, and another ``seed`` others
    (SALib's Sobol' analysis draws from numpy's global state when given a seed of 0)."""
    ds = _design_dataset(name, lambda a, b, c: a + 2 * b * c, {"a": (0, 1), "b": (0, 1), "c": (0, 1)},
                         samples)
    first, again = sensitivity(ds, variable="y"), sensitivity(ds, variable="y")
    other = sensitivity(ds, variable="y", seed=5)
    for half in (v for v in first.data_vars if v.endswith("_hw95")):
        np.testing.assert_array_equal(first[half].values, again[half].values, err_msg=half)
    assert any(not np.array_equal(first[v].values, other[v].values, equal_nan=True)
               for v in first.data_vars if v.endswith("_hw95"))


def test_saturated_column_gives_nan_and_others_survive():
    """A non-finite output (a saturated point's infinite mean) blanks its column's indices only."""
    k = xr.DataArray([0, 1], dims="k", coords={"k": [0, 1]})
    ds = _design_dataset("saltelli", lambda a, b: a + b, {"a": (0, 1), "b": (0, 1)}, 16,
                         extra=xr.ones_like(k, dtype=float))
    ds["y"] = ds["y"].where((ds["k"] == 0) | (ds["sample"] != 3), np.inf)
    out = sensitivity(ds, variable="y")
    assert np.isnan(out["S1"].sel(k=1)).all() and np.isfinite(out["S1"].sel(k=0)).all()
    assert out["S2"].dims == ("parameter", "parameter_2", "k")


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "morris"}, "gives method 'sobol'"), ({"dims": ["a"]}, "all its parameters"),
    ({"conf_level": 1.5}, "conf_level"),
])
def test_bad_requests_on_a_design_name_themselves(kwargs, message):
    ds = _design_dataset("saltelli", lambda a, b: a + b, {"a": (0, 1), "b": (0, 1)}, 8)
    with pytest.raises(ValueError, match=message):
        sensitivity(ds, variable="y", **kwargs)


def test_the_plot_draws_each_index_with_its_interval(tmp_path):
    """Issue 29: ``sensitivity_plot`` — S1 and ST bars per parameter, each bar's height the index and
    its error bar the bootstrap half-width on each side."""
    from sweep.analysis import sensitivity_plot

    ds = sweep.run([*ANALYTIC, "design=saltelli", "design.samples=64", "design.params.load=[0.3,0.7]",
                    "design.params.workload.scv=[1,8]", f"output={tmp_path / 's.nc'}"])
    indices = sensitivity(ds, variable="mean_response").squeeze(drop=True)
    ax = sensitivity_plot(indices).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(indices["parameter"].values)
    from matplotlib.container import BarContainer

    groups = [container for container in ax.containers if isinstance(container, BarContainer)]
    for name, bars in zip(("S1", "ST"), groups, strict=True):
        np.testing.assert_allclose([bar.get_height() for bar in bars.patches], indices[name].values)
        (ranges,) = bars.errorbar.lines[2]
        np.testing.assert_allclose([s[1, 1] - s[0, 1] for s in ranges.get_segments()],
                                   2 * indices[f"{name}_hw95"].values)
    with pytest.raises(ValueError, match="no indices to draw"):
        sensitivity_plot(indices.drop_vars(["S1", "ST"]))
