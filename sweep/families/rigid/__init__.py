"""The ``rigid`` family: P processors, rigid jobs with user estimates, no preemption.

Talby & Feitelson 1999 (TF99): FCFS, EASY and conservative backfilling and
slack-based priority backfilling replayed on SWF traces such as KTH SP2; and
EASY with the queue in other orders (shortest requested time, largest
expansion factor, WFP). Jobs: :mod:`~sweep.families.rigid._jobs`; the one
event loop: ``_core``; the shared passes: ``_passes`` and ``_slack``; the
policy contract: ``_policy``; one file per policy; the grid-point wrapper:
:mod:`~sweep.families.rigid._simulate`.

Its policies are the ``Policy`` objects of its modules (:mod:`sweep.families`).
"""

from sweep.families import Family, Processors
from sweep.families.rigid._options import SwfWorkload
from sweep.families.rigid._policy import RigidHooks
from sweep.families.rigid._simulate import (
                                            VARIABLES,
                                            deterministic,
                                            load_applied,
                                            month_labels,
                                            simulate,
                                            validate,
)

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

__all__ = ["FAMILY"]
