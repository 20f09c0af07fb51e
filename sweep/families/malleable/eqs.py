"""EQS, spatial equipartitioning (Tucker & Gupta; seed 000 §2.2).

At every arrival and departure the processors are shared equally among the
jobs in the system, a job never getting more than its maximum parallelism
``N_j`` (water-filling: capped jobs get ``N_j``, the share is recomputed for
the rest). Integer shares are rounded up for the jobs with less acquired
processing time and down for the others; ``fractional: true`` gives the real
share instead (with linear speedup and ``N_j ≥ P`` this is M/G/1 processor
sharing at rate ``P``).
"""

from __future__ import annotations

import numpy as np

from sweep.families.malleable import _core
from sweep.families.malleable._policy import Outcome, Policy, Shares, register_policy
from sweep.families.malleable.workload import MalleableJobs


def caps(jobs: MalleableJobs, processors: int) -> np.ndarray:
    """``min(N_j, P)``, as reals for the kernels."""
    return np.minimum(jobs.parallelism, processors).astype(np.float64)


def run(jobs: MalleableJobs, processors: int, params: Shares, warmup: int, target: int,
        cap: int) -> Outcome:
    """Simulate EQS; see :mod:`sweep.families.malleable._core`."""
    n = caps(jobs, processors)
    return _core.run_equipartition(jobs.arrival, jobs.a, jobs.b, jobs.c, n, n, np.zeros_like(n),
                                   float(processors), params.fractional, warmup, target, cap)


register_policy(Policy("eqs", run, Shares))
