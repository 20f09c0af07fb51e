"""Shortest-Queue (SH00 §1.2): each job goes to the host with the fewest jobs.

The count at host i includes the job in service; a job leaving at the very
instant of an arrival has left. Ties go to the lowest index. The counts come
from each host's ring buffer of departure times (``_core``), trimmed to the
arrival time at every arrival. No closed form (analytic: NaN but utilization).
"""

from __future__ import annotations

import numpy as np

from sweep._numba import jit
from sweep.families import Point
from sweep.families.dispatch._analytic import empty_summary
from sweep.families.dispatch._core import _dispatch, _trim
from sweep.families.dispatch._policy import dispatch_policy
from sweep.families.dispatch._workload import Workload


@jit()
def _fewest_jobs(n, t, given, free, ring, head, tail):
    """The host with the fewest jobs in system at ``t`` (lowest index on ties)."""
    best = 0
    fewest = np.iinfo(np.int64).max
    for i in range(free.shape[0]):
        _trim(ring, head, tail, i, t)
        count = tail[i] - head[i]
        if count < fewest:
            fewest = count
            best = i
    return best


@jit()
def _run(arrival, size, given, j0, j1, measuring, state, acc):
    return _dispatch(arrival, size, given, j0, j1, measuring, state, acc, _fewest_jobs)


def _analytic(point: Point, workload: Workload) -> dict[str, object]:
    return empty_summary(int(point.system["hosts"]), float(point.load))


POLICY = dispatch_policy("shortest_queue", kernel=_run, analytic=_analytic)
