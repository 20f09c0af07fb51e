"""Least-Work-Left (SH00 §1.2): each job goes to the host with the least work left.

The work left at host i when a job arrives at t is ``max(free_i − t, 0)``;
ties (several idle hosts, or equal backlogs) go to the lowest index. With FCFS
hosts this is the M/G/h queue (SH00 §3.3, citing [12]): every job starts
at ``max(t, min_i free_i)``, the Kiefer–Wolfowitz recursion, so its schedule
equals Central-Queue's job by job (hosts may differ among idle ones).
Analysis: the M/G/h approximation of docs/model-notes.md §3 (``_analytic``).
"""

from __future__ import annotations

import numpy as np

from sweep._numba import jit
from sweep.families.dispatch import dispatch_chunk, dispatch_policy, host_count, mgh_approximation, work_left


@jit()
def _least_work_left(n, t, given, hosts):
    """The host with the least work ``max(free_i − t, 0)``, the lowest index among equals."""
    best = 0
    least = np.inf
    for i in range(host_count(hosts)):
        work = work_left(hosts, i, t)
        if work < least:
            least = work
            best = i
    return best


@jit()
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _least_work_left)


POLICY = dispatch_policy("lwl", kernel=_run, analytic=mgh_approximation)
