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
