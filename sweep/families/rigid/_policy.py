"""The rigid policies by config name (STYLE pattern 1: one file + one YAML per policy).

Each policy module registers one :class:`Policy`: its name, the dataclass of its
parameters (the ``policy`` config section less ``name``) and ``schedule``, which
maps the jobs' columns to start times::

    schedule(submit, run, requested, procs, priority, processors, params) -> start

All columns are in submit order (see :mod:`sweep.families.rigid.jobs`); ``run``
is only used to know when a job actually ends, every decision uses
``requested`` (MODEL_NOTES §2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families._registry import Registry


@dataclass(frozen=True)
class NoParams:
    """Parameters of a policy that has none (FCFS, EASY, conservative)."""


@dataclass(frozen=True)
class Policy:
    """One rigid scheduling policy."""

    name: str
    schedule: Callable[..., np.ndarray]
    params: type = NoParams

    def make_params(self, config: Mapping[str, Any]) -> Any:
        """The parameter dataclass from a policy config section; unknown keys raise."""
        known = {f.name for f in dataclasses.fields(self.params)}
        extra = sorted(set(config) - known - {"name"})
        if extra:
            allowed = ", ".join(sorted(known)) or "none"
            raise ValueError(f"policy {self.name!r} has no option {extra[0]!r}; allowed: {allowed}")
        return self.params(**{k: v for k, v in config.items() if k in known})


POLICIES: Registry[Policy] = Registry("rigid policy")
#: Add a policy under its name; a duplicate name raises.
register_policy = POLICIES.register
