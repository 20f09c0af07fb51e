"""Random streams keyed by what a job stream depends on (docs/design.md §4, a contract).

A replication's generator is derived from the root ``seed`` and a key made of
the workload's resolved parameters, the offered load and the replication index:
never from the policy (so every policy sees the same job stream: common random
numbers), nor from the worker, batch or completion order (so 1 or N workers,
serial or Ray, fresh or resumed runs give bit-identical results).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

#: Loads are keyed at this resolution (labels are rounded to 10 decimals).
_LOAD_RESOLUTION = 10**9


def stream_key(workload: Mapping[str, Any], load: float) -> tuple[int, ...]:
    """The part of a stream key fixed by a grid point: workload parameters and load.

    The workload enters through a SHA-256 digest of its canonical JSON (Python's
    ``hash`` is salted per process and would break reproducibility).
    """
    canonical = json.dumps(workload, sort_keys=True, default=str).encode()
    digest = hashlib.sha256(canonical).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return (*words, int(round(load * _LOAD_RESOLUTION)))


def replication_rng(seed: int, key: tuple[int, ...], replication: int) -> np.random.Generator:
    """The generator of one replication: ``SeedSequence(seed, spawn_key=key + (r,))``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(*key, replication))
    return np.random.Generator(np.random.PCG64(sequence))
