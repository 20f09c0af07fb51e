"""The ``malleable`` family: P processors, jobs whose allocations change at run time.

Chiang & Vernon (1996, CV96): EQS, EQS-PWS, EQS-AVG (each with optional
periodic repartitioning and repartitioning overhead, §4.3), FB-PWS and FB-ASP
on synthetic job streams (:mod:`~sweep.families.malleable._workload`, speedup
models in :mod:`sweep.workloads.speedup`). Every policy runs one event loop
(``_core``) with its *configure* and *allocate* hooks
(:class:`~sweep.families.malleable._policy.MalleableHooks`; equipartition in
``_equipartition``, FB time slices in ``_slices``), one file per policy; the
grid-point wrapper: :mod:`~sweep.families.malleable._simulate`.
"""

from sweep.families import Family, Processors
from sweep.families.malleable._policy import MalleableHooks
from sweep.families.malleable._simulate import VARIABLES, simulate, validate
from sweep.families.malleable._workload import PARALLELISM, SPEEDUP_MODELS, MalleableWorkload, make_jobs

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

# The public API the analysis of CV96 draws the paper's model figures with (Figures 1, 3, 4):
# the simulations' own job generator and distributions, and FB-PWS's partition size.
from sweep.families.malleable.fb_pws import configured_size  # noqa: E402 (a policy module, after FAMILY)

__all__ = ["FAMILY", "PARALLELISM", "configured_size", "make_jobs"]
