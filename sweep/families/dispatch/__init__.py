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

What a policy file imports from this package (``from sweep.families.dispatch import ...``;
``docs/adding-a-policy.md`` §3), never from its ``_`` modules:

- the contract: :func:`dispatch_policy`, ``Assigner`` (hosts named in advance),
  :class:`DispatchHooks`, and the :class:`Workload` a policy's ``assigner``,
  ``analytic`` and ``check`` receive;
- the loop a *choose* hook is compiled into, ``dispatch_chunk``, or
  ``run_given`` for hosts named in advance; what a hook sees of the hosts:
  ``host_count``, ``free_time``, ``work_left``, ``jobs_in_system``;
- hosts drawn at random (``_sampling``): ``random_assigner`` (one host per
  job, floor(h U): Random's), ``sampling_assigner`` (``d`` hosts per job packed
  into ``given``, read back by a *choose* hook with ``next_sample``),
  ``check_samples`` (whether they fit) and ``sampled_hosts`` (the draws);
- closed forms (``model=analytic``): ``mgh_approximation`` (M/G/h),
  ``random_split`` (P-K per host), ``empty_summary`` (NaN but utilization);
- size-interval assignment: ``sita_policy``, ``cutoffs_at_work_fractions``,
  the P-K slowdowns ``excess_slowdown``, ``mean_excess_slowdown``, with
  ``finite_upper`` and ``log_ratio``, and the SITA-U fit: ``cutoff_rule``,
  :class:`FitParams`, ``check_fit``.
"""

from __future__ import annotations

import numpy as np

from sweep.families import Family, Point
from sweep.families.dispatch._analytic import empty_summary, mgh_approximation, random_split
from sweep.families.dispatch._core import (
    dispatch_chunk,
    free_time,
    host_count,
    jobs_in_system,
    run_given,
    work_left,
)
from sweep.families.dispatch._policy import Assigner, DispatchHooks, dispatch_policy
from sweep.families.dispatch._sampling import (
    check_samples,
    next_sample,
    random_assigner,
    sampled_hosts,
    sampling_assigner,
)
from sweep.families.dispatch._simulate import VARIABLES, Hosts, analytic, simulate, validate
from sweep.families.dispatch._sita import (
    cutoffs_at_work_fractions,
    excess_slowdown,
    finite_upper,
    log_ratio,
    mean_excess_slowdown,
    sita_policy,
)
from sweep.families.dispatch._sita_fit import FitParams, check_fit, cutoff_rule
from sweep.families.dispatch._workload import Workload


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

__all__ = ["FAMILY", "Assigner", "DispatchHooks", "FitParams", "Workload", "check_fit", "check_samples",
           "cutoff_rule", "cutoffs_at_work_fractions", "dispatch_chunk", "dispatch_policy", "empty_summary",
           "excess_slowdown", "finite_upper", "free_time", "host_count", "jobs_in_system", "log_ratio",
           "mean_excess_slowdown", "mgh_approximation", "next_sample", "random_assigner", "random_split",
           "run_given", "sampled_hosts", "sampling_assigner", "sita_policy", "work_left"]
