"""Points, workloads (:mod:`sweep.testing.dispatch`, which a plugin's tests share) and small helpers
shared by the dispatch tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from sweep.families import Result, load_families
from sweep.families.dispatch._simulate import simulate_arrays
from sweep.testing.dispatch import WORKLOADS, FixedDraws, point, usable_workload

__all__ = ["CASES", "FAMILY", "WORKLOADS", "FixedDraws", "point", "schedule", "usable_workload"]

FAMILY = load_families()["dispatch"]
#: (policy, parameters): every registered policy with each of its examples; the generic checks
#: run over these, so a new policy is tested by being registered.
CASES = [pytest.param(name, dict(params), id="-".join([name, *(f"{k}={v}" for k, v in params.items())]))
         for name, policy in FAMILY.policies.items() for params in policy.examples]


def schedule(policy: str, arrival: Sequence[float], size: Sequence[float], *,
             workload: str = "exponential", hosts: int = 2, load: float = 0.5, rng=None,
             warmup: int = 0, cap: int = 1_000_000, chunk_jobs: int = 1 << 20,
             **params) -> Result:
    """Run the given jobs through ``policy`` with per-job records."""
    p = point(policy, workload, hosts=hosts, load=load, jobs=len(arrival) - warmup,
              warmup=warmup, cap=cap, record=True, **params)
    return simulate_arrays(p, np.asarray(arrival, float), np.asarray(size, float), rng,
                           chunk_jobs=chunk_jobs)
