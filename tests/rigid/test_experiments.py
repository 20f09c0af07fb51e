"""TF99's table presets (conf/experiment/tf99_table*.yaml) compose, expand and run."""

from __future__ import annotations

import pytest

import sweep
from sweep.engine.config import compose
from sweep.engine.grid import expand

TABLES = {  # preset -> the grid axes it sweeps, with their sizes
    "tf99_table1": {"policy": 3},
    "tf99_table2": {"slack_factor": 6},
    "tf99_table3": {"priority_every": 2},
    "tf99_table4": {"priority_gap": 5},
    "tf99_table5": {"heuristic": 5, "priority_every": 2},
    "tf99_sensitivity": {"slack_factor": 2, "awt": 2, "alpha_u": 2, "alpha_t": 2, "alpha_p": 2,
                         "alpha_f": 2},
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_preset_composes_on_kth_at_128(name):
    overrides = [f"experiment={name}"]
    cfg = compose(overrides)
    assert cfg.workload.name == "kth" and cfg.workload.split == "month"
    assert cfg.system.processors == 128 and cfg.replications == 1
    grid = expand(cfg, overrides)  # validates every point with the rigid family
    swept = {a.dim: len(a.values) for a in grid.axes if len(a.values) > 1}
    assert swept == TABLES[name]
    assert {p.point.policy["name"] for p in grid.points} <= {"easy", "conservative", "slack"}


def test_table1_runs(tmp_path):
    """Table 1 end to end (about 2 s): a month dimension and slack below conservative."""
    ds = sweep.run(["experiment=tf99_table1", "engine.backend=serial", "progress=false",
                    f"output={tmp_path / 't1.nc'}"])
    assert ds.sizes["month"] == 12 and list(ds["policy"].values) == ["easy", "conservative",
                                                                     "slack"]
    wait = ds["mean_wait"].squeeze(drop=True)
    assert wait.sel(policy="slack") < 0.88 * wait.sel(policy="conservative")
    assert (ds["monthly_mean_wait"].sel(policy="slack")
            <= ds["monthly_mean_wait"].sel(policy="conservative") * 1.05).all()
