"""The ``salad`` family: CSSE00's integrated tool, IPG-SaLaD, as one loop of the three stages.

Campos, Silva, Scherson & Eshaghian (2000), §3 (Fig. 1) and §4: jobs arrive
one at a time, each a task graph; a static allocator maps it (stage 1), a
load balancer moves its tasks (stage 2) and a gang scheduler time-shares the
PEs among the jobs present (stage 3). The stages are the other families'
policies: any mapping policy, any balancing policy, Gang or Concurrent Gang
(:mod:`~sweep.families.salad.ipg_salad`). The coupling is a RECONSTRUCTION,
listed in ``docs/ipg00-salad.md``: the loop (:mod:`~sweep.families.salad._loop`),
the machine (:mod:`~sweep.families.salad._machine`), the jobs
(:mod:`~sweep.families.salad._workload`), the grid point wrapper
(:mod:`~sweep.families.salad._simulate`).

``load`` is the offered load: the jobs' mean work over the PEs per mean
interarrival time.

What a policy file imports from this package (``from sweep.families.salad import ...``),
never from its ``_`` modules: :class:`SaladHooks` and ``kernel_for`` (the loop
compiled for a given balancer).
"""

from sweep.families import Family
from sweep.families.salad._kernels import kernel_for
from sweep.families.salad._machine import SaladMachine
from sweep.families.salad._policy import SaladHooks
from sweep.families.salad._simulate import VARIABLES, pe_labels, simulate, trace_labels, validate
from sweep.families.salad._workload import WORKLOADS

FAMILY = Family(
    name="salad",
    package=__name__,
    hooks=SaladHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="salad_jobs",
    default_system="salad_mesh64",
    extra_coords={"pe": pe_labels, "trace_slice": trace_labels},
    workloads=WORKLOADS,
    systems={"salad_machine": SaladMachine},
)

__all__ = ["FAMILY", "SaladHooks", "kernel_for"]
