"""A run split into chunks equals the unsplit run bit for bit (carried state, fixed draw blocks)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.dispatch._core import HostSystem
from sweep.families.dispatch._simulate import simulate
from sweep.families.dispatch.lwl import _run as lwl_kernel

from ._util import CASES, point, usable_workload


def _same(a, b):
    assert a.summary.keys() == b.summary.keys()
    for name, value in a.summary.items():
        np.testing.assert_array_equal(value, b.summary[name], err_msg=name)
    for name, value in a.jobs.items():
        np.testing.assert_array_equal(value, b.jobs[name], err_msg=name)
    assert a.work == b.work


@pytest.mark.parametrize(("policy", "params"), CASES)
def test_family_chunks(policy, params):
    """Chunks of 1 << 20, 1000 and 777 jobs (not a multiple of the draw block, nor of the
    batch length) give the same summary and job records. ρ = .95 makes the rings grow."""
    p = point(policy, usable_workload(policy, params), hosts=3, load=0.95, jobs=20_000, warmup=3_333,
              record=True, **params)
    whole = simulate(p, np.random.default_rng(5))
    for chunk in (1000, 777):
        _same(whole, simulate(p, np.random.default_rng(5), chunk_jobs=chunk))


def test_host_system_feeds():
    """The wrapper fed one array, or the same jobs in uneven pieces, ends in the same state."""
    rng = np.random.default_rng(9)
    arrival, size = np.cumsum(rng.exponential(0.5, 50_000)), rng.exponential(0.9, 50_000)
    systems = []
    for cuts in ([], [1, 2, 3, 4096, 4097, 30_000], list(range(100, 50_000, 1234))):
        system = HostSystem(2, lwl_kernel, warmup=5_000, jobs=45_000, max_in_system=10**6,
                            batches=7)
        for piece in np.split(np.arange(50_000), cuts):
            system.feed(arrival[piece], size[piece])
        systems.append(system)
    first = systems[0].summary()
    for other in systems[1:]:
        for name, value in other.summary().items():
            np.testing.assert_array_equal(value, first[name], err_msg=name)
