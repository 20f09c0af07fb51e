"""Every policy against the event-driven references of ``tests/naive/dispatch.py`` (STYLE 7).

Job by job (host, start, end) and in the summary statistics, on small random
workloads: continuous ones, and integer ones full of simultaneous arrivals,
departures and equal backlogs, where the tie rules decide.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from naive import dispatch as naive

from sweep.families.dispatch._simulate import simulate_arrays
from sweep.families.dispatch._workload import workload_of

from ._util import CASES, FAMILY, FixedDraws, point, usable_workload

pytestmark = pytest.mark.kernel  # rerun without the JIT (tests/test_without_jit.py)


def _jobs(rng, integer: bool):
    n = int(rng.integers(2, 60))
    if integer:
        return np.cumsum(rng.integers(0, 3, n)).astype(float), rng.integers(1, 6, n).astype(float)
    return np.cumsum(rng.exponential(1.0, n)), rng.pareto(1.5, n) + 0.2


def _cutoffs(p) -> tuple[float, ...]:
    """The size cutoffs of a size-interval policy (its ``cutoffs`` hook), else none."""
    cutoffs = FAMILY.policy(p).hooks.cutoffs
    return cutoffs(p, workload_of(p.workload)) if cutoffs else ()


@pytest.mark.parametrize("integer", [False, True], ids=["continuous", "integer"])
@pytest.mark.parametrize(("policy", "params"), CASES)
def test_kernel_matches_reference(policy, params, integer):
    rng = np.random.default_rng(zlib.crc32(f"{policy}{params}{integer}".encode()))
    # Sizes around 1 here, so SITA's cutoffs come from a workload with sizes around 1 too;
    # SITA-U needs E[1/X] < inf: C90 sizes, scaled up to its range.
    workload = usable_workload(policy, params, ("exponential", "c90"))
    for trial in range(25):
        arrival, size = _jobs(rng, integer)
        if workload == "c90":
            size = size * 1000.0
        hosts = int(rng.integers(1, 5))
        load = float(rng.choice([0.3, 0.7]))
        warmup = int(rng.integers(0, len(arrival) - 1))
        draws = rng.random(8 * len(arrival))  # enough uniforms for up to 8 per job
        p = point(policy, workload, hosts=hosts, load=load, jobs=len(arrival) - warmup,
                  warmup=warmup, record=True, **params)
        want_start, want_end, want_host = naive.simulate(
            policy, arrival.tolist(), size.tolist(), hosts, cutoffs=_cutoffs(p), draws=draws.tolist(),
            **params)
        result = simulate_arrays(p, arrival, size, FixedDraws(draws), chunk_jobs=7)
        got = result.jobs
        where = f"trial {trial}, h={hosts}"
        np.testing.assert_array_equal(got["job_host"], want_host[warmup:], err_msg=where)
        np.testing.assert_array_equal(got["start"], want_start[warmup:], err_msg=where)
        np.testing.assert_array_equal(got["end"], want_end[warmup:], err_msg=where)
        want = naive.summary(arrival, size, want_start, want_end, want_host, hosts, warmup)
        for name, value in want.items():
            np.testing.assert_allclose(result.summary[name], value, rtol=1e-9, atol=1e-12,
                                       err_msg=f"{name}, {where}")
