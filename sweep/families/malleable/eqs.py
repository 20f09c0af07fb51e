"""EQS, spatial equipartitioning (Tucker & Gupta; seed 000 §2.2, §4.3).

At every arrival and departure the processors are shared equally among the
jobs in the system, a job never getting more than its maximum parallelism
``N_j`` (water-filling: capped jobs get ``N_j``, the share is recomputed for
the rest). Integer shares are rounded up for the jobs with less acquired
processing time and down for the others; ``fractional: true`` gives the real
share instead (with linear speedup and ``N_j ≥ P`` this is M/G/1 processor
sharing at rate ``P``).

§4.3 options (:class:`~sweep.families.malleable._policy.Shares`):
``repartition_overhead`` stalls a job per change of its allocation (5 s in
Figures 10–11); ``repartition_period`` > 0 is the "practical implementation"
of Figure 11 that repartitions fully once per period (500 s), see
:func:`sweep.families.malleable._core.between_periods`.
"""

from __future__ import annotations

import numpy as np

from sweep.families import Policy
from sweep.families.malleable import _core
from sweep.families.malleable._policy import MalleableHooks, Outcome, Shares
from sweep.families.malleable.workload import MalleableJobs


def caps(jobs: MalleableJobs, processors: int) -> np.ndarray:
    """``min(N_j, P)``, as reals for the kernels."""
    return np.minimum(jobs.parallelism, processors).astype(np.float64)


def run_two_phase(jobs: MalleableJobs, processors: int, params: Shares, stop: _core.Stop,
                  first: np.ndarray | None = None) -> Outcome:
    """Equipartition with phase-one caps ``min(first, N_j)`` (default ``N_j``), the rest on top.

    Shared by EQS, EQS-PWS and EQS-AVG (:func:`sweep.families.malleable._core.two_phase`).
    """
    n = caps(jobs, processors)
    one = n if first is None else np.minimum(first, n).astype(np.float64)
    st = _core.state(len(jobs), stop, params.repartition_overhead)
    second = n - one
    return _core.run_batches(_core.run_equipartition, jobs.arrival, jobs.a, jobs.b, jobs.c, n, one, second,
                             bool((second > 0).any()), float(processors), params.fractional,
                             float(params.repartition_period), _core.scratch(len(jobs), stop), st)


def run(jobs: MalleableJobs, processors: int, params: Shares, stop: _core.Stop) -> Outcome:
    """Simulate EQS; see :mod:`sweep.families.malleable._core`."""
    return run_two_phase(jobs, processors, params, stop)


POLICY = Policy("eqs", "malleable", MalleableHooks(run), Shares)
