"""Gang scheduling (CSSE00 §1.3, §2.3; Ousterhout 1982): the baseline of Tables 5–7.

The jobs present are packed into the trace diagram (first fit, or best fit),
one job per row; all PEs switch to the next row together at each slice. A
task that blocks (I/O, a barrier) or has finished leaves its slot idle until
the next slice, and an empty slot stays idle: the PE never runs a task of
another row. Hand-worked trace diagrams: ``tests/gang/test_hand_traces.py``.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import Policy
from sweep.families.gang import NEVER, GangHooks, GangParams, no_priority, simulate_core


@jit(**NO_REFCOUNT)
def _no_local(p, t, row, rows, mat, tasks, jobs, mach, pool, par):
    """Gang's local scheduler: none, the slot stays idle (for the rest of the slice: ``skip``)."""
    mach.skip[p] = NEVER
    return -1


@jit(**NO_REFCOUNT)
def _run(jobs, tasks, mach, pool, settings, report, out, rec, owner, active):
    return simulate_core(jobs, tasks, mach, pool, settings, report, out, rec, owner, active,
                         _no_local, no_priority, False)


POLICY = Policy("gang", "gang", GangHooks(kernel=_run, local_scheduling=False), GangParams,
                examples=({}, {"packing": "best_fit"}))
