"""The ``balancing`` family: dynamic load balancing of spawning tasks on P PEs (CSSE00 §2.2, §3.2).

Campos, Silva, Scherson & Eshaghian (2000), "An Information Power Grid resource
management tool" (CSSE00), §1.2, §2.2, §3.2 and Tables 2–4: 16 PEs on a mesh,
a hypercube, a fully connected network or a network of workstations
(:mod:`~sweep.families.balancing._machine`) time-share tasks that spawn tasks
(:mod:`~sweep.families.balancing._tasks`); a balancing policy migrates tasks
(:mod:`~sweep.families.balancing._core`). Policies, one file each:
``no_balancing`` (T_noLB), ``rate_of_change`` (§3.2), ``gradient`` (Lin &
Keller 1987), ``sender_diffusion`` (Willebeek-LeMair & Reeves 1993),
``central_dispatcher`` (Loh et al. 1996). The metric is the normalized
performance NP, paired per replication with a ``no_balancing`` run of the same
tasks (:mod:`~sweep.families.balancing._simulate`). Reconstructed values and
their sources: ``docs/ipg00-balancing.md``.

The grid's ``load`` axis has no meaning here and is ignored in every
scenario: the work of a run is its fixed number of tasks, their lifetimes and
spawning, and (``arrivals``) the arrival times set by ``workload.arrival_span``.
``stop.jobs`` and ``stop.warmup`` are ignored too: a run executes
``workload.tasks`` tasks to the end (32,000 in the paper).

What a policy file imports from this package (``from sweep.families.balancing import ...``;
``docs/adding-a-policy.md`` §7), never from its ``_`` modules:

- the contract: :func:`balancing_policy`, :class:`BalancingHooks`, the
  :class:`Machine` and :class:`TaskSet` a ``make_state`` receives, and for a
  policy without hooks or state ``no_tick``, ``no_receive`` and ``nothing``;
- the loop the kernel compiles the hooks into, ``run_loop``;
- how the hooks act on the machine, each charging its costs: ``send``,
  ``broadcast``, ``announce`` (a broadcast of a value when it changed),
  ``migrate``, and the free ``post`` (a note travelling with a migration).
"""

from __future__ import annotations

import numpy as np

from sweep.families import Family, Point
from sweep.families.balancing._core import announce, broadcast, migrate, post, run_loop, send
from sweep.families.balancing._machine import Machine, Network, machine_of
from sweep.families.balancing._policy import BalancingHooks, balancing_policy, no_receive, no_tick, nothing
from sweep.families.balancing._simulate import VARIABLES, simulate, validate
from sweep.families.balancing._tasks import TaskSet, Workload


def _pes(point: Point) -> np.ndarray:
    return np.arange(machine_of(point.system).pes)


FAMILY = Family(
    name="balancing",
    package=__name__,
    hooks=BalancingHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="lb_symmetric",
    default_system="lb_mesh",
    extra_coords={"pe": _pes},
    workloads={"task_tree": Workload},
    systems={"pe_network": Network},
)

__all__ = ["FAMILY", "BalancingHooks", "Machine", "TaskSet", "announce", "balancing_policy", "broadcast",
           "migrate", "no_receive", "no_tick", "nothing", "post", "run_loop", "send"]
