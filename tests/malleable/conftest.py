"""Small hand-made job streams; ``example``: every registered policy with each of its examples."""

import numpy as np
import pytest

from sweep.families.malleable._workload import MalleableJobs
from sweep.workloads.speedup import pws

from ._util import EXAMPLES, IDS


def pytest_generate_tests(metafunc):
    """A test that takes ``example`` runs once per registered policy and example: ``(name, options)``."""
    if "example" in metafunc.fixturenames:
        metafunc.parametrize("example", EXAMPLES, ids=IDS)


def _jobs(arrival, a, b=None, c=None, n=None) -> MalleableJobs:
    """Jobs with ``T(x) = a/x + b + c x`` (linear speedup by default) and caps ``n``."""
    arrival = np.asarray(arrival, dtype=np.float64)
    a = np.asarray(a, dtype=np.float64)
    b = np.zeros_like(a) if b is None else np.asarray(b, dtype=np.float64)
    c = np.zeros_like(a) if c is None else np.asarray(c, dtype=np.float64)
    n = np.asarray(n, dtype=np.int64)
    return MalleableJobs(arrival, a + b + c, n, a, b, c, pws(a, b, c, n))


@pytest.fixture
def stream():
    """``stream(arrival, a, b, c, n)``: a :class:`MalleableJobs` from its columns."""
    return _jobs
