"""The ``dispatch`` family: task assignment in a distributed server (seed 003).

h identical hosts, each serving one job at a time, FCFS, run to completion;
one Poisson stream of jobs, each dispatched on arrival to one host by the
policy (Schroeder & Harchol-Balter, §1.1–1.2, §2.2). Nine policies, one file
each: ``random``, ``round_robin``, ``shortest_queue``, ``lwl``,
``central_queue``, ``sita_e``, ``sita_u_opt``, ``sita_u_fair``,
``sita_u_rule``. The compiled core is ``_core``; closed forms (``model:
analytic``) are in ``_analytic`` and ``_sita``; MODEL_NOTES §3 gives the
reconstructed workloads and the M/G/h approximation.

Importing the package registers the family with :mod:`sweep.families`.
"""

from __future__ import annotations

import numpy as np

from sweep.families import Family, Point, register
from sweep.families.dispatch import (  # noqa: F401  (each policy file registers itself)
    central_queue,
    lwl,
    random,
    round_robin,
    shortest_queue,
    sita_e,
    sita_u_fair,
    sita_u_opt,
    sita_u_rule,
)
from sweep.families.dispatch._policy import POLICIES
from sweep.families.dispatch._simulate import VARIABLES, analytic, simulate, validate


def _hosts(point: Point) -> np.ndarray:
    return np.arange(int(point.system["hosts"]))


FAMILY = register(Family(
    name="dispatch",
    policies=tuple(POLICIES),
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    analytic=analytic,
    extra_coords={"host": _hosts},
))

__all__ = ["FAMILY"]
