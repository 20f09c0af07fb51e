"""Conservative backfilling (Feitelson & Mu'alem Weil 1998; Talby & Feitelson 1999 §1).

Every waiting job holds a reservation, made on arrival at its earliest fit and
moved only earlier, when jobs end before their requested time (the
conservative pass, :mod:`~sweep.families.rigid._passes`).
"""

from __future__ import annotations

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import _core, _passes
from sweep.families.rigid._policy import rigid_policy


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    _core.run(jobs, state, aux, _passes.conservative_pass, _core.submit_order)


POLICY = rigid_policy("conservative", kernel=_run, discipline=_passes.CONSERVATIVE)


def reservations(submit: np.ndarray, run: np.ndarray, requested: np.ndarray,
                 procs: np.ndarray, processors: int) -> tuple[np.ndarray, np.ndarray]:
    """Start times and each job's reservation made at its arrival (never exceeded)."""
    jobs = _core.columns(submit, run, requested, procs, np.zeros(len(submit)))
    state, aux = POLICY.hooks.run(jobs, processors, None)
    return state.start, aux.booked
