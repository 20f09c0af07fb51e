"""Workload configs (conf/workload/*.yaml) and make_distribution / validate_workload."""

import functools
from pathlib import Path

import numpy as np
import pytest

from sweep.config.compose import compose_group_option, load_option
from sweep.config.files import config_dirs
from sweep.workloads.config import WORKLOAD_KINDS, make_distribution, validate_workload
from sweep.workloads.distributions import Empirical, Hyperexp2
from sweep.workloads.named import PACKAGE_ROOT, trace_sizes

ALL_CONFIGS = sorted(path for folder in config_dirs() for path in (folder / "workload").glob("*.yaml"))
EXPECTED_MEANS = {
    "exponential": 1.0,
    "hyperexp2": 1.0,
    "bounded_pareto": 3000.0,
    "c90": 4562.6,
    "j90": 9448.6,
    "j90_refit": 9448.6,  # SH00's printed mean, whatever the borrowed shapes
    "ctc": 2903.6,
}


@functools.cache
def _composed(name: str) -> dict:
    return load_option("workload", name)


def load(path: Path) -> dict:
    """The option as Hydra composes it (its defaults list and schema applied), as a plain dict (a
    copy: composed once per test process, not at collection, where it cost every process 20 s)."""
    return dict(_composed(path.stem))


def test_every_config_is_named_after_its_file():
    for path in ALL_CONFIGS:
        assert load(path)["name"] == path.stem


def test_every_distribution_config_builds():
    # the options make_distribution builds are EXPECTED_MEANS's: kind "swf" (kth.yaml, swf.yaml) is
    # the rigid family's trace replay, the others are other families' workloads
    distributions = [path for path in ALL_CONFIGS if load(path)["kind"] in WORKLOAD_KINDS]
    assert {path.stem for path in distributions} == set(EXPECTED_MEANS)
    for path in distributions:
        cfg = load(path)
        validate_workload(cfg)
        assert make_distribution(cfg).mean == pytest.approx(EXPECTED_MEANS[path.stem], rel=1e-3)


@pytest.mark.parametrize("name", sorted(EXPECTED_MEANS))
def test_every_parameter_can_be_overridden(name):
    cfg = load_option("workload", name)
    base = make_distribution(cfg)
    for key, value in cfg.items():
        if key in ("name", "kind", "cutoff_fraction") or isinstance(value, str):
            continue  # cutoff_fraction is read by the family, not by make_distribution
        changed = make_distribution({**cfg, key: value * 1.01 if key != "processors" else 16})
        assert repr(changed) != repr(base) or changed.mean != base.mean, key


def test_trace_keeps_trace_order():
    cfg = load(PACKAGE_ROOT / "conf/workload/ctc.yaml")
    distribution = make_distribution(cfg)
    assert isinstance(distribution, Empirical)
    np.testing.assert_array_equal(distribution.values,
                                  trace_sizes(cfg["path"], max_run_time=cfg["max_run_time"]).sizes)


def test_command_line_style_override_on_the_yaml():
    cfg = compose_group_option(["workload.scv=16"], "workload", "hyperexp2")
    distribution = make_distribution(cfg)
    assert isinstance(distribution, Hyperexp2)
    assert distribution.scv == pytest.approx(16.0)


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        ({"kind": "weibull"}, "workload.kind must be one of ['exponential', "),
        ({"mean": 1.0}, "workload.kind must be one of"),
        ({"kind": ["exponential"]}, "workload.kind must be one of"),
        ({"kind": "trace", "path": 3}, "workload.path must be a file path, got 3"),
        ({"kind": "exponential", "mean": -1.0}, "workload.mean must be > 0 and finite, got -1.0"),
        ({"kind": "exponential"}, "workload.mean is required for workload kind exponential"),
        ({"kind": "exponential", "mean": "big"}, "workload.mean must be a number, got 'big'"),
        ({"kind": "exponential", "mean": True}, "workload.mean must be a number"),
        ({"kind": "exponential", "mean": 1, "scv": 2}, "workload.scv is not an option of"),
        ({"kind": "hyperexp2", "mean": 1, "scv": 0.5}, "workload.scv must be >= 1 and finite"),
        ({"kind": "bounded_pareto", "k": 10, "p": 5, "alpha": 1}, "workload.p must be > k = 10"),
        ({"kind": "c90", "tail_weight": 1.5}, "workload.tail_weight must be in [0, 1]"),
        ({"kind": "j90", "sigma": 0}, "workload.sigma must be > 0 and finite"),
        ({"kind": "trace", "path": "no/such.swf"}, "workload.path: no such trace file: "),
        (
            {"kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz", "processors": 2.5},
            "workload.processors must be a positive integer",
        ),
        (
            {
                "kind": "trace",
                "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
                "processors": 1000,
            },
            "workload.processors: no job in ",
        ),
        (
            {"kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz", "max_run_time": 0},
            "workload.max_run_time must be > 0 s (inf: no limit), got 0",
        ),
        (
            {"kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz", "sizes_from": "x"},
            "workload.sizes_from must be one of ['whole', 'rest']",
        ),
        (
            {"kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz", "sizes_from": "rest",
             "cutoff_fraction": 1},
            "workload.sizes_from=rest needs workload.cutoff_fraction < 1",
        ),
        (
            {"kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz", "sampling": "x"},
            "workload.sampling must be one of ['bootstrap', 'trace_order']",
        ),
        (
            {
                "kind": "trace",
                "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
                "cutoff_fraction": 0,
            },
            "workload.cutoff_fraction must be in (0, 1]",
        ),
    ],
)
def test_bad_options_give_one_line_naming_them(cfg, message):
    with pytest.raises(ValueError) as caught:
        validate_workload(cfg)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_missing_trace_names_the_resolved_path():
    with pytest.raises(ValueError, match=str(PACKAGE_ROOT / "no/such.swf")):
        validate_workload({"kind": "trace", "path": "no/such.swf"})


def test_malformed_trace_names_file_and_line(tmp_path):
    path = tmp_path / "bad.swf"
    path.write_text("; MaxProcs: 8\n 1 0 0 10 8\n")
    with pytest.raises(ValueError, match=rf"workload.path: malformed trace: {path}:2: expected 18"):
        validate_workload({"kind": "trace", "path": str(path)})
