"""The ``rigid`` family: P processors, rigid jobs with user estimates, no preemption.

Talby & Feitelson 1999 (TF99): FCFS, EASY and conservative backfilling and
slack-based priority backfilling replayed on SWF traces such as KTH SP2; and
EASY with the queue in other orders (shortest requested time, largest
expansion factor, WFP). Jobs: :mod:`~sweep.families.rigid._jobs`; the one
event loop: ``_core``; the shared passes: ``_passes`` and ``_slack``; the
policy contract: ``_policy``; one file per policy; the grid-point wrapper:
:mod:`~sweep.families.rigid._simulate`.

Its policies are the ``Policy`` objects of its modules (:mod:`sweep.families`).

What a policy file imports from this package (``from sweep.families.rigid import ...``;
``docs/adding-a-policy.md`` §4–5), never from its ``_`` modules:

- the contract: :func:`rigid_policy`, :class:`Discipline` (a pass as Python sees it),
  :func:`no_aux`, :class:`RigidHooks`;
- the loop, ``run_loop(jobs, state, aux, step, order)`` (``_core.run``), to compile
  into the policy's kernel with its pass and order hook;
- the shared passes and their disciplines: ``fcfs_pass``/``FCFS``,
  ``easy_pass``/``EASY``, ``conservative_pass``/``CONSERVATIVE``,
  ``slack_pass``/``SLACK`` with :class:`SlackParams` and ``HEURISTICS``;
- order hooks: ``submit_order`` (FCFS order) and ``order_queue`` (a pass that
  follows the hook sorts the queue with it first);
- what a new pass starts jobs and plans with: ``start_job``, ``drop_started``,
  ``start_heads``, ``start_reserved``, ``running_profile``, ``earliest_fit``,
  ``earliest_fit_from``, ``fits_at``, ``add_interval``, ``sort_queue``;
- the kernel's arguments: :class:`Columns` (made by :func:`columns`) and
  :class:`RigidState`.
"""

from sweep.families import Family, Processors
from sweep.families.rigid._core import (
    Columns,
    RigidState,
    add_interval,
    columns,
    drop_started,
    earliest_fit,
    earliest_fit_from,
    fits_at,
    order_queue,
    running_profile,
    sort_queue,
    start_heads,
    start_job,
    start_reserved,
    submit_order,
)
from sweep.families.rigid._core import run as run_loop
from sweep.families.rigid._options import SwfWorkload
from sweep.families.rigid._passes import CONSERVATIVE, EASY, FCFS, conservative_pass, easy_pass, fcfs_pass
from sweep.families.rigid._policy import Discipline, RigidHooks, no_aux, rigid_policy
from sweep.families.rigid._simulate import (
    VARIABLES,
    deterministic,
    load_applied,
    month_labels,
    simulate,
    validate,
)
from sweep.families.rigid._slack import HEURISTICS, SLACK, SlackParams, slack_pass

FAMILY = Family(
    name="rigid",
    package=__name__,
    hooks=RigidHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="kth",
    default_system="sp2_128",
    extra_coords={"month": month_labels},
    workloads={"swf": SwfWorkload},
    systems={"processors": Processors},
    load_applied=load_applied,
    deterministic=deterministic,
)

__all__ = ["CONSERVATIVE", "EASY", "FAMILY", "FCFS", "HEURISTICS", "SLACK", "Columns", "Discipline",
           "RigidHooks", "RigidState", "SlackParams", "add_interval", "columns", "conservative_pass",
           "drop_started", "earliest_fit", "earliest_fit_from", "easy_pass", "fcfs_pass", "fits_at",
           "no_aux", "order_queue", "rigid_policy", "run_loop", "running_profile", "slack_pass",
           "sort_queue", "start_heads", "start_job", "start_reserved", "submit_order"]
