"""The CSSE00 quantities on Datasets built by hand, where every value is known."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from sweep.papers.ipg00.mapping import growth_exponent
from sweep.reproduce.quantities import QUANTITIES

SIZES = np.array([100, 300, 600, 1000])


def _mapping(exponents: dict[str, float], replications: int = 5, noise: float = 0.0) -> xr.Dataset:
    """T_c = M^b per mapper, times a per-(M, graph) factor common to every mapper."""
    rng = np.random.default_rng(1)
    factor = np.exp(noise * rng.standard_normal((len(SIZES), replications)))
    data = np.stack([SIZES[:, None] ** b * factor for b in exponents.values()])
    da = xr.DataArray(data, dims=("policy", "size", "replication"),
                      coords={"policy": list(exponents), "size": SIZES})
    return xr.Dataset({"mapping_operations": da, "mapping_seconds": da})


def test_growth_exponent_of_an_exact_power_law_is_its_exponent():
    fitted = growth_exponent(_mapping({"cluster_m": 0.5, "mh": 2.0})["mapping_operations"], center="mean")
    assert fitted.values == pytest.approx([0.5, 2.0])
    for end in ("low", "high"):
        assert fitted[end].values == pytest.approx([0.5, 2.0])


def test_growth_exponent_ratio_keeps_the_common_graphs_paired():
    """log T_c = b log M + e(M, graph), e common to both mappers: on every bootstrap draw of the same
    graphs MH's fitted exponent is Cluster-M's plus exactly 1, so the ratio's interval is the image
    of Cluster-M's own under b -> b / (b + 1) (it would not be, were the graphs drawn apart)."""
    ds = {"t1": _mapping({"cluster_m": 1.0, "mh": 2.0}, replications=8, noise=0.3)}
    ratio = QUANTITIES["growth_exponent"](ds, preset="t1", policy="cluster_m", relative_to="mh",
                                          variable="mapping_seconds", center="median")
    alone = QUANTITIES["growth_exponent"](ds, preset="t1", policy="cluster_m", variable="mapping_seconds")
    for end in ("low", "high"):
        assert float(ratio[end]) == pytest.approx(float(alone[end]) / (float(alone[end]) + 1))
    assert float(alone["low"]) < float(alone["high"])


def test_smallest_ratio_is_the_least_over_graphs():
    ds = _mapping({"cluster_m": 1.0, "mh": 2.0})
    ds["mapping_operations"].loc[{"policy": "mh", "size": 300}] = [900, 3e5, 3e5, 3e5, 3e5]
    least = QUANTITIES["smallest_ratio"]({"t1": ds}, preset="t1", policy="mh", baseline="cluster_m",
                                         variable="mapping_operations")
    assert least.values == pytest.approx([100, 3, 600, 1000])


def test_smallest_ratio_adds_the_baselines_clustering_for_t_cm():
    """Table 1's T_cm: Cluster-M's mapping plus its clustering of the system graph (here 100
    operations on every graph): MH's M² over M + 100."""
    ds = _mapping({"cluster_m": 1.0, "mh": 2.0})
    ds["clustering_operations"] = xr.full_like(ds["mapping_operations"], 100.0)
    least = QUANTITIES["smallest_ratio"]({"t1": ds}, preset="t1", policy="mh", baseline="cluster_m",
                                         variable="mapping_operations", baseline_plus="clustering_operations")
    assert least.values == pytest.approx(SIZES**2 / (SIZES + 100))


def _np(values: dict[tuple[str, str], list[float]]) -> xr.Dataset:
    policies = sorted({p for p, _ in values})
    topologies = sorted({t for _, t in values})
    data = np.array([[values[p, t] for t in topologies] for p in policies])
    da = xr.DataArray(data, dims=("policy", "topology", "replication"),
                      coords={"policy": policies, "topology": topologies})
    return xr.Dataset({"normalized_performance": da})


def test_versus_others_and_share_ahead_read_paired_differences():
    """On "mesh" policy a beats b by 0.1 on every replication (interval [0.1, 0.1]); on "ring" by
    0.1 on average with a spread that leaves the sign in doubt; on "star" b beats a."""
    ds = {"t": _np({("a", "mesh"): [0.8, 0.9, 0.7], ("b", "mesh"): [0.7, 0.8, 0.6],
                    ("a", "ring"): [0.9, 0.5, 0.9], ("b", "ring"): [0.6, 0.7, 0.7],
                    ("a", "star"): [0.5, 0.5, 0.5], ("b", "star"): [0.6, 0.6, 0.6]})}
    gaps = QUANTITIES["versus_others"](ds, preset="t", label="a", variable="normalized_performance")
    assert gaps.sel(other="b").values == pytest.approx([0.1, 0.1, -0.1])
    assert float(gaps.sel(other="b", topology="mesh")["low"]) == pytest.approx(0.1)
    share = QUANTITIES["share_ahead"](ds, preset="t", label="a", variable="normalized_performance",
                                      over="topology")
    assert (float(share), float(share["low"]), float(share["high"])) == pytest.approx((2 / 3, 1 / 3, 2 / 3))
    lower = QUANTITIES["share_ahead"](ds, preset="t", label="a", variable="normalized_performance",
                                      over="topology", ahead="lower")
    assert (float(lower), float(lower["low"]), float(lower["high"])) == pytest.approx((1 / 3, 1 / 3, 2 / 3))


def _gang(gang: list[float], concurrent: list[float]) -> xr.Dataset:
    da = xr.DataArray(np.array([gang, concurrent])[:, None, :], dims=("policy", "time", "replication"),
                      coords={"policy": ["gang", "concurrent_gang"], "time": [40000.0]})
    return xr.Dataset({"idle_fraction": da})


def test_gain_lead_subtracts_independent_gains_and_adds_their_variances():
    ds = {"io": _gang([0.6, 0.7, 0.8], [0.2, 0.2, 0.2]), "cpu": _gang([0.2, 0.2, 0.2], [0.1, 0.1, 0.1])}
    lead = QUANTITIES["gain_lead"](ds, presets=["io", "cpu"], policy="concurrent_gang", baseline="gang",
                                   variable="idle_fraction", select={"time": 40000})
    io_half = float(QUANTITIES["difference"](ds, preset="io", policy="gang", baseline="concurrent_gang",
                                             variable="idle_fraction", select={"time": 40000})["halfwidth"])
    assert float(lead.sel(preset="cpu")) == pytest.approx(0.5 - 0.1)
    assert float(lead.sel(preset="cpu")["high"]) == pytest.approx(0.4 + io_half)


def test_a_value_selected_down_to_a_scalar_keeps_its_interval():
    ds = {"io": _gang([0.6, 0.7, 0.8], [0.2, 0.3, 0.2])}
    one = QUANTITIES["mean"](ds, preset="io", variable="idle_fraction",
                             select={"policy": "gang", "time": 40000})
    assert one.ndim == 0 and float(one["low"]) < 0.7 < float(one["high"])
