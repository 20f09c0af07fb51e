"""Join-Idle-Queue dispatch: a job goes to an idle host if there is one, else to a random host.

Lu, Xie, Kliot, Geller, Larus & Greenberg (2011), "Join-Idle-Queue: a novel load balancing
algorithm for dynamically scalable web services", Performance Evaluation 68(11): idle servers
queue up at the dispatcher (the I-queue, first idle first), and a job goes to the head of that
queue, or to a server drawn at random when it is empty. With the one dispatcher of sweep's
dispatch family, which sees every host, the I-queue is the set of idle hosts in the order they
became idle: the job goes to the host idle the longest (ties: lowest index), else to host
``floor(h U)`` with ``U`` from the policy's own random stream, as under Random. A departure
from the paper: its dispatchers learn of idle servers by messages; here the one dispatcher
knows at once.
"""

from __future__ import annotations

import numpy as np

from sweep._numba import jit
from sweep.families import Point
from sweep.families.dispatch import (
    Assigner,
    Workload,
    dispatch_chunk,
    dispatch_policy,
    empty_summary,
    free_time,
    host_count,
)

#: The version of sweep's plugin contract this module was written for (docs/plugins.md).
SWEEP_CONTRACT = 1


@jit()
def _idle_longest(n, t, given, hosts):
    """The host idle the longest at ``t`` (its last job ended first; lowest index on ties), else
    the random host drawn for job ``n``."""
    best = -1
    for i in range(host_count(hosts)):
        if free_time(hosts, i) <= t and (best < 0 or free_time(hosts, i) < free_time(hosts, best)):
            best = i
    return best if best >= 0 else given[n]


@jit()
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _idle_longest)


def _random_hosts(point: Point, workload: Workload, rng: np.random.Generator) -> Assigner:
    """Each job's fallback host, ``floor(h U)``, drawn from the policy's own stream."""
    if rng is None:
        raise ValueError("policy jiq draws the hosts of jobs that find no idle host: it needs a generator")
    hosts = int(point.system["hosts"])
    return lambda sizes, first: (rng.random(len(sizes)) * hosts).astype(np.int64)


def _analytic(point: Point, workload: Workload) -> dict[str, object]:
    """No closed form (the paper's is a large-system limit): NaN, as for Shortest-Queue."""
    return empty_summary(int(point.system["hosts"]), float(point.load))


POLICY = dispatch_policy("jiq", kernel=_run, analytic=_analytic, assigner=_random_hosts)
