"""Random (SH00 §1.2): each job goes to host i with probability 1/h.

Bernoulli splitting makes every host an independent M/G/1 FCFS queue with
rate λ/h and the full size distribution (SH00 §3.3), so the analytic model
is Pollaczek–Khinchine per host (``_analytic.random_split``). The host of job j is
``floor(h U_j)`` with ``U_j`` from the policy's own child generator, drawn
after (and apart from) the job stream (docs/design.md §4); uniform doubles, unlike
bounded integers, give the same hosts however the stream is chunked.
"""

from __future__ import annotations

import numpy as np

from sweep.families import Point
from sweep.families.dispatch import (
    Assigner,
    Workload,
    dispatch_policy,
    random_assigner,
    random_split,
    run_given,
)


def _assigner(point: Point, workload: Workload, rng: np.random.Generator) -> Assigner:
    return random_assigner("random", int(point.system["hosts"]), rng)


POLICY = dispatch_policy("random", kernel=run_given, analytic=random_split, assigner=_assigner)
