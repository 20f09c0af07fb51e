"""TF99 Table 3's monthly priority classes and the tf99 paper figures (sweep/papers/tf99/figures.py)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from matplotlib.container import BarContainer

from sweep.analysis.figures import FIGURES
from sweep.config.files import group_options
from sweep.families import Point, StopRule, family_of
from sweep.families.rigid.slack import HEURISTICS
from sweep.papers.tf99 import figures as tf99

KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"


def _summary(policy: str, priority_every: int) -> dict:
    workload = {"name": "kth", "kind": "swf", "path": KTH, "split": "month", "overrun": "kill",
                "priority_every": priority_every, "priority_gap": 2.0}
    point = Point(policy={"name": policy}, workload=workload, system={"processors": 128}, load=0.7,
                  stop=StopRule(jobs=1, warmup=0))
    return family_of(policy).simulate(point, np.random.default_rng(0)).summary


def test_monthly_priority_classes_equal_priorities():
    """No high-priority job: the Hi-Pri column is NaN and Lo-Pri is every job (Table 3, Equal Pri)."""
    s = _summary("easy", 0)
    assert np.isnan(s["monthly_mean_wait_high"]).all()
    np.testing.assert_array_equal(s["monthly_mean_wait_low"], s["monthly_mean_wait"])


def test_monthly_priority_classes_every_fifth_job():
    """Every fifth job high (Table 3): each month's mean lies between its two classes' means."""
    s = _summary("easy", 5)
    high, low, mean = s["monthly_mean_wait_high"], s["monthly_mean_wait_low"], s["monthly_mean_wait"]
    assert high.shape == low.shape == (12,) and not np.isnan(high).any()
    assert (np.minimum(high, low) <= mean + 1e-9).all() and (mean <= np.maximum(high, low) + 1e-9).all()
    assert (high != low).any()


def test_paper_values_agree_across_tables():
    """The transcription of TF99's tables is self-consistent where the paper repeats a number."""
    paper = tf99.PAPER
    assert paper["table1"]["slack"] == paper["table3"]["equal"]  # Table 3's Equal Pri is Table 1's
    assert paper["table1"]["yearly"]["slack"] == paper["table3"]["yearly"]["equal"]
    assert paper["table4"][0.0] == paper["table3"]["yearly"]["equal"]  # gap 0: equal priorities
    assert paper["table4"][2.0] == paper["table3"]["yearly"]["all"]  # gap 2: Table 3
    for row in ("equal", "all", "high", "low"):  # Table 5's AST column is Table 3, to 0.1 s
        assert paper["table5"]["ast"][row] == pytest.approx(paper["table3"]["yearly"][row], abs=0.05)
    for series in (*paper["table1"].values(), *paper["table3"].values()):
        assert isinstance(series, dict) or len(series) == len(tf99.MONTHS)


def _dataset(replications: int = 1, **axes) -> xr.Dataset:
    """A stand-in result on ``axes`` (+ month) with every variable the tf99 figures read."""
    dims = {"policy": ["slack"], "workload": ["kth"], **axes, "replication": list(range(replications))}
    shape = tuple(len(v) for v in dims.values())
    values = 1000.0 + np.arange(np.prod(shape)).reshape(shape)
    data = {v: (tuple(dims), values) for v in ("mean_wait", "mean_wait_high", "mean_wait_low")}
    data.update({f"monthly_{v}": ((*dims, "month"), np.repeat(values[..., None], 12, axis=-1))
                 for v in ("mean_wait", "mean_wait_high", "mean_wait_low")})
    return xr.Dataset(data, coords={**dims, "month": list(tf99.MONTHS)})


BOTH = ["conservative", "slack"]


@pytest.mark.parametrize("experiment, axes, bars", [
    ("tf99_table1", {"policy": ["easy", "conservative", "slack"]}, 5 * 13 + 2 * 13),
    ("tf99_table2", {"policy": BOTH, "slack_factor": [1, 3, 9]}, 2 * 3),
    ("tf99_table3", {"policy": BOTH, "priority_every": [0, 5]}, 4 * 12 * 2 + 2 * 4),
    ("tf99_table4", {"policy": BOTH, "priority_gap": [0.0, 1.0, 2.0]}, 4 * 3),
    ("tf99_table5", {"policy": BOTH, "heuristic": list(HEURISTICS), "priority_every": [0, 5]}, 4 * 2 * 5),
    ("tf99_sensitivity", {"slack_factor": [1, 5], "alpha_u": [0.5, 1.0], "alpha_t": [0.5, 1.0]}, 2 * 3),
])
def test_every_preset_has_a_figure_with_measured_and_paper_bars(experiment, axes, bars):
    """Each tf99_* preset draws one figure; the bar count says both series are there."""
    figures = FIGURES[experiment](_dataset(**axes))
    assert list(figures) == [experiment]
    drawn = sum(len(container) for ax in figures[experiment].axes for container in ax.containers)
    assert drawn == bars


def test_gains_are_over_conservative():
    """Table 2's bars are 1 − slack / conservative; the paper's against its 2401.44 s."""
    ds = _dataset(policy=BOTH, slack_factor=[1, 3])
    gain = tf99.gains(ds).squeeze(drop=True)
    conservative = float(ds["mean_wait"].sel(policy="conservative").isel(slack_factor=0).squeeze())
    expected = 1 - ds["mean_wait"].sel(policy="slack").squeeze(drop=True) / conservative
    np.testing.assert_allclose(gain.values, expected.values)
    ax = tf99.table2(ds)["tf99_table2"].axes[0]
    heights = [bar.get_height() for bar in ax.containers[1]]
    assert heights[1] == pytest.approx(1 - 2004 / 2401.44)


def test_replicated_runs_get_confidence_intervals():
    """With replications the gain bars carry 95% CI error bars and the caption says so; one replay
    says it has none."""
    one = tf99.table2(_dataset(policy=BOTH, slack_factor=[1, 3]))["tf99_table2"]
    three = tf99.table2(_dataset(3, policy=BOTH, slack_factor=[1, 3]))["tf99_table2"]
    assert "no CI" in one.axes[0].get_title()
    assert "95% CI over 3 replays" in three.axes[0].get_title()
    assert [c.errorbar is not None for c in three.axes[0].containers if isinstance(c, BarContainer)] \
        == [True, False]  # measured, paper
    # [1, 3]: sd √2, n = 2, t(0.975, 1) = 12.706: half-width √2 · 12.706 / √2
    assert float(tf99.half_width(xr.DataArray([1.0, 3.0], dims="replication"))) == pytest.approx(
        12.706, rel=1e-4)


def test_readings_figure_has_a_bar_per_reading():
    """tf99_readings: 3 × 2 × 2 readings, two AWTs in one panel, measured and paper costs in
    the other."""
    ds = _dataset(completion=["compress", "remove", "tick"], move_up=["allow", "clamp"],
                  moved_up_slack=["regained", "kept"], awt=[1.0, 2401.0], priority_every=[0, 5])
    fig = tf99.readings(ds)["tf99_readings"]
    assert sum(len(c) for ax in fig.axes for c in ax.containers) == 4 * 12


def test_noise_figure_shows_every_replay():
    """tf99_noise: one grey point per replay and series, a mean with its CI per series."""
    ds = _dataset(4, policy=BOTH, priority_every=[0, 5])
    fig = tf99.noise(ds)["tf99_noise"]
    points = [line for ax in fig.axes for line in ax.lines if line.get_marker() == "o"]
    assert len(points) == 5 and all(len(line.get_xdata()) == 4 for line in points)


def test_every_tf99_preset_is_drawn():
    """Every tf99_* preset has a registered figure."""
    presets = {name for name in group_options("experiment") if name.startswith("tf99_")}
    assert presets and presets <= set(FIGURES)
