"""What a rigid policy supplies: :class:`RigidHooks` (DESIGN §2a).

A policy is one module-level :class:`~sweep.families.Policy` of family
``rigid`` in one file of this package, plus ``conf/policy/<name>.yaml``.
``schedule`` maps the jobs' columns to start times::

    schedule(submit, run, requested, procs, priority, processors, params) -> start

All columns are in submit order (see :mod:`sweep.families.rigid.jobs`); ``run``
is only used to know when a job actually ends, every decision uses
``requested`` (MODEL_NOTES §2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RigidHooks:
    """The rigid family's hooks (module docstring)."""

    schedule: Callable[..., np.ndarray]
