"""CSSE00's presets (sweep/papers/ipg00/conf/experiment/) compose, expand, run and draw their figures."""

from __future__ import annotations

import pytest

import sweep
from sweep.analysis.figures import write_figures
from sweep.config.compose import compose
from sweep.config.grid import expand
from sweep.papers.ipg00.balancing import PAPER, np_table

PRESETS = {  # preset -> (workload, swept axes with their sizes)
    "ipg00_table2": ("lb_symmetric", {"policy": 4, "topology": 4}),
    "ipg00_table3": ("lb_asymmetric", {"policy": 4, "topology": 4}),
    "ipg00_table4": ("lb_arrivals", {"policy": 4, "topology": 4}),
    "ipg00_roc_sensitivity": ("lb_symmetric", {"nd": 7, "high_threshold": 4}),
}
SMALL = ["engine.backend=serial", "progress=false", "replications=2", "workload.tasks=2000",
         "workload.roots=40"]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_composes_and_validates(name):
    overrides = [f"experiment={name}"]
    cfg = compose(overrides)
    workload, axes = PRESETS[name]
    assert cfg.workload.name == workload and cfg.workload.tasks == 32000 and cfg.system.pes == 16
    grid = expand(cfg, overrides)  # validates every point with the balancing family
    assert {a.dim: len(a.values) for a in grid.axes if len(a.values) > 1} == axes


def test_table_preset_runs_and_draws_beside_the_paper(tmp_path):
    ds = sweep.run(["experiment=ipg00_table3", *SMALL, f"output={tmp_path / 'results.nc'}"])
    est = np_table(ds)
    assert est.shape == (4, 4) and est.notnull().all()
    assert set(PAPER["table3"]) == set(est["policy"].values)
    written = write_figures(ds, "ipg00_table3", tmp_path)
    assert {p.name for p in written} == {"ipg00_table3_np.png", "ipg00_table3_np.pdf"}


def test_sensitivity_preset_draws(tmp_path):
    ds = sweep.run(["experiment=ipg00_roc_sensitivity", *SMALL, "grid.policy.nd=[1.0,8.0]",
                    "grid.policy.high_threshold=[2,4]", f"output={tmp_path / 'results.nc'}"])
    assert ds["normalized_performance"].notnull().all()
    assert len(write_figures(ds, "ipg00_roc_sensitivity", tmp_path)) == 2
