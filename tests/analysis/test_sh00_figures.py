"""SH00's figures (sweep/analysis/sh00.py): registered per experiment, drawn, written."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

import sweep
from sweep.analysis.figures import FIGURES
from sweep.analysis.sh00 import EXPERIMENTS

matplotlib.use("Agg")
CONF = Path(__file__).resolve().parents[2] / "conf" / "experiment"
QUICK = ["engine.backend=serial", "progress=false", "stop.jobs=3000", "stop.warmup=300", "replications=2",
         "grid.load=[0.3,0.6]"]


def test_every_sh00_preset_has_a_figure():
    presets = {p.stem for p in CONF.glob("sh00_*.yaml")}
    assert presets == set(EXPERIMENTS)
    assert presets <= set(FIGURES)


def test_experiment_writes_its_figure_next_to_the_result(tmp_path):
    sweep.run(["experiment=sh00_fig7", "engine.backend=serial", "progress=false",
               f"output={tmp_path / 'results.nc'}"])
    assert {p.name for p in tmp_path.iterdir()} >= {"results.nc", "sh00_fig7.png", "sh00_fig7.pdf"}
    assert (tmp_path / "sh00_fig7.png").stat().st_size > 10_000


@pytest.mark.parametrize("experiment, axes, ylabels", [
    ("sh00_fig2", 2, ["Mean slowdown", "Variance of slowdown"]),
    ("sh00_fig6", 2, ["Fraction of the load on host 1", "Mean slowdown"]),
    ("sh00_fig5", 1, ["Fraction of the load on host 1"]),
])
def test_figure_panels(tmp_path, experiment, axes, ylabels):
    ds = sweep.run([f"experiment={experiment}", *QUICK, "plots=false", f"output={tmp_path / 'r.nc'}"])
    (name, fig), = FIGURES[experiment](ds).items()
    assert name == experiment and len(fig.axes) == axes
    assert [ax.get_ylabel() for ax in fig.axes] == ylabels
    assert all(ax.get_xlabel() == "System load ρ" for ax in fig.axes)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    policies = len(ds["policy"])
    assert len(labels) == policies + (2 if experiment != "sh00_fig2" else 0)  # + ρ/2 and SITA-E lines
    if experiment == "sh00_fig2":
        assert all(ax.get_yscale() == "log" for ax in fig.axes) and "SITA-E" in labels
    matplotlib.pyplot.close(fig)
