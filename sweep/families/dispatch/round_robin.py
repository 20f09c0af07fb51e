"""Round-Robin (SH00 §1.2): the i-th job goes to host ``i mod h``.

State-independent: hosts are named in advance and each host runs its own
Lindley recursion (docs/design.md §7); the cycle carries from chunk to chunk through
the job's index in the stream. Each host is an E_h/G/1 queue (SH00 §3.3),
which has no closed form for general sizes: the analytic model gives only
utilization and the exact host fractions 1/h.
"""

from __future__ import annotations

import numpy as np

from sweep.families import Point
from sweep.families.dispatch import Assigner, Workload, dispatch_policy, empty_summary, run_given


def _assigner(point: Point, workload: Workload, rng: np.random.Generator) -> Assigner:
    hosts = int(point.system["hosts"])

    def assign(sizes: np.ndarray, first: int) -> np.ndarray:
        return (first + np.arange(len(sizes), dtype=np.int64)) % hosts

    return assign


def _analytic(point: Point, workload: Workload) -> dict[str, object]:
    hosts = int(point.system["hosts"])
    summary = empty_summary(hosts, float(point.load))
    summary.update(host_load_fraction=np.full(hosts, 1.0 / hosts),
                   host_job_fraction=np.full(hosts, 1.0 / hosts))
    return summary


POLICY = dispatch_policy("round_robin", kernel=run_given, analytic=_analytic,
                               assigner=_assigner)
