"""The ``malleable`` family: P processors, jobs whose allocations change at run time.

Seed 000 (Chiang & Vernon 1996) and MODEL_NOTES §1: EQS, EQS-PWS, EQS-AVG (each with
optional periodic repartitioning and repartitioning overhead, §4.3), FB-PWS and
FB-ASP on synthetic job streams (:mod:`~sweep.families.malleable.workload`,
speedup models in :mod:`sweep.workloads.speedup`); shared kernels: ``_core``;
one file per policy; the grid-point wrapper:
:mod:`~sweep.families.malleable.simulate`.
"""

from sweep.families import Family, register
from sweep.families.malleable import (  # noqa: F401  (each registers itself)
    eqs,
    eqs_avg,
    eqs_pws,
    fb_asp,
    fb_pws,
)
from sweep.families.malleable._policy import POLICIES
from sweep.families.malleable.simulate import VARIABLES, simulate, validate

FAMILY = register(Family(
    name="malleable",
    policies=tuple(POLICIES),
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
))

__all__ = ["FAMILY", "POLICIES"]
