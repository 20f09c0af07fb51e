"""sweep/papers/cv96/figures.py: every cv96 experiment has a registered figure, one drawn end to end;
CI bars and saturated points on a hand-made Dataset; Figures 1–3's statements (CV96 §2.1, §3.2)."""


import matplotlib
import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.analysis.figures import FIGURES, _load_studies
from sweep.config.files import group_options
from sweep.papers.cv96 import figures as cv96
from sweep.workloads.speedup import Eq5

matplotlib.use("Agg")

EXPERIMENTS = [name for name in group_options("experiment") if name.startswith("cv96_")]


def test_every_cv96_experiment_has_a_figure():
    _load_studies()
    assert len(EXPERIMENTS) == 14  # Figures 5–11 (one per panel), the C_W|n = 2 variants, EQS-AVG
    assert all(name in FIGURES for name in EXPERIMENTS)


@pytest.fixture(scope="module")
def fig11(tmp_path_factory):
    out = tmp_path_factory.mktemp("cv96") / "fig11.nc"
    return sweep.run(["experiment=cv96_fig11", "grid.load=[20,40]", "stop.ci_target=0",
                      "stop.jobs=2000", "engine.backend=serial", f"output={out}", "progress=false",
                      "plots=false"])


def test_fig11_runs_and_draws(fig11):
    assert set(fig11["policy"].values) == {"eqs", "eqs_pws", "fb_pws", "eqs_periodic", "eqs_pws_periodic"}
    ratio = cv96.response_ratio(fig11)
    assert float(ratio.sel(policy="eqs", repartition_overhead=0.0).max()) == 1.0
    assert np.all(np.isfinite(ratio.values))
    figures = FIGURES["cv96_fig11"](fig11)
    assert list(figures) == ["cv96_fig11"]
    assert len(figures["cv96_fig11"].axes[0].containers) == 5 * 2  # (policy, overhead) curves with CIs
    assert "| eqs_periodic | 40.0 | 5.0 |" in cv96.summary_table(fig11)


def _dataset(saturated):
    """Two policies at three loads, C_W² 25 and 900: EQS 10 s ± 1, FB-PWS 12 s ± 0.6."""
    policy, load, scv = ["eqs", "fb_pws"], [0.5, 0.9, 0.95], [25.0, 900.0]
    shape = (2, 3, 2)
    mean = np.broadcast_to(np.array([10.0, 12.0])[:, None, None], shape).copy()
    hw = np.broadcast_to(np.array([1.0, 0.6])[:, None, None], shape).copy()
    coords = {"policy": policy, "load": load, "demand_scv": scv}
    dims = ("policy", "load", "demand_scv")
    return xr.Dataset({"mean_response": (dims, mean), "mean_response_hw90": (dims, hw),
                       "saturated": (dims, np.asarray(saturated).reshape(shape))}, coords=coords)


def test_ratio_interval_combines_the_relative_half_widths():
    ds = _dataset(np.zeros(12, bool))
    ratio, halfwidth, saturated, base = cv96.ratio_interval(ds)
    np.testing.assert_allclose(ratio.sel(policy="fb_pws"), 1.2)
    np.testing.assert_allclose(halfwidth.sel(policy="fb_pws"), 1.2 * np.hypot(0.1, 0.05))
    np.testing.assert_allclose(halfwidth.sel(policy="eqs"), 0.0)  # EQS over itself: exactly 1
    assert not saturated.any() and not base.any()


def test_saturated_points_are_crosses_and_a_saturated_eqs_a_marked_load():
    flags = np.zeros((2, 3, 2), bool)
    flags[1, 2, 0] = True  # FB-PWS at 0.95, C_W = 5: a red cross at its finite-run ratio
    flags[0, 2, 1] = True  # EQS at 0.95, C_W = 30: no ratio there, the load marked
    ds = _dataset(flags)
    assert np.isnan(cv96.response_ratio(ds).sel(policy="fb_pws", load=0.95)).all()
    (fig,) = cv96.draw(ds, "test", "ρ").values()
    left, right = fig.axes
    assert [a.get_title() for a in fig.axes] == ["C_W = 5", "C_W = 30"]  # not demand_scv = 25.0
    crosses = [line for line in left.lines if line.get_marker() == "x"]
    assert len(crosses) == 1 and list(crosses[0].get_xdata()) == [0.95]
    np.testing.assert_allclose(crosses[0].get_ydata(), [1.2])
    assert any("saturated" in t.get_text() for t in left.get_legend().get_texts())
    assert not [line for line in right.lines if line.get_marker() == "x"]
    assert [line.get_xdata()[0] for line in right.lines if line.get_linestyle() == ":"] == [0.95]
    assert any("flagged saturated: EQS;" in t.get_text() for t in right.texts)
    assert any("90% CI" in t.get_text() for t in fig.texts)  # the caption states the level
    labels = [t.get_text() for t in left.get_legend().get_texts()]
    assert "EQS" in labels and "FB-PWS" in labels


# Figures 1–3 (§2.1, §3.2): the paper's statements about them, from the simulations' functions

def test_fig1_allocations_approach_proportional_to_pws_and_stay_generous_for_pws_p():
    # "the allocations approach being proportional to pws as S increases"
    large = np.array([2000.0])
    pws_32, pws_16 = cv96.partition_sizes(32, large)[0], cv96.partition_sizes(16, large)[0]
    assert pws_32 / pws_16 == pytest.approx(2, rel=0.1)
    # "Even when S is quite large (e.g., greater than 128), the allocation for a newly arriving job with
    # pws = P is still a significant fraction of P": P·P/(S + P) = P/2 at S = P
    assert list(cv96.partition_sizes(128, [0, 128, 256])) == [128, 64, 43]
    # "generous unless pws is small and S is large"
    assert cv96.partition_sizes(1, [256])[0] == 1 and cv96.partition_sizes(64, [16])[0] == 102


def test_fig2_the_speedup_gain_from_pws_to_m_is_small():
    # §3.2.1: "the increase in speedup between n = pws and n = min(M'_j, P) is small". With φ' = 0,
    # eq. 5 gives pws ≈ M/√3 and S(M)/S(pws) → 2/√3 = 1.155 (M = 1/√β' large)
    for beta in (2e-4, 1e-3, 1e-4):
        model = Eq5(beta_prime=beta)
        n = np.arange(1, 129, dtype=np.float64)
        s, pws, m = cv96.speedup_curves(model, n)
        assert m <= 128 and pws == pytest.approx(m / np.sqrt(3), abs=1)
        assert s[int(round(m)) - 1] / s[pws - 1] == pytest.approx(2 / np.sqrt(3), rel=0.02)


def test_fig3a_max_speedup_parallelism_is_mostly_below_10():
    # §4.1 on Figure 5's workload (like Figure 3(a)): "nearly all of the jobs have parallelism < 10, and a
    # negligible fraction of jobs have parallelism greater than 50"
    n = cv96.max_speedup_parallelism(jobs=50_000)
    assert (n < 10).mean() > 0.95 and (n > 50).mean() < 0.005
    assert n.max() <= 100
