"""Points, workloads and small helpers shared by the dispatch tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sweep.families import Point, Result, StopRule
from sweep.families.dispatch._simulate import simulate_arrays

WORKLOADS = {
    "exponential": {"name": "exponential", "kind": "exponential", "mean": 1.0},
    "hyperexp2": {"name": "hyperexp2", "kind": "hyperexp2", "mean": 1.0, "scv": 8.0},
    "c90": {"name": "c90", "kind": "c90"},
    "bounded_pareto": {"name": "bounded_pareto", "kind": "bounded_pareto", "k": 332.1,
                       "p": 1.0e10, "alpha": 1.1},
    "ctc": {"name": "ctc", "kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
            "processors": 8, "sampling": "bootstrap", "cutoff_fraction": 0.5},
}
POLICIES = ("random", "round_robin", "shortest_queue", "lwl", "central_queue", "sita_e",
            "sita_u_opt", "sita_u_fair", "sita_u_rule")
#: SITA-U-opt and -fair need E[1/X] < inf: not exponential, not hyperexponential.
NEEDS_FINITE_SLOWDOWN = ("sita_u_opt", "sita_u_fair")


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
