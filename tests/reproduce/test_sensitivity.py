"""Sensitivity blocks (sweep/reproduce/calibration.py): a reconstructed parameter that no printed
number fixes, varied over its plausible range; each verdict judged at every design point."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import xarray as xr

from sweep.reproduce.calibration import parse, point_label, sensitivity_record, sensitivity_text
from sweep.reproduce.claims import Claim, Expectation
from sweep.reproduce.report import sensitivity_markdown
from sweep.reproduce.sensitivity import design_verdicts, reads_parameters

BLOCK = {"words": "the lower end of the body", "source": "model notes §3",
         "parameters": {"workload.lo": [0.25, 4.0]}, "log": ["workload.lo"], "points": 3,
         "replications": 2, "presets": ["p"]}


def test_a_sensitivity_block_is_read_with_its_source_and_log_spaced_design():
    (block,) = parse("test", {"small_jobs": BLOCK}, kind="sensitivity")
    assert not block.fits
    assert block.key == "test_small_jobs"
    assert block.source == "model notes §3"
    assert block.targets == () and block.claims == ()
    assert block.design() == [{"workload.lo": 0.25}, {"workload.lo": 1.0}, {"workload.lo": 4.0}]
    assert block.replications == 2 and block.presets == ("p",)


@pytest.mark.parametrize(("change", "message"), [
    ({"source": None}, "missing source"),
    ({"targets": []}, r"unknown keys \['targets'\]"),
    ({"log": ["load"]}, "log names parameters of the block"),
    ({"parameters": {"workload.lo": [0.0, 4.0]}},
     "log names parameters of the block whose ranges are above 0"),
])
def test_bad_sensitivity_blocks_are_refused(change, message):
    block = {key: value for key, value in {**BLOCK, **change}.items() if value is not None}
    with pytest.raises(ValueError, match=message):
        parse("test", {"x": block}, kind="sensitivity")


READINGS = {"words": "two readings of the events", "source": "model notes §2",
            "parameters": {"policy.completion": ["compress", "remove"], "policy.awt": [1200, 3600]},
            "points": 2, "replications": "own", "presets": ["p"]}


def test_a_categorical_parameter_is_given_by_its_values_and_replications_may_be_each_presets_own():
    """A list of strings is a choice (TF99 §2's readings): every value a design point, crossed with the
    ranges' points; ``replications: own`` passes no replications to the design runs."""
    import argparse
    from pathlib import Path

    from sweep.reproduce.calibrate import _overrides

    (block,) = parse("test", {"readings": READINGS}, kind="sensitivity")
    assert block.categorical("policy.completion") and not block.categorical("policy.awt")
    assert block.axis("policy.completion") == ["compress", "remove"]
    assert block.design() == [{"policy.completion": c, "policy.awt": a}
                              for c in ("compress", "remove") for a in (1200.0, 3600.0)]
    assert point_label(block.design()[1]) == "completion=compress, awt=3600"
    assert block.replications is None
    args = argparse.Namespace(workers=1, address="", progress=False)
    overrides = _overrides(block, "p", Path("/tmp"), args)
    assert "grid.policy.completion=[compress,remove]" in overrides
    assert not any(o.startswith("replications=") for o in overrides)
    numbered = dataclasses.replace(block, replications=3)
    assert "replications=3" in _overrides(numbered, "p", Path("/tmp"), args)


@pytest.mark.parametrize(("change", "message"), [
    ({"parameters": {"policy.completion": ["compress"]}}, "at least two different values"),
    ({"parameters": {"policy.completion": ["compress", "compress"]}}, "at least two different values"),
    ({"parameters": {"policy.completion": ["compress", 1]}}, "every range must be"),
    ({"parameters": {"policy.awt": [1200, 2400, 3600]}}, "every range must be"),
    ({"log": ["policy.completion"]}, "log names parameters"),
    ({"integer": ["policy.completion"]}, "integer names a parameter given by its values"),
])
def test_bad_categorical_parameters_are_refused(change, message):
    with pytest.raises(ValueError, match=message):
        parse("test", {"x": {**READINGS, **change}}, kind="sensitivity")


def test_a_calibrate_block_takes_ranges_and_a_number_of_replications_only():
    block = {"words": "w", "parameters": {"policy.completion": ["compress", "remove"]}, "presets": ["p"],
             "targets": [{"words": "t", "quantity": "mean", "args": {}, "values": [1]}]}
    with pytest.raises(ValueError, match="needs a range of numbers"):
        parse("test", {"x": block})
    with pytest.raises(ValueError, match="replications: own is for sensitivity"):
        parse("test", {"x": {**block, "parameters": {"load": [1, 2]}, "replications": "own"}})


def test_each_claim_is_judged_at_each_reading():
    """A categorical design point selects a string coordinate: policy a's x is 3.5 when compressing,
    6.0 when removing; the claim flips there."""
    one = {**READINGS, "parameters": {"policy.completion": ["compress", "remove"]}}
    (block,) = parse("test", {"readings": one}, kind="sensitivity")
    ds = xr.Dataset({"x": (("policy", "completion", "replication"),
                           np.array([[[3.49, 3.51], [5.99, 6.01]], [[3.5, 3.5], [3.5, 3.5]]]))},
                    coords={"policy": ["a", "b"], "completion": ["compress", "remove"],
                            "replication": [0, 1]})
    verdicts = design_verdicts(block, [_claim("on_a", "x", "a"), _claim("on_b", "x", "b")], {"p": ds})
    assert verdicts == {"on_a": {"completion=compress": "reproduced", "completion=remove": "contradicted"}}
    record = sensitivity_record(block, verdicts, 3.0)
    assert record["parameters"] == {"policy.completion": {"values": ["compress", "remove"],
                                                          "design": ["compress", "remove"]}}
    assert record["design"]["replications"] == "own"
    lines = sensitivity_markdown(record, 3)
    assert "| `policy.completion` | compress, remove | compress, remove |" in lines
    assert lines[-2].startswith("Design: 2 points × each preset's own replications (as the run's first "
                                "round), 3 s of compute; 1 claim reads the parameters.")


def test_a_calibrate_block_without_targets_is_sent_to_sensitivity():
    block = {"words": "w", "parameters": {"load": [1, 2]}, "presets": ["p"], "targets": []}
    with pytest.raises(ValueError, match="no targets .* sensitivity: block"):
        parse("test", {"x": block})


@pytest.mark.parametrize(("verdict", "at_points", "text"), [
    ("reproduced", {"lo=0.25": "reproduced", "lo=1": "reproduced", "lo=4": "reproduced"},
     "robust across lo's range"),
    ("reproduced", {"lo=0.25": "reproduced", "lo=1": "undecided", "lo=4": "reproduced"},
     "robust across lo's range (1 of 3 design points undecided)"),
    ("deviates", {"lo=0.25": "reproduced", "lo=1": "deviates", "lo=4": "contradicted"},
     "depends on lo: flips to reproduced at lo=0.25; to contradicted at lo=4"),
    ("reproduced", {"lo=0.25": "contradicted", "lo=1": "reproduced", "lo=4": "contradicted"},
     "depends on lo: flips to contradicted at lo=0.25 and lo=4"),
    ("reproduced", {"lo=1": "deviates", "lo=2": "deviates", "lo=3": "contradicted", "lo=4": "deviates",
                    "lo=5": "undecided"},
     "depends on lo: flips to deviates at lo=1 and lo=2 and lo=4 and 1 more "
     "(1 of 5 design points undecided)"),
    ("reproduced", {"lo=0.25": "reproduced", "lo=1": "undecided", "lo=4": "error: KeyError"},
     "robust across lo's range (1 of 3 design points undecided, 1 not computed)"),
    ("undecided", {"lo=0.25": "reproduced", "lo=1": "undecided", "lo=4": "reproduced"},
     "not decided here; over lo's range: 2 reproduced (1 of 3 design points undecided)"),
    ("undecided", {"lo=0.25": "undecided", "lo=4": "undecided"},
     "undecided at every design point of lo's range"),
    ("reproduced", {"lo=0.25": "undecided", "lo=4": "undecided"},
     "undecided at every design point of lo's range"),
    ("reproduced", {"lo=0.25": "undecided", "lo=4": "error: KeyError"},
     "decided at no design point of lo's range (1 of 2 design points undecided, 1 not computed)"),
])
def test_the_sensitivity_text(verdict, at_points, text):
    assert sensitivity_text(verdict, at_points, "lo") == text


def _claim(claim_id: str, variable: str, policy: str) -> Claim:
    return Claim("test", claim_id, "§1", "words", "mean",
                 {"preset": "p", "variable": variable, "select": {"policy": policy}},
                 Expectation.parse({"between": [3, 4], "figures": 1}, "test"))


def test_each_claim_is_judged_at_each_design_point_unless_it_does_not_read_the_parameter():
    """Policy a's x rises with lo (3.5 at lo = 0.25 and 1, 6.0 at lo = 4, outside [2.5, 4.5]);
    policy b's is the same at every lo (b has no such parameter: a claim on b alone is left out);
    z is not in the Datasets (not computable anywhere: left out)."""
    (block,) = parse("test", {"small_jobs": BLOCK}, kind="sensitivity")
    a = np.array([[3.49, 3.51], [3.49, 3.51], [5.99, 6.01]])
    ds = xr.Dataset({"x": (("policy", "lo", "replication"), np.stack([a, np.full((3, 2), 3.5)]))},
                    coords={"policy": ["a", "b"], "lo": [0.25, 1.0, 4.0], "replication": [0, 1]})
    claims = [_claim("on_a", "x", "a"), _claim("on_b", "x", "b"), _claim("z", "z", "a")]
    verdicts = design_verdicts(block, claims, {"p": ds})
    assert verdicts == {"on_a": {"lo=0.25": "reproduced", "lo=1": "reproduced", "lo=4": "contradicted"}}
    assert sensitivity_text("reproduced", verdicts["on_a"], "lo") \
        == "depends on lo: flips to contradicted at lo=4"
    assert reads_parameters(block, claims[0], {"p": ds}) and not reads_parameters(block, claims[1], {"p": ds})


def test_the_report_section_of_a_sensitivity_record():
    (block,) = parse("test", {"small_jobs": {**BLOCK, "overrides": ["grid.load=[0.5]"]}}, kind="sensitivity")
    record = sensitivity_record(block, {"x": {"lo=0.25": "reproduced"}}, 12.34)
    assert record["kind"] == "sensitivity"
    assert record["parameters"] == {"workload.lo": {"range": [0.25, 4.0], "design": [0.25, 1.0, 4.0]}}
    assert sensitivity_markdown(record, 3) == [
        "### Sensitivity small_jobs (reconstruction, not fitted)", "",
        "Varied by `sweep-calibrate --paper test`: the lower end of the body. "
        "Plausible range: model notes §3.",
        "", "| parameter | plausible range | design points |", "|---|---|---|",
        "| `workload.lo` | 0.25–4 | 0.25, 1, 4 |", "",
        "Design: 3 points × 2 replications of each preset (with `grid.load=[0.5]`), 12 s of compute; "
        "1 claim reads the parameters. Each verdict's *sensitivity* below is its verdict at every "
        "design point.", ""]


def test_a_tiny_design_end_to_end(tmp_path, monkeypatch):
    """sweep-calibrate on a sensitivity block of SH00's closed-form Figures 7-8 and a short
    Figure 2 over the C90 body's lower end: a record with each of their claims' verdict at each
    design point, nothing fitted, nothing written to conf/calibrated; at lo = 1 (the presets' own
    value) each closed-form verdict is the one the preset itself gives; a rerun reuses the
    Datasets and writes the same record, what they cost included."""
    import yaml

    import sweep
    from sweep.reproduce import calibrate, calibration, claims
    from sweep.reproduce.claims import evaluate

    paper = claims.load_paper("sh00")
    presets = ("sh00_fig2", "sh00_fig7", "sh00_fig8")
    tiny = dataclasses.replace(paper.calibrations[0], name="tiny", replications=2, presets=presets,
                               overrides=("stop.jobs=5000", "stop.warmup=500"))
    monkeypatch.setattr(claims, "load_paper", lambda key: dataclasses.replace(paper, calibrations=(tiny,)))
    monkeypatch.setattr(calibration, "records_folder", lambda: tmp_path / "records")
    conf = calibrate._conf_folder() / "calibrated"
    before = sorted(path.name for path in conf.iterdir())
    command = ["--out", str(tmp_path / "out"), "--paper", "sh00", "--workers", "1", "--no-progress"]
    assert calibrate.main(command) == 0
    assert sorted(path.name for path in conf.iterdir()) == before
    written = tmp_path / "records" / "sh00_tiny.yaml"
    record = yaml.safe_load(written.read_text())
    assert record["kind"] == "sensitivity" and record["design"]["points"] == 3
    assert record["design"]["compute_seconds"] > 0
    on_presets = {c.id: c for c in paper.claims if set(c.presets) <= set(presets)}
    assert set(record["sensitivity"]) <= set(on_presets)
    closed_forms = {c for c in on_presets if set(on_presets[c].presets) <= {"sh00_fig7", "sh00_fig8"}}
    assert closed_forms <= set(record["sensitivity"])
    own = {name: sweep.run([f"experiment={name}"]) for name in ("sh00_fig7", "sh00_fig8")}
    for claim_id, verdicts in record["sensitivity"].items():
        assert list(verdicts) == ["lo=0.25", "lo=1", "lo=4"]
        if claim_id in closed_forms:
            assert verdicts["lo=1"] == evaluate(on_presets[claim_id], own).verdict, claim_id
    written.unlink()
    assert calibrate.main(command) == 0
    assert yaml.safe_load(written.read_text()) == record


def test_the_report_gives_each_judged_claim_its_sensitivity(tmp_path, monkeypatch):
    """sweep-reproduce --quick on two CV96 claims with a made-up record: the one judged gets the text
    of its verdict against the record's; the full-precision-only one, not judged, gets none."""
    import csv

    from sweep.reproduce import calibration, cli
    from sweep.reproduce.claims import load_paper

    judged = "fig10b.relative_performance_unchanged_by_overhead"
    not_judged = "fig10a.fb_pws_utilisation_at_30_per_hour"
    at_points = {"quantum=1": "contradicted", "quantum=100": "reproduced"}
    verdicts = {judged: at_points, not_judged: at_points}
    record = sensitivity_record(load_paper("cv96").calibrations[0], verdicts, 1.0)
    monkeypatch.setattr(calibration, "load_records", lambda paper: [record] if paper == "cv96" else [])
    status = cli.main(["--out", str(tmp_path), "--paper", "cv96", "--quick", "--no-figures", "--workers", "1",
                       "--no-progress", "--claim", f"cv96:{judged}", "--claim", f"cv96:{not_judged}"])
    assert status == 0
    rows = {row["id"]: row for row in csv.DictReader((tmp_path / "claims.csv").open())}
    assert rows[not_judged]["verdict"] == "full precision only" and rows[not_judged]["sensitivity"] == ""
    assert rows[judged]["sensitivity"] == sensitivity_text(rows[judged]["verdict"], at_points, "quantum")
    assert rows[judged]["verdict"] in ("reproduced", "contradicted")  # decided: the text names a flip
    assert rows[judged]["sensitivity"].startswith("depends on quantum: flips to ")
