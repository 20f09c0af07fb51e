"""EQS-AVG (Chiang, Mansharamani & Vernon 1994, cited as [4] in CV96 §4.2).

EQS-PWS with the job's average parallelism ``avg`` in place of ``pws``: phase
one caps each job at ``min(avg_j, N_j)``, phase two shares what is left with
``N_j − min(avg_j, N_j)`` on top. CV96 reports EQS-AVG "very nearly the
same" as EQS-PWS for Figures 5–9 without showing it.

``avg`` is **reconstructed** (CV96 does not define it): the average
parallelism ``W / T_min``, ``T_min`` the least execution time on at most
``N_j`` processors, rounded to the nearest integer in ``[1, N_j]``
(:func:`sweep.workloads.speedup.average_parallelism`; with eq. 8 it is
``S(N_j) = (δ+1)N_j/(δ+N_j)``).
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
from sweep.workloads.speedup import average_parallelism


def average(jobs: MalleableJobs, processors: int) -> np.ndarray:
    """Phase-one caps: the average parallelism within ``min(N_j, P)`` processors."""
    return average_parallelism(jobs.a, jobs.b, jobs.c,
                               np.minimum(jobs.parallelism, processors).astype(np.float64))


POLICY = malleable_policy(
    "eqs_avg", params=Shares, kernel=equipartition_kernel, workspace=equipartition_workspace,
    phase_one=average, naive="eqs_pws", examples=({}, {"repartition_period": 50.0}))
