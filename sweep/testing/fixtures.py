"""Fixtures of the generic tests: import them into a ``conftest.py`` or a test module.

::

    from sweep.testing.fixtures import ray_session  # noqa: F401 (a fixture, used by name)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

__all__ = ["ray_session"]


@pytest.fixture(scope="session")
def ray_session() -> Iterator[ModuleType]:
    """A 2-CPU local Ray shared by the session; sweeps reuse it instead of starting their own. A Ray
    of its own (``address="local"``), never one another process on the machine has started."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield ray
    ray.shutdown()
