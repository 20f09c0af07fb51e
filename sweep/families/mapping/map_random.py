"""Random mapping, a floor: every task on a processor drawn uniformly, run in topological order.

Drawn from the policy's own generator (a child of the replication's); tasks run in the graph's
topological order (Kahn's, smallest index first). Not in CSSE00: a baseline
below which a mapper has learnt nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep.families.mapping import Instance, Plan, mapping_policy


def _map(inst: Instance, params: Any, rng: np.random.Generator | None, clusters: Any) -> Plan:
    if rng is None:
        raise ValueError("policy map_random draws processors: it needs a generator")
    key = np.empty(inst.tasks)
    key[inst.arrays.topo] = np.arange(inst.tasks)
    return Plan(proc=rng.integers(0, inst.processors, size=inst.tasks).astype(np.int64), key=key,
                ops=inst.tasks)


POLICY = mapping_policy("map_random", map=_map)
