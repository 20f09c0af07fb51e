"""EQS-AVG (Chiang, Mansharamani & Vernon 1994, cited as [4] in seed 000 §4.2).

EQS-PWS with the job's average parallelism ``avg`` in place of ``pws``: phase
one caps each job at ``min(avg_j, N_j)``, phase two shares what is left with
``N_j − min(avg_j, N_j)`` on top. Seed 000 reports EQS-AVG "very nearly the
same" as EQS-PWS for Figures 5–9 without showing it.

``avg`` is **reconstructed** (not defined in seed 000): the average
parallelism ``W / T_min``, ``T_min`` the least execution time on at most
``N_j`` processors, rounded to the nearest integer in ``[1, N_j]``
(:func:`sweep.workloads.speedup.average_parallelism`; with eq. 8 it is
``S(N_j) = (δ+1)N_j/(δ+N_j)``).
"""

from __future__ import annotations

from sweep.families import Policy
from sweep.families.malleable import _core
from sweep.families.malleable._policy import MalleableHooks, Outcome, Shares
from sweep.families.malleable.eqs import caps, run_two_phase
from sweep.families.malleable.workload import MalleableJobs
from sweep.workloads.speedup import average_parallelism


def run(jobs: MalleableJobs, processors: int, params: Shares, stop: _core.Stop) -> Outcome:
    """Simulate EQS-AVG; see :mod:`sweep.families.malleable._core`."""
    avg = average_parallelism(jobs.a, jobs.b, jobs.c, caps(jobs, processors))
    return run_two_phase(jobs, processors, params, stop, first=avg)


POLICY = Policy("eqs_avg", "malleable", MalleableHooks(run), Shares)
