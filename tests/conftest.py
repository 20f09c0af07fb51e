"""Shared fixtures: one local Ray for the few tests that need it (docs/design.md §9;
:mod:`sweep.testing.fixtures`, which a plugin's tests share), and the command line's one-line errors."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pytest

from sweep.testing.fixtures import ray_session  # noqa: F401 (the Ray the tests marked ray share)

os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture
def error_line(capsys) -> Callable[[Sequence[str]], str]:
    """``error_line(args)``: run the command line on ``args``, check that it exits with 2 and
    writes exactly one line, ``sweep: error: ...``, and return that line."""
    from sweep.cli import main

    def run(args: Sequence[str]) -> str:
        status = main(list(args))
        lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert status == 2 and len(lines) == 1 and lines[0].startswith("sweep: error: "), lines
        return lines[0]

    return run


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of an ``xdist_group`` first: the claim tests that share the one quick reproduction
    are the suite's longest unit, so with two test processes (``addopts``) it starts at once and
    the other process runs everything else meanwhile. The order is otherwise kept."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
