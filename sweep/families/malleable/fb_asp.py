"""FB-ASP (Parsons & Sevcik; CV96 §2.1): FB-PWS with the arrival configured for ``P/J``.

An arriving job is configured for ``min(N_j, P/J)`` processors, ``J`` the number
of jobs in the system including it, rounded to the nearest integer, at least 1
(a choice, as in FB-PWS). Slices and overhead as in
:mod:`~sweep.families.malleable.fb_pws`.
"""

from __future__ import annotations

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.malleable import Quantum, malleable_policy, run_events, time_slice, time_slice_workspace


@jit(inline="always")
def configure(j, options, columns, state, sc, work):
    """Size of arriving job ``j``: ``min(N_j, round(P/J))``, at least 1."""
    work.sizes[j] = min(columns.cap[j], max(1.0, np.floor(options.processors / sc.in_system + 0.5)))


@jit(**NO_REFCOUNT)
def _kernel(arrivals, columns, options, state, batches, log, scalars, work):
    run_events(arrivals, columns, options, state, batches, log, scalars, work, configure, time_slice)


POLICY = malleable_policy("fb_asp", params=Quantum, kernel=_kernel, workspace=time_slice_workspace,
                          naive="fb_asp", examples=({}, {"quantum": 2.0, "repartition_overhead": 5.0},
                                    {"reschedule": "every_event", "quantum": 2.0}))
