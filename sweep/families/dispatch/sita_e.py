"""SITA-E (SH00 §1.2, [12]): size-interval assignment with equal load.

Short jobs go to host 1, medium ones to host 2, ..., with cutoffs chosen so
that every host receives the same fraction 1/h of the work:
``E[X ; c_{i-1} < X <= c_i] = E[X] / h``. The cutoffs do not depend on the
load. On the C90 reconstruction (docs/model-notes.md §3), h = 2, the cutoff is about
69,190 s and 98.7% of the jobs go to host 1, as the paper reports (§3.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sweep.families.dispatch import cutoffs_at_work_fractions, sita_policy
from sweep.workloads import Distribution


def rule(dist: Distribution, hosts: int, load: float,
         params: Mapping[str, Any]) -> tuple[float, ...]:
    """Cutoffs splitting the work of ``dist`` into h equal parts."""
    return cutoffs_at_work_fractions(dist, np.full(hosts, 1.0 / hosts))


POLICY = sita_policy("sita_e", rule)
