"""TF99's presets (sweep/papers/tf99/conf/experiment/tf99_*.yaml) compose, expand and run."""

from __future__ import annotations

import pytest

import sweep
from sweep.config.compose import compose
from sweep.config.grid import expand

TABLES = {  # preset -> the grid axes it sweeps, with their sizes (conservative beside slack
    # where the figure draws gains over it)
    "tf99_table1": {"policy": 3},
    "tf99_table2": {"policy": 2, "slack_factor": 6},
    "tf99_table3": {"policy": 2, "priority_every": 2},
    "tf99_table4": {"policy": 2, "priority_gap": 5},
    "tf99_table5": {"policy": 2, "heuristic": 5, "priority_every": 2},
    "tf99_sensitivity": {"slack_factor": 2, "awt": 2, "alpha_u": 2, "alpha_t": 2, "alpha_p": 2,
                         "alpha_f": 2},
    "tf99_readings": {"completion": 3, "move_up": 2, "moved_up_slack": 2, "awt": 2,
                      "priority_every": 2},
    "tf99_noise": {"policy": 2, "priority_every": 2},
}
REPLICATIONS = {"tf99_noise": 10}  # the others replay the log once, as the paper


@pytest.mark.parametrize("name", sorted(TABLES))
def test_preset_composes_on_kth_at_128(name):
    overrides = [f"experiment={name}"]
    cfg = compose(overrides)
    assert cfg.workload.name == "kth" and cfg.workload.split == "month"
    assert cfg.system.processors == 128 and cfg.replications == REPLICATIONS.get(name, 1)
    assert cfg.workload.submit_jitter == (1 if name == "tf99_noise" else 0)
    grid = expand(cfg, overrides)  # validates every point with the rigid family
    swept = {a.dim: len(a.values) for a in grid.axes if len(a.values) > 1}
    assert swept == TABLES[name]
    assert {p.point.policy["name"] for p in grid.points} <= {"easy", "conservative", "slack"}


def test_table1_runs(tmp_path):
    """Table 1 end to end (about 2 s): a month dimension; slack below conservative for the year
    and in every month from October (§3.2; September's waits are about 1 s)."""
    ds = sweep.run(["experiment=tf99_table1", "engine.backend=serial", "progress=false",
                    f"output={tmp_path / 't1.nc'}"])
    assert ds.sizes["month"] == 12 and list(ds["policy"].values) == ["easy", "conservative",
                                                                     "slack"]
    wait = ds["mean_wait"].squeeze(drop=True)
    assert wait.sel(policy="slack") < wait.sel(policy="conservative")
    monthly = ds["monthly_mean_wait"].squeeze(drop=True).isel(month=slice(1, None))
    assert (monthly.sel(policy="slack") < monthly.sel(policy="conservative")).all()
