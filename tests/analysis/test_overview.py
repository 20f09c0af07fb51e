"""The default figure of a sweep without a paper figure (issue 29): what it draws is the file's data."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from scipy import stats

import sweep
from sweep.analysis.overview import MAX_LINES, overview_figure

SWEEP = ["grid.policy=[random,lwl]", "grid.load=[0.5,0.8,1.2]", "workload=hyperexp2", "replications=3",
         "stop.jobs=5000", "stop.warmup=500", "engine.backend=serial", "progress=false"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> tuple[xr.Dataset, list]:
    folder = tmp_path_factory.mktemp("overview")
    dataset = sweep.run([*SWEEP, f"output={folder / 'mine.nc'}"])
    return dataset, sorted(p.name for p in folder.iterdir())


def test_a_multi_point_sweep_writes_its_figure_beside_the_file(swept, tmp_path):
    _, files = swept
    assert files == ["mine.nc", "mine.png"]
    sweep.run([*SWEEP, f"output={tmp_path / 'quiet.nc'}", "plots=false"])
    assert [p.name for p in tmp_path.iterdir()] == ["quiet.nc"]


def test_each_line_is_the_mean_with_its_student_t_interval_and_saturation_crossed(swept):
    dataset, _ = swept
    figure = overview_figure(dataset)
    ax = figure.axes[0]
    response = dataset["mean_response"].squeeze(drop=True)
    bars = {container.get_label(): container for container in ax.containers}
    for policy, label in (("random", "Random"), ("lwl", "Least-Work-Left")):
        values = response.sel(policy=policy).transpose("load", "replication").values
        line, _, (ranges,) = bars[label].lines
        np.testing.assert_allclose(line.get_ydata(), values.mean(axis=1))
        np.testing.assert_allclose(line.get_xdata(), [0.5, 0.8, 1.2])
        half = stats.t.ppf(0.95, 2) * values.std(axis=1, ddof=1) / np.sqrt(3)
        np.testing.assert_allclose([s[1, 1] - s[0, 1] for s in ranges.get_segments()], 2 * half, rtol=1e-9)
    (saturated,) = [line for line in ax.get_lines() if line.get_label() == "saturated"]
    crosses = saturated.get_xdata()[np.isfinite(saturated.get_ydata())]
    assert 1.2 in crosses and 0.5 not in crosses  # load 1.2 is past saturation, 0.5 is not


def test_no_figure_for_one_point_or_too_many_lines(swept):
    dataset, _ = swept
    assert overview_figure(dataset.isel(policy=[0], load=[0])) is None
    wide = xr.concat([dataset.assign_coords(seed=[s]) for s in range(MAX_LINES)], dim="seed",
                     data_vars="all")
    assert overview_figure(wide) is None
