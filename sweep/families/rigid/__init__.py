"""The ``rigid`` family: P processors, rigid jobs with user estimates, no preemption.

Seed 001 (Talby & Feitelson 1999) and MODEL_NOTES §2: FCFS, EASY, conservative
and slack-based priority backfilling on traces such as KTH SP2.
"""

from sweep.families.rigid import conservative, easy, fcfs  # noqa: F401  (each registers itself)
from sweep.families.rigid._policy import POLICIES

__all__ = ["POLICIES"]
