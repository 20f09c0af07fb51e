"""The ``dispatch`` family: task assignment in a distributed server (SH00).

h identical hosts, each serving one job at a time, FCFS, run to completion;
one Poisson stream of jobs, each dispatched on arrival to one host by the
policy (Schroeder & Harchol-Balter, §1.1–1.2, §2.2). One file per policy:
the paper's nine (``random``, ``round_robin``, ``shortest_queue``, ``lwl``,
``central_queue``, ``sita_e``, ``sita_u_opt``, ``sita_u_fair``,
``sita_u_rule``) and ``power_of_d``. The compiled core is ``_core``; closed forms (``model:
analytic``) are in ``_analytic`` and ``_sita``; docs/model-notes.md §3 gives the
reconstructed workloads and the M/G/h approximation.

Its policies are the ``Policy`` objects of its modules (:mod:`sweep.families`).
"""

from __future__ import annotations

import numpy as np

from sweep.families import Family, Point
from sweep.families.dispatch._policy import DispatchHooks
from sweep.families.dispatch._simulate import VARIABLES, Hosts, analytic, simulate, validate


def _hosts(point: Point) -> np.ndarray:
    return np.arange(int(point.system["hosts"]))


FAMILY = Family(
    name="dispatch",
    package=__name__,
    hooks=DispatchHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="c90",
    default_system="distributed",
    analytic=analytic,
    extra_coords={"host": _hosts},
    systems={"hosts": Hosts},
)

__all__ = ["FAMILY"]
