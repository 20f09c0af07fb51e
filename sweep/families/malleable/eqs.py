"""EQS, spatial equipartitioning (Tucker & Gupta; CV96 §2.2, §4.3).

At every arrival and departure the processors are shared equally among the
jobs in the system, a job never getting more than its maximum parallelism
``N_j`` (water-filling: capped jobs get ``N_j``, the share is recomputed for
the rest). Integer shares are rounded up for the jobs with less acquired
processing time and down for the others; ``fractional: true`` gives the real
share instead (with linear speedup and ``N_j ≥ P`` this is M/G/1 processor
sharing at rate ``P``). The allocate hook and kernel are
:mod:`~sweep.families.malleable._equipartition`'s, with phase one capped at
``N_j`` (so no phase two).

§4.3 options (:class:`~sweep.families.malleable._policy.Shares`):
``repartition_overhead`` stalls a job per change of its allocation (5 s in
Figures 10–11); ``repartition_period`` > 0 is the "practical implementation"
of Figure 11 that repartitions fully once per period (500 s), see
:func:`sweep.families.malleable._equipartition.between_periods`.
"""

from __future__ import annotations

from sweep.families.malleable import Shares, equipartition_kernel, equipartition_workspace, malleable_policy

POLICY = malleable_policy(
    "eqs", params=Shares, kernel=equipartition_kernel, workspace=equipartition_workspace, naive="eqs",
    examples=({}, {"fractional": True}, {"repartition_overhead": 5.0}, {"repartition_period": 50.0}))
