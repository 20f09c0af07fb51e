"""The allocate hook of the FB policies: time slices by least acquired service (CV96 §2.1).

FB-PWS and FB-ASP (Parsons & Sevcik) configure each job for a number of
processors when it arrives (their *configure* hooks, the one thing in which
they differ) and then share the machine by time slices: :func:`time_slice`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sweep.families.malleable._core import by_acquired


class SliceWork(NamedTuple):
    """Work arrays of the FB hooks, allocated by the caller (the loop may not allocate)."""

    sizes: np.ndarray  # per job: the processors it was configured for on arrival


def workspace(jobs: int, cap: int) -> SliceWork:
    """:class:`SliceWork` for ``jobs`` jobs (``cap``, the most in the system, is not needed)."""
    return SliceWork(np.zeros(jobs))


@njit(cache=True, inline="always")
def time_slice(event, options, columns, state, sc, work):
    """The allocate hook: one FB time slice (§2.1) after any event, each job on its configured size.

    Jobs in order of least acquired service (ties: arrival) run on their
    configured sizes; jobs that do not fit are skipped while later ones fit;
    the highest-priority skipped job then runs on the processors left, so only
    that one job may run on fewer processors than its configuration (the
    paper's rule for the last job is not printed: a choice). The slice lasts
    ``quantum`` seconds, unless every job fits: then nothing changes until the
    next arrival or departure, and no slice end is scheduled.
    """
    alloc, byacq, size = state.allocation, state.by_acquired, work.sizes
    free, first = options.processors, -1
    for i in range(by_acquired(state, sc)):
        j = byacq[i]
        if size[j] <= free:
            alloc[j] = size[j]
            free -= size[j]
        else:
            alloc[j] = 0.0
            if first < 0:
                first = j
    if first >= 0 and free > 0:
        alloc[first] = free
    sc.slice_end = sc.t + options.quantum if first >= 0 else np.inf
