"""Conservative backfilling (Feitelson & Mu'alem Weil 1998; Talby & Feitelson 1999 §1).

Every waiting job holds a reservation, made on arrival at its earliest fit and
moved only earlier, when jobs end before their requested time (the
conservative pass, :mod:`~sweep.families.rigid._passes`).
"""

from __future__ import annotations

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import (
    CONSERVATIVE,
    columns,
    conservative_pass,
    rigid_policy,
    run_loop,
    submit_order,
)


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, conservative_pass, submit_order)


POLICY = rigid_policy("conservative", kernel=_run, discipline=CONSERVATIVE)


def reservations(submit: np.ndarray, run: np.ndarray, requested: np.ndarray,
                 procs: np.ndarray, processors: int) -> tuple[np.ndarray, np.ndarray]:
    """Start times and each job's reservation made at its arrival (never exceeded)."""
    jobs = columns(submit, run, requested, procs, np.zeros(len(submit)))
    state, aux = POLICY.hooks.run(jobs, processors, None)
    return state.start, aux.booked
