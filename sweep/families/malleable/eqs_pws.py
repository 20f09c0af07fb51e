"""EQS-PWS (seed 000 §4.2): equipartition in two phases around the processor working set.

Phase one is EQS with each job capped at ``min(pws_j, N_j)``; processors left
over are then equipartitioned with ``N_j − min(pws_j, N_j)`` as the cap on each
job's additional processors. Rounding, ``fractional``, ``repartition_period``
and ``repartition_overhead`` as in EQS (:mod:`~sweep.families.malleable.eqs`).
"""

from __future__ import annotations

from sweep.families import Policy
from sweep.families.malleable import _core
from sweep.families.malleable._policy import MalleableHooks, Outcome, Shares
from sweep.families.malleable.eqs import run_two_phase
from sweep.families.malleable.workload import MalleableJobs


def run(jobs: MalleableJobs, processors: int, params: Shares, stop: _core.Stop) -> Outcome:
    """Simulate EQS-PWS; see :mod:`sweep.families.malleable._core`."""
    return run_two_phase(jobs, processors, params, stop, first=jobs.pws)


POLICY = Policy("eqs_pws", "malleable", MalleableHooks(run), Shares)
