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

:func:`_reference` is the same rule in plain Python, registered under the policy's name for
sweep's generic tests (``pytest --pyargs sweep.testing``), which run the compiled policy against
it job by job (docs/plugins.md).
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
from sweep.testing.naive import reference
from sweep.testing.naive.dispatch import View

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


@reference("jiq")
def _reference(view: View, job: int, now: float) -> int:
    """JIQ read off the reference's plain-Python hosts: the idle host that became idle first
    (lowest index on ties), else host ``floor(h U)`` with the job's own uniform."""
    idle = [h for h in range(view.hosts) if view.idle_since(h) is not None]
    if idle:
        return min(idle, key=lambda h: (view.idle_since(h), h))
    return int(view.draws[job] * view.hosts)
