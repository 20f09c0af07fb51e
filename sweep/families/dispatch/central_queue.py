"""Central-Queue (SH00 §1.2): one FCFS queue at the dispatcher; a free host takes its head.

Implemented as the dispatcher sees it: the head of the queue goes to the host
that frees first, so among hosts already idle at an arrival the one idle
longest takes the job (ties: lowest index). That is a different rule from
Least-Work-Left, which takes the lowest-index idle host, with the same start
and end times for every job: the equivalence SH00 §3.1 cites from [12];
``tests/dispatch`` checks it job by job.
Analysis: the M/G/h approximation of docs/model-notes.md §3 (``_analytic``).
"""

from __future__ import annotations

from sweep._numba import jit
from sweep.families.dispatch import dispatch_chunk, dispatch_policy, free_time, host_count, mgh_approximation


@jit()
def _first_free(n, t, given, hosts):
    """The host that frees first (became idle earliest), the lowest index among equals."""
    best = 0
    earliest = free_time(hosts, 0)
    for i in range(1, host_count(hosts)):
        if free_time(hosts, i) < earliest:
            earliest = free_time(hosts, i)
            best = i
    return best


@jit()
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _first_free)


POLICY = dispatch_policy("central_queue", kernel=_run, analytic=mgh_approximation)
