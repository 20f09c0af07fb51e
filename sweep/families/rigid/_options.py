"""The options of the rigid family's workloads (the engine makes their config schema from these)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SwfWorkload:
    """``kind: swf``: a Standard Workload Format trace replayed on a rigid machine.

    The keyword arguments of :func:`sweep.families.rigid._jobs.prepare` (its
    docstring says what each does), with its defaults, less the machine and the
    load, which come from ``system`` and ``load``; ``rescale_load`` says whether
    to pass ``load`` (Talby & Feitelson 1999 replay the log as is).
    """

    path: str
    overrun: str = "kill"
    split: str = "none"
    priority_every: int = 0
    priority_gap: float = 2.0
    quota_every: int = 0
    rescale_load: bool = False
    submit_jitter: int = 0
