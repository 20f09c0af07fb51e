"""Composed configs are kept per (overrides, config files) within a process (issue 29): a loop of
``sweep.run`` calls on one config composes it once, each call gets its own copy, and an edited
config file is composed again."""

from __future__ import annotations

import os
import time

from sweep.config import compose as config
from sweep.config.compose import compose

OVERRIDES = ["policy=lwl", "workload=c90", "load=0.5", "model=analytic"]


def test_the_same_overrides_are_composed_once_and_each_call_gets_its_own_copy(monkeypatch):
    calls = []
    hydra_compose = config._hydra_compose

    def counted(overrides):
        calls.append(overrides)
        return hydra_compose(overrides)

    monkeypatch.setattr(config, "_hydra_compose", counted)
    config._COMPOSED.clear()
    first = compose(OVERRIDES)
    composes = len(calls)
    second = compose(OVERRIDES)
    assert len(calls) == composes  # from the cache: no Hydra compose
    assert second == first and second is not first
    second.load = 0.9
    assert compose(OVERRIDES).load == 0.5  # a caller's change does not reach the cache
    compose([*OVERRIDES[:-1], "model=simulation"])
    assert len(calls) > composes  # other overrides: composed


def test_an_edited_config_file_is_composed_again(tmp_path):
    (tmp_path / "policy").mkdir()
    option = tmp_path / "policy" / "patient_slack.yaml"
    text = "defaults:\n  - /schema/policy/slack@_here_\n  - _self_\nname: slack\nslack_factor: {}\n"
    option.write_text(text.format(7.0))
    overrides = [f"hydra.searchpath=[file://{tmp_path}]", "policy=patient_slack"]
    assert compose(overrides).policy.slack_factor == 7.0
    option.write_text(text.format(9.0))
    later = time.time() + 5  # a new modification time, whatever the file system's resolution
    os.utime(option, (later, later))
    assert compose(overrides).policy.slack_factor == 9.0
    compose(OVERRIDES)  # the user's folder off the search path again for the tests after this one


def test_a_plain_output_path_is_set_after_composing_so_each_output_shares_one_compose(monkeypatch, tmp_path):
    """``sweep.run`` without ``output=`` runs in a new temporary folder each call: the output path is
    no part of what is composed, so a loop of such calls composes once (it composed every time: 127 ms
    a call here, 17 ms now). A value Hydra must parse (an interpolation) is still composed."""
    calls = []
    hydra_compose = config._hydra_compose
    monkeypatch.setattr(config, "_hydra_compose", lambda overrides: calls.append(overrides) or
                        hydra_compose(overrides))
    config._COMPOSED.clear()
    first = compose([*OVERRIDES, f"output={tmp_path}/a/results.nc"])
    composes = len(calls)
    second = compose([*OVERRIDES, f"output={tmp_path}/b/results.nc"])
    assert len(calls) == composes
    assert (first.output, second.output) == (f"{tmp_path}/a/results.nc", f"{tmp_path}/b/results.nc")
    assert compose(OVERRIDES).output is None
    compose([*OVERRIDES, "output=${oc.env:HOME}/r.nc"])
    assert len(calls) > composes


def test_sweep_run_without_an_output_writes_nothing_and_composes_once(monkeypatch, tmp_path):
    import tempfile

    import sweep

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    calls = []
    hydra_compose = config._hydra_compose
    monkeypatch.setattr(config, "_hydra_compose", lambda overrides: calls.append(overrides) or
                        hydra_compose(overrides))
    config._COMPOSED.clear()
    overrides = [*OVERRIDES, "replications=1", "engine.backend=serial"]
    first = sweep.run(overrides)
    composes = len(calls)
    again = [sweep.run(overrides) for _ in range(2)]
    assert composes > 0 and len(calls) == composes
    assert all(float(r.mean_response.squeeze()) == float(first.mean_response.squeeze()) for r in again)
    assert list(tmp_path.iterdir()) == []  # the temporary folders are gone, and no file was left
