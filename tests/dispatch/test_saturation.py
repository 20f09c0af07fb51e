"""Past saturation a point stops, is flagged, and still reports numbers (docs/design.md §6)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep.families.dispatch import FAMILY

from ._util import CASES, point, schedule, usable_workload


@pytest.mark.parametrize(("policy", "params"), CASES)
def test_overload_stops_at_the_cap(policy, params):
    p = point(policy, usable_workload(policy, params), hosts=2, load=1.3, jobs=2_000_000, warmup=1000,
              cap=2000, **params)
    result = FAMILY.simulate(p, np.random.default_rng(1))
    assert result.summary["saturated"]
    assert result.work < 100_000  # stopped long before the budget
    assert 0 < result.summary["jobs"] < 100_000
    assert math.isfinite(result.summary["mean_response"])
    assert result.summary["utilization"] == pytest.approx(1.0, abs=0.05)


@pytest.mark.parametrize("policy", ["sita_u_opt", "sita_u_fair"])
def test_sita_u_past_load_one_is_saturated(policy):
    """No feasible cutoffs at ρ ≥ 1: SITA-E's are used, and the point is flagged."""
    p = point(policy, "c90", hosts=2, load=1.1, jobs=5000, warmup=0, cap=500)
    assert FAMILY.simulate(p, np.random.default_rng(1)).summary["saturated"]
    assert FAMILY.analytic(p).summary["saturated"]


def test_stable_point_is_not_flagged():
    p = point("shortest_queue", "hyperexp2", hosts=2, load=0.9, jobs=200_000, warmup=1000)
    result = FAMILY.simulate(p, np.random.default_rng(1))
    assert not result.summary["saturated"]
    assert result.work == 201_000


def test_host_overload_known_in_advance():
    """SITA-U-rule with host 1 given 90% of the work at ρ = .6: host 1 runs at load 1.08.

    The system as a whole is below 1, but the point is saturated, simulated or analytic.
    """
    p = point("sita_u_rule", "hyperexp2", load=0.6, jobs=20_000, host1_fraction=0.9)
    assert FAMILY.simulate(p, np.random.default_rng(1)).summary["saturated"]
    analytic = FAMILY.analytic(p).summary
    assert analytic["saturated"] and analytic["mean_response"] == math.inf


@pytest.mark.parametrize("cap, stopped", [(2, True), (3, False)])
def test_cap_counts_jobs_in_system_exactly(cap, stopped):
    """One host, arrivals 0, .1, .2, sizes 10: 1, 2, then 3 jobs in system.

    With cap 2 the third arrival passes it (3 > 2): the run stops there. With cap 3
    it completes. Then a fourth job at 25, when all have left (ends 10, 20, 30: one left).
    """
    result = schedule("round_robin", [0, .1, .2, 25], [10, 10, 10, 1], hosts=1, cap=cap)
    assert result.summary["saturated"] is stopped
    assert result.work == (3 if stopped else 4)
