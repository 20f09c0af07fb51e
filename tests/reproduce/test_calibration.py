"""Calibration (sweep/reproduce/calibration.py): the design, the fit, the generated files."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
import yaml

from sweep.reproduce.calibration import (
    Calibration,
    Target,
    at,
    config_text,
    fit,
    parse,
    sensitivity_text,
    target_values,
)


def _calibration(parameters=None, integer=(), points=5) -> Calibration:
    parameters = parameters or {"load": (1.0, 4.0)}
    return Calibration("test", "arrivals", "the offered load", parameters, frozenset(integer), points, 4,
                       ("p",), (Target("jobs", "mean", {"preset": "p", "variable": "jobs"}, (28.0,)),), ())


def test_the_design_is_a_grid_over_the_ranges_with_integers_rounded():
    calibration = _calibration({"load": (1.0, 4.0), "workload.initial_jobs": (0, 64)},
                               integer=["workload.initial_jobs"], points=3)
    design = calibration.design()
    assert len(design) == 9
    assert design[0] == {"load": 1.0, "workload.initial_jobs": 0}
    assert design[-1] == {"load": 4.0, "workload.initial_jobs": 64}
    assert {d["workload.initial_jobs"] for d in design} == {0, 32, 64}


def test_a_linear_response_is_fitted_where_it_meets_the_printed_number():
    """jobs = 10 * load: the printed 28 is met at load = 2.8; noisy resamples bracket it."""
    calibration = _calibration(points=7)
    loads = np.array([d["load"] for d in calibration.design()])
    values = (10 * loads)[:, None]
    rng = np.random.default_rng(1)
    resampled = [values + rng.normal(0, 0.3, values.shape) for _ in range(20)]
    result = fit(calibration, values, resampled)
    assert result.values["load"] == pytest.approx(2.8, abs=0.02)
    assert result.low["load"] < 2.8 < result.high["load"]
    assert result.fitted[0] == pytest.approx(28.0, rel=1e-2)


def test_two_parameters_are_fitted_to_two_kinds_of_targets():
    """Early jobs set by the initial population, late ones by the load: both recovered."""
    calibration = Calibration("test", "two", "two", {"a": (0.0, 1.0), "b": (0.0, 1.0)}, frozenset(), 6, 1,
                              ("p",), (Target("t", "mean", {}, (0.3, 1.1)),), ())
    design = calibration.design()
    values = np.array([[d["a"], d["a"] + 2 * d["b"]] for d in design])  # a = 0.3, b = 0.4
    result = fit(calibration, values, [])
    assert result.values["a"] == pytest.approx(0.3, abs=0.02)
    assert result.values["b"] == pytest.approx(0.4, abs=0.02)


def test_target_values_read_each_design_point_of_the_design_datasets():
    calibration = _calibration(points=4)
    loads = [d["load"] for d in calibration.design()]
    ds = xr.Dataset({"jobs": (("load", "replication"), np.outer(loads, [1.0, 1.0]) * 10)},
                    coords={"load": loads, "replication": [0, 1]})
    np.testing.assert_allclose(target_values(calibration, {"p": ds})[:, 0], np.array(loads) * 10)
    assert float(at({"p": ds}, {"load": loads[1]})["p"]["jobs"].mean()) == pytest.approx(loads[1] * 10)


def test_the_generated_config_nests_keys_and_says_it_is_generated():
    calibration = _calibration({"load": (1.0, 4.0), "workload.initial_jobs": (0, 64)},
                               integer=["workload.initial_jobs"])
    result = fit(calibration, np.array([[10 * d["load"] + d["workload.initial_jobs"] / 64]
                                        for d in calibration.design()]), [])
    text = config_text(calibration, result)
    assert text.startswith("# @package _global_\n# Written by sweep-calibrate")
    assert "RECONSTRUCTION" in text
    config = yaml.safe_load(text)
    assert isinstance(config["workload"]["initial_jobs"], int)
    assert 1.0 <= config["load"] <= 4.0


def test_a_verdict_is_robust_unless_a_design_point_decides_otherwise():
    assert sensitivity_text("reproduced", {"load=1": "reproduced", "load=2": "undecided"}, "load") \
        == "robust across load's range (1 of 2 design points undecided)"
    assert sensitivity_text("reproduced", {"load=1": "deviates", "load=2": "reproduced"}, "load") \
        == "depends on load: flips to deviates at load=1"


def test_bad_blocks_are_refused():
    block = {"words": "w", "parameters": {"load": [2, 1]}, "presets": ["p"], "targets": []}
    with pytest.raises(ValueError, match="low < high"):
        parse("test", {"x": block})
    with pytest.raises(ValueError, match="unknown keys"):
        parse("test", {"x": {**block, "parameters": {"load": [1, 2]}, "typo": 1}})


@pytest.mark.parametrize(("args", "message"), [
    (["--paper", "xx99"], "--paper 'xx99' is not a paper"),
    (["--paper", "ipg00", "--only", "nope"], "no calibration block named 'nope' in ipg00"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "sweep.reproduce.calibrate", "--out", str(tmp_path / "out"),
                           *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.strip().count("\n") == 0, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_paper_without_blocks_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    """Every shipped paper has a block; one without any (here TF99's record stripped of its
    sensitivity design) is refused before anything runs."""
    import dataclasses

    from sweep.reproduce import calibrate, claims

    bare = dataclasses.replace(claims.load_paper("tf99"), calibrations=())
    monkeypatch.setattr(claims, "load_paper", lambda key: bare)
    assert calibrate.main(["--out", str(tmp_path / "out"), "--paper", "tf99"]) == 2
    assert capsys.readouterr().err.strip() == "sweep-calibrate: no calibration block in tf99"
    assert not (tmp_path / "out").exists()


def test_a_failed_design_run_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    """The module docstring's promise: a run that fails ends the command with one line and exit 1
    (here the pool raises as a lost cluster would)."""
    from sweep.engine import runner
    from sweep.reproduce import calibrate

    def broken(pending):
        raise RuntimeError("the pool is gone")

    monkeypatch.setattr(runner, "run_many", broken)
    status = calibrate.main(["--out", str(tmp_path / "out"), "--paper", "ipg00", "--only", "edge_data",
                             "--no-progress"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip() == "sweep-calibrate: a run failed: RuntimeError: the pool is gone", err
