"""Points, workloads and small helpers shared by the dispatch tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from sweep.families import Point, Result, StopRule, load_families
from sweep.families.dispatch._simulate import simulate_arrays

WORKLOADS = {
    "exponential": {"name": "exponential", "kind": "exponential", "mean": 1.0},
    "hyperexp2": {"name": "hyperexp2", "kind": "hyperexp2", "mean": 1.0, "scv": 8.0},
    "c90": {"name": "c90", "kind": "c90"},
    "bounded_pareto": {"name": "bounded_pareto", "kind": "bounded_pareto", "k": 332.1,
                       "p": 1.0e10, "alpha": 1.1},
    "ctc": {"name": "ctc", "kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
            "processors": 8, "max_run_time": 43200.0, "sampling": "bootstrap", "cutoff_fraction": 0.5},
}
FAMILY = load_families()["dispatch"]
#: (policy, parameters): every registered policy with each of its examples; the generic checks
#: run over these, so a new policy is tested by being registered.
CASES = [pytest.param(name, dict(params), id="-".join([name, *(f"{k}={v}" for k, v in params.items())]))
         for name, policy in FAMILY.policies.items() for params in policy.examples]


def usable_workload(policy: str, params: dict, candidates: Sequence[str] = ("hyperexp2", "c90")) -> str:
    """The first of ``candidates`` the policy accepts (SITA-U needs E[1/X] < inf, so not hyperexp2)."""
    for name in candidates:
        try:
            FAMILY.validate(point(policy, name, **params))
        except ValueError:
            continue
        return name
    raise AssertionError(f"policy {policy} accepts none of {candidates}")


def point(policy: str, workload: str = "exponential", *, hosts: int = 2, load: float = 0.5,
          jobs: int = 1000, warmup: int = 0, cap: int = 1_000_000, record: bool = False,
          model: str = "simulation", **params) -> Point:
    """A dispatch point with plain-dict sections, as the engine builds them."""
    return Point(policy={"name": policy, **params}, workload=dict(WORKLOADS[workload]),
                 system={"hosts": hosts}, load=load,
                 stop=StopRule(jobs=jobs, warmup=warmup, max_in_system=cap),
                 record_jobs=record, model=model)


class FixedDraws:
    """Stands in for Random's generator: hands out the given uniforms in order."""

    def __init__(self, uniforms: Sequence[float]) -> None:
        self._uniforms = list(uniforms)

    def random(self, count: int) -> np.ndarray:
        taken, self._uniforms = self._uniforms[:count], self._uniforms[count:]
        return np.array(taken)


def schedule(policy: str, arrival: Sequence[float], size: Sequence[float], *,
             workload: str = "exponential", hosts: int = 2, load: float = 0.5, rng=None,
             warmup: int = 0, cap: int = 1_000_000, chunk_jobs: int = 1 << 20,
             **params) -> Result:
    """Run the given jobs through ``policy`` with per-job records."""
    p = point(policy, workload, hosts=hosts, load=load, jobs=len(arrival) - warmup,
              warmup=warmup, cap=cap, record=True, **params)
    return simulate_arrays(p, np.asarray(arrival, float), np.asarray(size, float), rng,
                           chunk_jobs=chunk_jobs)
