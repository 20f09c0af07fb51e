"""EASY backfilling (Lifka 1995; Talby & Feitelson 1999 §1), the queue in submit order.

A waiting job may start ahead of the queue head if it does not delay the
head's reservation: it ends (by its requested time) before the head's shadow
time, or uses only the processors the head will not need then (the EASY
pass, :mod:`~sweep.families.rigid._passes`). The SJF-, LXF- and WFP-ordered
variants are ``sjf_easy``, ``lxf_easy`` and ``wfp_easy``.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import EASY, easy_pass, rigid_policy, run_loop, submit_order


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, easy_pass, submit_order)


POLICY = rigid_policy("easy", kernel=_run, discipline=EASY)
