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
from sweep.families.dispatch import (
    Workload,
    dispatch_chunk,
    dispatch_policy,
    empty_summary,
    host_count,
    jobs_in_system,
)


@jit()
def _fewest_jobs(n, t, given, hosts):
    """The host with the fewest jobs in system at ``t`` (lowest index on ties)."""
    best = 0
    fewest = np.iinfo(np.int64).max
    for i in range(host_count(hosts)):
        count = jobs_in_system(hosts, i, t)
        if count < fewest:
            fewest = count
            best = i
    return best


@jit()
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _fewest_jobs)


def _analytic(point: Point, workload: Workload) -> dict[str, object]:
    return empty_summary(int(point.system["hosts"]), float(point.load))


POLICY = dispatch_policy("shortest_queue", kernel=_run, analytic=_analytic)
