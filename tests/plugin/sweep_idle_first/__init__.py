"""Idle-first dispatch: a job goes to an idle host if there is one, else round robin.

The lowest-index host idle at the arrival takes the job; when every host is
busy the job goes to host ``i mod h`` (``i`` its index in the stream), as under
Round-Robin. An example of a policy added from outside sweep: one module, one
entry point (``pyproject.toml``), nothing in sweep edited.
"""

from __future__ import annotations

import numba
import numpy as np

from sweep.families.dispatch import dispatch_chunk, dispatch_policy, empty_summary, free_time, host_count

#: The version of sweep's policy contract this plugin was written for (docs/plugins.md).
SWEEP_CONTRACT = 1


@numba.njit
def _idle_first(n, t, given, hosts):
    """The lowest-index host idle at ``t``, else the host named in advance."""
    for i in range(host_count(hosts)):
        if free_time(hosts, i) <= t:
            return i
    return given[n]


@numba.njit
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _idle_first)


def _cycle(point, workload, rng):
    hosts = int(point.system["hosts"])
    return lambda sizes, first: (first + np.arange(len(sizes), dtype=np.int64)) % hosts


def _analytic(point, workload):
    return empty_summary(int(point.system["hosts"]), float(point.load))


POLICY = dispatch_policy("idle_first", kernel=_run, analytic=_analytic, assigner=_cycle)
