"""The malleable policies by config name (STYLE pattern 1: one file + one YAML per policy).

Each policy module defines one :class:`~sweep.families.Policy` of family
``malleable``: its name, the dataclass of its parameters (the ``policy``
config section less ``name``) and :class:`MalleableHooks` with ``run``::

    run(jobs, processors, params, stop) -> st

``stop`` a :class:`~sweep.families.malleable._core.Stop`, ``st`` the kernel
state at the end (see :mod:`sweep.families.malleable._core`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Outcome = tuple  # the kernel state, sweep.families.malleable._core


@dataclass(frozen=True)
class MalleableHooks:
    """The malleable family's hooks: ``run(jobs, processors, params, stop) -> st``."""

    run: Callable[..., Outcome]


def _seconds(name: str, value: Any, zero: bool) -> None:
    number = not isinstance(value, bool) and isinstance(value, int | float)
    if not number or not (value >= 0 if zero else value > 0) or not value < np.inf:
        raise ValueError(f"policy.{name} must be a number of seconds {'>=' if zero else '>'} 0, "
                         f"got {value!r}")


@dataclass(frozen=True)
class Overhead:
    """``repartition_overhead``: seconds a whole job stalls per change of its allocation (§4.3: 5 s)."""

    repartition_overhead: float = 0.0

    def __post_init__(self) -> None:
        _seconds("repartition_overhead", self.repartition_overhead, zero=True)


@dataclass(frozen=True)
class Shares(Overhead):
    """Equipartition options (§2.2, §4.3).

    ``fractional: true`` gives real-valued shares; ``repartition_period`` (s) > 0
    repartitions fully only at its multiples, serving arrivals and departures in
    between by moving processors (Figure 11: 500 s); 0 repartitions at every
    arrival and departure.
    """

    fractional: bool = False
    repartition_period: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.fractional, bool):
            raise ValueError(f"policy.fractional must be true or false, got {self.fractional!r}")
        _seconds("repartition_period", self.repartition_period, zero=True)


@dataclass(frozen=True)
class Quantum(Overhead):
    """FB options: the time slice in seconds (not printed in seed 000; MODEL_NOTES §1)."""

    quantum: float = 10.0

    def __post_init__(self) -> None:
        super().__post_init__()
        _seconds("quantum", self.quantum, zero=False)
