"""No load balancing: every task runs where it was placed or spawned (CSSE00 §2.2, T_noLB).

The run that defines ``T_noLB`` in the normalized performance NP (CSSE00 §2.2,
after Willebeek-LeMair & Reeves 1993 and Loh et al. 1996). Each run of any
other policy also runs this one on the same tasks (``_simulate``), so its NP
is 0 by construction.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.balancing import balancing_policy, no_receive, no_tick, nothing, run_loop


@jit(**NO_REFCOUNT)
def _run(S, pst):
    run_loop(S, pst, no_tick, no_receive)


POLICY = balancing_policy("no_balancing", kernel=_run, tick=no_tick, receive=no_receive,
                          make_state=nothing)
