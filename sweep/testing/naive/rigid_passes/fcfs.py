"""FCFS (Talby & Feitelson 1999 §1): start queue heads while they fit; the first that does not fit
blocks all others."""

from __future__ import annotations

from sweep.testing.naive.rigid import Machine, rigid_pass


@rigid_pass("fcfs")
def fcfs(m: Machine) -> None:
    """The queue in the policy's order; its heads start while they fit."""
    m.start_heads()
