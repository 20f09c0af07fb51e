"""TF99's Sobol' study: the preset and its figure (sweep/papers/tf99/; docs/sensitivity.md; issue 17).

The Saltelli design over the six parameters of slack-based backfilling
(Talby & Feitelson 1999 §2: the slack factor, AWT and the four weights).
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from matplotlib.container import BarContainer

from sweep.analysis.figures import FIGURES
from sweep.config.compose import compose
from sweep.config.design import ATTRIBUTE, SAMPLERS, draw, to_json
from sweep.config.grid import expand
from sweep.papers.tf99.figures import MONTHS  # registers the TF99 figures


def test_tf99_sobol_preset_is_the_saltelli_study_of_six_parameters():
    """512 · (2·6 + 2) = 7,168 runs on KTH by month at 128 processors, every fifth job high priority."""
    cfg = compose(["experiment=tf99_sobol"])
    assert cfg.design.name == "saltelli" and cfg.design.samples == 512 and cfg.design.second_order
    assert cfg.workload.name == "kth" and cfg.workload.split == "month" and cfg.workload.priority_every == 5
    assert cfg.system.processors == 128
    overrides = ["experiment=tf99_sobol", "design.samples=2", "design.params.policy.slack_factor=[2,4]"]
    grid = expand(compose(overrides), overrides)  # the command line changes one of the preset's ranges
    assert len(grid.points) == 2 * (2 * 6 + 2)
    assert grid.design.dims == ("slack_factor", "awt", "alpha_u", "alpha_t", "alpha_p", "alpha_f")
    assert grid.design.keys[0] == "policy.slack_factor"
    assert grid.design.low[:2].tolist() == [2, 1200] and grid.design.high[:2].tolist() == [4, 3600]


def test_tf99_sobol_figure_draws_each_metrics_indices_with_intervals():
    """On outputs where the mean wait depends on SF alone and the gap on α_p alone, the bars say so."""
    keys = [f"policy.{p}" for p in ("slack_factor", "awt", "alpha_u", "alpha_t", "alpha_p", "alpha_f")]
    ranges = dict(zip(keys, [(1, 11), (1200, 3600), *[(0.2, 1.0)] * 4], strict=True))
    dims = [k.removeprefix("policy.") for k in keys]
    design = draw("saltelli", SAMPLERS["saltelli"].options(samples=32), ranges, dims, [False] * 6, 3)
    x = dict(zip(dims, design.values.T, strict=True))
    wait, gap = 1000 + 100 * x["slack_factor"], 500 * x["alpha_p"]
    month = np.linspace(1, 2, len(MONTHS))
    ds = xr.Dataset({"mean_wait": ("sample", wait), "mean_wait_high": ("sample", wait - gap / 2),
                     "mean_wait_low": ("sample", wait + gap / 2),
                     "monthly_mean_wait": (("sample", "month"), np.outer(wait, month))},
                    coords={"month": list(MONTHS), **{d: ("sample", v) for d, v in x.items()}})
    ds.attrs[ATTRIBUTE] = to_json(design)
    fig = FIGURES["tf99_sobol"](ds)["tf99_sobol"]
    def bars(ax):
        return [[bar.get_height() for bar in c] for c in ax.containers if isinstance(c, BarContainer)]

    wait_ax, gap_ax, monthly_ax = fig.axes[:3]
    first = bars(wait_ax)[0]  # S1 of the yearly mean wait
    assert first[0] == pytest.approx(1, abs=0.05) and max(map(abs, first[1:])) < 0.05
    first_gap = bars(gap_ax)[0]
    assert first_gap[4] == pytest.approx(1, abs=0.05) and max(map(abs, first_gap[:4] + first_gap[5:])) < 0.05
    assert len(bars(monthly_ax)) == 6 and all(len(b) == len(MONTHS) for b in bars(monthly_ax))
    errorbars = [c for c in wait_ax.containers if not isinstance(c, BarContainer)]
    assert len(errorbars) == 2  # S1 and ST each with its interval
