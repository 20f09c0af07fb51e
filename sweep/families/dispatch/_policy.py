"""What a dispatch policy supplies, and the registry its file adds it to (STYLE pattern 1).

A policy is one file plus one YAML (``conf/policy/<name>.yaml``). The file
builds a :class:`DispatchPolicy` and calls :func:`register_policy` once.
State-independent policies (Random, Round-Robin, SITA-*) supply an
``assigner`` that names every job's host in advance, in numpy, and run on the
shared kernel ``_core._run_given``; the others supply their own compiled
kernel built on ``_core._dispatch`` with a hook that picks the host from the
hosts' state at each arrival.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.families import Point
from sweep.families._registry import Registry
from sweep.families.dispatch._workload import Workload

#: ``assigner(sizes, first)`` -> host of each job; ``first`` is the index of ``sizes[0]``
#: in the stream, so that a policy may carry state (a cycle) from chunk to chunk.
Assigner = Callable[[np.ndarray, int], np.ndarray]


@dataclass(frozen=True)
class DispatchPolicy:
    """One task-assignment policy of seed 003 §1.2.

    kernel(arrival, size, given, j0, j1, measuring, state, acc) -> int
        The compiled chunk runner (see ``_core._dispatch``).
    analytic(point, workload) -> dict
        The closed-form summary (``_analytic``): NaN where there is none. Its
        ``saturated`` entry also marks simulated points whose load is known to
        be unstable.
    assigner(point, workload, rng) -> Assigner, or None
        For state-independent policies: the host-naming function of one
        replication, with ``rng`` the policy's own child generator.
    parameters
        The policy's config keys besides ``name``, with their defaults.
    check(point, workload) -> None
        Raises ``ValueError`` on a bad parameter value, or a workload the policy
        cannot use (after the family has checked the parameter names).
    """

    name: str
    kernel: Callable[..., int]
    analytic: Callable[[Point, Workload], dict[str, object]]
    assigner: Callable[[Point, Workload, np.random.Generator], Assigner] | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[[Point, Workload], None] | None = None


POLICIES: Registry[DispatchPolicy] = Registry("dispatch policy")
#: Add a policy under its name; a duplicate name raises.
register_policy = POLICIES.register
