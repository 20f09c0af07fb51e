"""FB-PWS (Parsons & Sevcik; CV96 §2.1): configured at arrival from pws, then FB slices.

An arriving job is configured for ``min(N_j, w/(S + w)·P)`` processors with
``w = min(pws_j, P)`` and ``S`` the sum of the configured sizes of the jobs
already in the system; the size is rounded to the nearest integer, at least 1
(rounding not printed: a choice). Slices, and when the schedule is made
(``reschedule``: at slice boundaries, the paper's, or at every event):
:mod:`sweep.families.malleable._slices`. ``repartition_overhead``
(§4.3) is charged when a job runs on fewer processors than its size (the one
job that does not fit) or back on its size after that.
"""

from __future__ import annotations

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.malleable import Quantum, malleable_policy, run_events, time_slice, time_slice_workspace


@jit(inline="always")
def configured_size(pws, others, cap, processors):
    """CV96 §2.1: ``min(N_j, w/(S + w)·P)``, ``w = min(pws_j, P)``, rounded to the nearest integer, ≥ 1.

    ``others`` is ``S``, the configured sizes of the jobs already in the system;
    ``cap`` is ``min(N_j, P)``. (Figure 1 of the paper plots it against ``S``:
    :func:`sweep.papers.cv96.figures.figure1`.)
    """
    w = min(pws, processors)
    return min(cap, max(1.0, np.floor(w / (others + w) * processors + 0.5)))


@jit(inline="always")
def configure(j, options, columns, state, sc, work):
    """Size of arriving job ``j``: :func:`configured_size` with ``S`` the sizes of the jobs before it."""
    others = 0.0
    for k in range(sc.in_system - 1):  # the jobs before j, which is last in active
        others += work.sizes[state.active[k]]
    work.sizes[j] = configured_size(columns.pws[j], others, columns.cap[j], options.processors)


@jit(**NO_REFCOUNT)
def _kernel(arrivals, columns, options, state, batches, log, scalars, work):
    run_events(arrivals, columns, options, state, batches, log, scalars, work, configure, time_slice)


POLICY = malleable_policy("fb_pws", params=Quantum, kernel=_kernel, workspace=time_slice_workspace,
                          naive="fb_pws",
                          examples=({}, {"repartition_overhead": 5.0}, {"reschedule": "every_event"},
                                    {"reschedule": "every_event", "repartition_overhead": 5.0}))
