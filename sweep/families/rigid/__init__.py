"""The ``rigid`` family: P processors, rigid jobs with user estimates, no preemption.

Seed 001 (Talby & Feitelson 1999) and MODEL_NOTES §2: FCFS, EASY and
conservative backfilling and slack-based priority backfilling replayed on SWF traces such as KTH SP2. Jobs:
:mod:`~sweep.families.rigid.jobs`; shared kernels: ``_core``; one file per
policy; the grid-point wrapper: :mod:`~sweep.families.rigid.simulate`.
"""

from sweep.families import Family, register
from sweep.families.rigid import (  # noqa: F401  (each registers itself)
    conservative,
    easy,
    fcfs,
    slack,
)
from sweep.families.rigid._policy import POLICIES
from sweep.families.rigid.simulate import VARIABLES, month_labels, simulate, validate

FAMILY = register(Family(
    name="rigid",
    policies=tuple(POLICIES),
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    extra_coords={"month": month_labels},
))

__all__ = ["FAMILY", "POLICIES"]
