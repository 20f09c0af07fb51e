"""The ``malleable`` family: P processors, jobs whose allocations change at run time.

Chiang & Vernon (1996, CV96): EQS, EQS-PWS, EQS-AVG (each with optional
periodic repartitioning and repartitioning overhead, §4.3), FB-PWS and FB-ASP
on synthetic job streams (:mod:`~sweep.families.malleable._workload`, speedup
models in :mod:`sweep.workloads.speedup`). Every policy runs one event loop
(``_core``) with its *configure* and *allocate* hooks
(:class:`~sweep.families.malleable._policy.MalleableHooks`; equipartition in
``_equipartition``, FB time slices in ``_slices``), one file per policy; the
grid-point wrapper: :mod:`~sweep.families.malleable._simulate`.

What a policy file imports from this package (``from sweep.families.malleable import ...``;
``docs/adding-a-policy.md`` §9), never from its ``_`` modules:

- the contract: :func:`malleable_policy`, :class:`MalleableHooks`, the parameter
  dataclasses :class:`Shares` (equipartition) and :class:`Quantum` (FB), and
  :class:`MalleableJobs`, the jobs a ``phase_one`` hook receives; a policy's
  parameters are its own dataclass, every field of which reaches the hooks'
  ``options`` record by its name (``_policy``'s docstring): a new parameter
  needs no edit here;
- the loop a kernel compiles its hooks into, ``run_events``, and the *configure*
  hook of a policy that configures nothing, ``unconfigured``;
- two-phase equipartition: its kernel and work arrays ``equipartition_kernel`` and
  ``equipartition_workspace`` (a new phase-one cap compiles nothing), its
  *allocate* hook ``equipartition_share``;
- FB time slices: the *allocate* hook ``time_slice`` and its work arrays
  ``time_slice_workspace``.

What the analysis of CV96 draws the paper's model figures with (Figures 1, 3, 4):
``make_jobs`` and ``PARALLELISM``, the simulations' own job generator and
distributions; FB-PWS's partition size is ``fb_pws.configured_size``.
"""

from sweep.families import Family, Processors
from sweep.families.malleable._core import run_events, unconfigured
from sweep.families.malleable._equipartition import kernel as equipartition_kernel
from sweep.families.malleable._equipartition import share as equipartition_share
from sweep.families.malleable._equipartition import workspace as equipartition_workspace
from sweep.families.malleable._policy import MalleableHooks, Quantum, Shares, malleable_policy
from sweep.families.malleable._simulate import VARIABLES, simulate, validate
from sweep.families.malleable._slices import time_slice
from sweep.families.malleable._slices import workspace as time_slice_workspace
from sweep.families.malleable._workload import (
    PARALLELISM,
    SPEEDUP_MODELS,
    MalleableJobs,
    MalleableWorkload,
    make_jobs,
)

FAMILY = Family(
    name="malleable",
    package=__name__,
    hooks=MalleableHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="malleable_synthetic",
    default_system="mpp128",
    workloads={"malleable": MalleableWorkload},
    systems={"processors": Processors},
    workload_models={"speedup": SPEEDUP_MODELS},
    sequential_stopping=True,
)

__all__ = ["FAMILY", "PARALLELISM", "MalleableHooks", "MalleableJobs", "Quantum", "Shares",
           "equipartition_kernel", "equipartition_share", "equipartition_workspace", "make_jobs",
           "malleable_policy", "run_events", "time_slice", "time_slice_workspace", "unconfigured"]
