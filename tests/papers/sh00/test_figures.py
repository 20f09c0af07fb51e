"""SH00's figures (sweep/papers/sh00/figures.py): registered per experiment, drawn, written."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

import sweep
from sweep.analysis.figures import FIGURES
from sweep.config.files import group_options
from sweep.papers.sh00.figures import EXPERIMENTS

matplotlib.use("Agg")
QUICK = ["engine.backend=serial", "progress=false", "stop.jobs=3000", "stop.warmup=300", "replications=2",
         "grid.load=[0.3,0.6]"]


def test_every_sh00_preset_has_a_figure():
    presets = {name for name in group_options("experiment") if name.startswith("sh00_")}
    assert set(EXPERIMENTS) <= presets  # the paper's figures; the other presets draw their own
    assert presets <= set(FIGURES)


def test_experiment_writes_its_figure_next_to_the_result(tmp_path):
    sweep.run(["experiment=sh00_fig7", "engine.backend=serial", "progress=false",
               f"output={tmp_path / 'results.nc'}"])
    assert {p.name for p in tmp_path.iterdir()} >= {"results.nc", "sh00_fig7.png", "sh00_fig7.pdf",
                                                    "sh00_fig7_log.png", "sh00_fig7_log.pdf"}
    assert (tmp_path / "sh00_fig7.png").stat().st_size > 10_000


@pytest.mark.parametrize("experiment, axes, ylabels", [
    ("sh00_fig2", 2, ["Mean slowdown", "Variance of slowdown"]),
    ("sh00_fig6", 2, ["Fraction of the load on host 1", "Mean slowdown"]),
    ("sh00_fig5", 1, ["Fraction of the load on host 1"]),
])
def test_figure_panels(tmp_path, experiment, axes, ylabels):
    ds = sweep.run([f"experiment={experiment}", *QUICK, "plots=false", f"output={tmp_path / 'r.nc'}"])
    figures = FIGURES[experiment](ds)
    fig = figures[experiment]
    slowdown_axis = experiment != "sh00_fig5"  # fig 5 has none: no log companion
    assert set(figures) == {experiment, *([f"{experiment}_log"] if slowdown_axis else [])}
    assert len(fig.axes) == axes
    assert [ax.get_ylabel() for ax in fig.axes] == ylabels
    assert all(ax.get_xlabel() == "System load ρ" for ax in fig.axes)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    policies = len(ds["policy"])
    assert len(labels) == policies + (2 if experiment != "sh00_fig2" else 0)  # + ρ/2 and SITA-E lines
    if experiment == "sh00_fig2":
        assert "SITA-E" in labels
    assert fig.axes[-1].get_yscale() == "linear"  # the paper's axes
    if slowdown_axis:
        assert figures[f"{experiment}_log"].axes[-1].get_yscale() == "log"
    caption = " ".join(t.get_text() for t in fig.texts)
    assert "90% Student-t confidence intervals over 2 replications" in caption
    assert "Red ×: saturated" in caption
    for figure in figures.values():
        matplotlib.pyplot.close(figure)


def test_saturated_points_are_drawn_not_dropped(tmp_path):
    """ρ = 1.2 on SITA-E saturates: the point is on the curve and under a red cross."""
    ds = sweep.run(["experiment=sh00_fig2", "grid.policy=[sita_e]", *QUICK, "grid.load=[0.5,1.2]",
                    "plots=false", f"output={tmp_path / 'r.nc'}"])
    fig = FIGURES["sh00_fig2"](ds)["sh00_fig2"]
    ax = fig.axes[0]
    crosses = [line for line in ax.get_lines() if line.get_label().startswith("saturated")]
    assert len(crosses) == 1
    x, y = np.asarray(crosses[0].get_xdata()), np.asarray(crosses[0].get_ydata())
    assert x[np.isfinite(y)].tolist() == [1.2]
    curve = [c for c in ax.containers if c.get_label() == "SITA-E"][0]
    assert list(curve.lines[0].get_xdata()) == [0.5, 1.2]
    matplotlib.pyplot.close("all")
