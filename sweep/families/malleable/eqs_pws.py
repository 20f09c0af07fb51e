"""EQS-PWS (seed 000 §4.2): equipartition in two phases around the processor working set.

Phase one is EQS with each job capped at ``min(pws_j, N_j)``; processors left
over are then equipartitioned with ``N_j − min(pws_j, N_j)`` as the cap on each
job's additional processors. Rounding and ``fractional`` as in EQS.
"""

from __future__ import annotations

import numpy as np

from sweep.families.malleable import _core
from sweep.families.malleable._policy import Outcome, Policy, Shares, register_policy
from sweep.families.malleable.eqs import caps
from sweep.families.malleable.workload import MalleableJobs


def run(jobs: MalleableJobs, processors: int, params: Shares, warmup: int, target: int,
        cap: int) -> Outcome:
    """Simulate EQS-PWS; see :mod:`sweep.families.malleable._core`."""
    n = caps(jobs, processors)
    first = np.minimum(jobs.pws, n)
    return _core.run_equipartition(jobs.arrival, jobs.a, jobs.b, jobs.c, n, first, n - first,
                                   float(processors), params.fractional, warmup, target, cap)


register_policy(Policy("eqs_pws", run, Shares))
