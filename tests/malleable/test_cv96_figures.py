"""sweep/analysis/cv96.py: every cv96 experiment has a registered figure; one drawn end to end."""

from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sweep
from sweep.analysis import cv96
from sweep.analysis.figures import FIGURES, _load_studies

EXPERIMENTS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "conf" / "experiment")
                     .glob("cv96_*.yaml"))


def test_every_cv96_experiment_has_a_figure():
    _load_studies()
    assert len(EXPERIMENTS) == 11
    assert all(name in FIGURES for name in EXPERIMENTS)


@pytest.fixture(scope="module")
def fig11(tmp_path_factory):
    out = tmp_path_factory.mktemp("cv96") / "fig11.nc"
    return sweep.run(["experiment=cv96_fig11", "grid.load=[20,40]", "stop.ci_target=0",
                      "stop.jobs=2000", "engine.backend=serial", f"output={out}", "progress=false",
                      "plots=false"])


def test_fig11_runs_and_draws(fig11):
    matplotlib.use("Agg")
    assert set(fig11["policy"].values) == {"eqs", "eqs_pws", "fb_pws", "eqs_periodic", "eqs_pws_periodic"}
    ratio = cv96.response_ratio(fig11)
    assert float(ratio.sel(policy="eqs", repartition_overhead=0.0).max()) == 1.0
    assert np.all(np.isfinite(ratio.values))
    figures = FIGURES["cv96_fig11"](fig11)
    assert list(figures) == ["cv96_fig11"]
    assert len(figures["cv96_fig11"].axes[0].lines) == 5 * 2 + 1  # (policy, overhead) curves + y = 1
    assert "| eqs_periodic | 40.0 | 5.0 |" in cv96.summary_table(fig11)
