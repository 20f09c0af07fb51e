"""FCFS: waiting jobs start strictly in submit order (Talby & Feitelson 1999 §1).

At each event time, after completions and arrivals, the queue head starts while
enough processors are free; the first job that does not fit blocks all others
(the FCFS pass, :mod:`~sweep.families.rigid._passes`).
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import FCFS, fcfs_pass, rigid_policy, run_loop, submit_order


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, fcfs_pass, submit_order)


POLICY = rigid_policy("fcfs", kernel=_run, discipline=FCFS)
