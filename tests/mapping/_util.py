"""Small instances shared by the mapping tests (``make`` and ``random_instance``:
:mod:`sweep.testing.mapping`, which a plugin's tests share)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sweep.families import load_families
from sweep.testing.mapping import make, random_instance
from sweep.workloads.task_graphs import SHIPPED, SystemGraph

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = SHIPPED / "topcuoglu2002_example.json"
FAMILY = load_families()["mapping"]


def cases():
    """(policy name, example parameters) for every registered mapper and example."""
    return [(name, example) for name, policy in FAMILY.policies.items() for example in policy.examples]


def line(speeds, bandwidths) -> SystemGraph:
    """Processors 0 - 1 - ... in a line."""
    n = len(speeds)
    return SystemGraph(np.asarray(speeds, float), np.arange(n - 1), np.arange(1, n),
                       np.asarray(bandwidths, float))


__all__ = ["EXAMPLE", "FAMILY", "ROOT", "cases", "line", "make", "random_instance"]
