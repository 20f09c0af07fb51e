"""The ``gang`` family: gang scheduling and Concurrent Gang on P PEs under a global clock.

CSSE00 (Campos, Silva, Scherson & Eshaghian 2000), §1.3, §2.3, §3.3, Tables
5–7, Fig 6; Silva & Scherson (1999). P processing elements switch context
together at each slice; the trace diagram (Ousterhout matrix) of rows × PEs
is rebuilt at period boundaries after a workload change; tasks compute,
block on I/O or wait at barriers according to their job's class. One loop
(``_core``), one file per policy: ``gang`` and ``concurrent_gang`` (the
policy ``gang`` shares the family's name: policies and families are
separate registries). Jobs: :mod:`~sweep.families.gang._workload`; the grid
point wrapper: :mod:`~sweep.families.gang._simulate`.

``load`` scales the arrival rate of the reconstructed Jann et al. (1997)
workload so that its offered load (computation only) is ``load``; it is not
used with an SWF trace, whose arrivals are replayed. Every reconstruction is
listed in ``docs/ipg00-gang.md``.

What a policy file imports from this package (``from sweep.families.gang import ...``;
``docs/adding-a-policy.md`` §6), never from its ``_`` modules:

- the contract: :class:`GangHooks`, and :class:`GangParams` (packing, with
  its choices ``PACKINGS``): a policy's parameters are its own dataclass
  (Concurrent Gang's is in ``concurrent_gang``);
- the loop the *local* and *priority* hooks are compiled into, ``simulate_core``,
  and the *priority* hook of a policy that keeps no column index, ``no_priority``;
- what a hook reads of a task: ``task_status`` (``READY``, ``IO``, ``BARRIER``,
  ``DONE``), ``wake_tick``, ``NEVER`` (no tick in this slice); a PE's column in
  priority order: ``group_end``, ``first_row_from``;
- ``SETTINGS``, the family's fields of the record ``par`` the hooks receive;
  the policy's parameters follow, each under its own name (filled by
  ``_simulate.kernel_settings``: a new parameter needs no edit here).
"""

from sweep.families import Family
from sweep.families.gang._column import first_row_from, group_end
from sweep.families.gang._core import (
    BARRIER,
    DONE,
    IO,
    NEVER,
    READY,
    SETTINGS,
    no_priority,
    task_status,
    wake_tick,
)
from sweep.families.gang._loop import simulate_core
from sweep.families.gang._policy import PACKINGS, GangHooks, GangParams
from sweep.families.gang._simulate import (
    VARIABLES,
    GangMachine,
    pe_labels,
    simulate,
    slice_labels,
    tick_labels,
    time_labels,
    validate,
)
from sweep.families.gang._workload import WORKLOADS, load_applied

FAMILY = Family(
    name="gang",
    package=__name__,
    hooks=GangHooks,
    variables=VARIABLES,
    simulate=simulate,
    validate=validate,
    default_workload="gang_mixed",
    default_system="gang128",
    extra_coords={"time": time_labels, "pe": pe_labels, "trace_tick": tick_labels,
                  "trace_slice": slice_labels},
    workloads=WORKLOADS,
    systems={"gang_machine": GangMachine},
    load_applied=load_applied,
)

__all__ = ["BARRIER", "DONE", "FAMILY", "IO", "NEVER", "PACKINGS", "READY", "SETTINGS", "GangHooks",
           "GangParams", "first_row_from", "group_end", "no_priority", "simulate_core", "task_status",
           "wake_tick"]
