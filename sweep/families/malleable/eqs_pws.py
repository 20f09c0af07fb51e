"""EQS-PWS (CV96 §4.2): equipartition in two phases around the processor working set.

Phase one is EQS with each job capped at ``min(pws_j, N_j)``; processors left
over are then equipartitioned with ``N_j − min(pws_j, N_j)`` as the cap on each
job's additional processors. Rounding, ``fractional``, ``repartition_period``
and ``repartition_overhead`` as in EQS (:mod:`~sweep.families.malleable.eqs`);
the same kernel, with ``pws`` as the phase-one caps.
"""

from __future__ import annotations

import numpy as np

from sweep.families.malleable import (
    MalleableJobs,
    Shares,
    equipartition_kernel,
    equipartition_workspace,
    malleable_policy,
)


def working_set(jobs: MalleableJobs, processors: int) -> np.ndarray:
    """Phase-one caps: the processor working set ``pws_j`` (capped at ``N_j`` by the caller)."""
    return jobs.pws


POLICY = malleable_policy(
    "eqs_pws", params=Shares, kernel=equipartition_kernel, workspace=equipartition_workspace,
    phase_one=working_set, naive="eqs_pws",
    examples=({}, {"fractional": True}, {"repartition_period": 50.0, "repartition_overhead": 5.0}))
