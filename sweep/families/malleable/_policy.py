"""The malleable policies by config name (STYLE pattern 1: one file + one YAML per policy).

Each policy module registers one :class:`Policy`: its name, the dataclass of
its parameters (the ``policy`` config section less ``name``; the dataclass
checks the values) and ``run``::

    run(jobs, processors, params, warmup, target, cap) -> (depart, acq, ist, fst)

the kernel state at the end (see :mod:`sweep.families.malleable._core`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

Outcome = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Policy:
    """One malleable processor-allocation policy."""

    name: str
    run: Callable[..., Outcome]
    params: type

    def make_params(self, config: Mapping[str, Any]) -> Any:
        """The parameter dataclass from a policy config section; unknown keys raise."""
        known = {f.name for f in dataclasses.fields(self.params)}
        extra = sorted(set(config) - known - {"name"})
        if extra:
            raise ValueError(f"policy {self.name!r} has no option {extra[0]!r}; "
                             f"allowed: {', '.join(sorted(known))}")
        return self.params(**{k: v for k, v in config.items() if k in known})


@dataclass(frozen=True)
class Shares:
    """Equipartition options: ``fractional: true`` gives real-valued shares (§2.2)."""

    fractional: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.fractional, bool):
            raise ValueError(f"policy.fractional must be true or false, got {self.fractional!r}")


@dataclass(frozen=True)
class Quantum:
    """FB options: the time slice in seconds (not printed in seed 000; MODEL_NOTES §1)."""

    quantum: float = 10.0

    def __post_init__(self) -> None:
        q = self.quantum
        if isinstance(q, bool) or not isinstance(q, int | float) or not 0 < q < np.inf:
            raise ValueError(f"policy.quantum must be a number of seconds > 0, got {q!r}")


POLICIES: dict[str, Policy] = {}


def register_policy(policy: Policy) -> Policy:
    """Add ``policy`` to :data:`POLICIES`; a duplicate name raises."""
    if policy.name in POLICIES:
        raise ValueError(f"malleable policy {policy.name!r} registered twice")
    POLICIES[policy.name] = policy
    return policy
