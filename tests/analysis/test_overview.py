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


CHANGED_PRESET = ["experiment=cv96_fig6b", "grid.policy=[fb_pws]", "grid.load=[0.3,0.5]", "replications=2",
                  "stop.ci_target=0", "stop.jobs=2000", "engine.backend=serial", "progress=false"]


def test_a_preset_whose_figure_needs_what_the_grid_left_out_gets_the_default_figure(tmp_path, capsys):
    """CV96's Figure 6(b) is drawn as ratios to EQS: without EQS in the grid it cannot be, and the
    sweep (its file written) ends with the default figure and one line saying why, not a traceback."""
    dataset = sweep.run([*CHANGED_PRESET, f"output={tmp_path / 'mine.nc'}"], verbose=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.nc", "mine.png"]
    said = [line for line in capsys.readouterr().err.splitlines() if "figure of experiment" in line]
    assert len(said) == 1 and said[0].startswith(
        "sweep: the figure of experiment 'cv96_fig6b' needs what this sweep's grid left out (KeyError: ")
    assert said[0].endswith("drawing the default figure instead")
    from sweep.analysis.figures import write_figures

    with pytest.raises(KeyError):  # sweep-reproduce draws without a stem: there it is a bug, raised
        write_figures(dataset, "cv96_fig6b", tmp_path)


def test_a_users_own_policy_option_gets_its_familys_figure(swept):
    """Issue 29: README's own-configs example (my_conf/policy/patient_slack.yaml, ``name: slack``) ended
    in "unknown policy 'patient_slack'": the ``policy`` coordinate holds option names, and the family
    is now found from the stored config's ``policy.name`` when the option is not a policy's name."""
    dataset, _ = swept
    renamed = dataset.assign_coords(policy=["patient_random", "patient_lwl"])
    figure = overview_figure(renamed)
    assert figure is not None and figure.axes[0].get_ylabel().startswith("mean response time")
    unknown = renamed.assign_attrs(config="policy: {name: nowhere}\n")
    assert overview_figure(unknown) is None
