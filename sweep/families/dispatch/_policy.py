"""What a dispatch policy supplies: :class:`DispatchHooks` (docs/adding-a-policy.md).

A policy is one file plus one YAML (``conf/policy/<name>.yaml``): the file
defines a module-level :class:`~sweep.families.Policy` of family ``dispatch``
(usually through :func:`dispatch_policy`); the family finds it by scanning
its package. State-independent policies (Random, Round-Robin, SITA-*) supply
an ``assigner`` that names every job's host in advance, in numpy, and run on
the shared kernel ``_core.run_given``; the others supply their own compiled
kernel built on ``_core.dispatch_chunk`` with a *choose* hook of the fixed
signature ``choose(n, t, given, hosts) -> host`` that picks the host at each
arrival from what the hosts show: ``host_count(hosts)``, ``free_time(hosts, i)``,
``work_left(hosts, i, t)`` and ``jobs_in_system(hosts, i, t)`` (``_core``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import Point, Policy
from sweep.families._params import NoParams
from sweep.families.dispatch._workload import Workload

#: ``assigner(sizes, first)`` -> host of each job; ``first`` is the index of ``sizes[0]``
#: in the stream, so that a policy may carry state (a cycle) from chunk to chunk.
Assigner = Callable[[np.ndarray, int], np.ndarray]


@dataclass(frozen=True)
class DispatchHooks:
    """The dispatch family's hooks.

    kernel(arrival, size, given, j0, j1, measuring, hosts, sums) -> int
        The compiled chunk runner (see ``_core.dispatch_chunk``).
    analytic(point, workload) -> dict
        The closed-form summary (``_analytic``): NaN where there is none. Its
        ``saturated`` entry also marks simulated points whose load is known to
        be unstable.
    assigner(point, workload, rng) -> Assigner, or None
        For policies that name hosts in advance: the host-naming function of
        one replication, with ``rng`` the policy's own child generator.
    check(point, workload) -> None
        Raises ``ValueError`` for a workload the policy cannot use (the
        parameters are checked by the policy's parameter dataclass).
    cutoffs(point, workload) -> tuple of h - 1 sizes, or None
        For size-interval policies (SITA): the cutoffs, host i serving the
        sizes in ``(c_{i-1}, c_i]`` (what the analysis and the naive
        reference need to know of the policy).
    """

    kernel: Callable[..., int]
    analytic: Callable[[Point, Workload], dict[str, object]]
    assigner: Callable[[Point, Workload, np.random.Generator], Assigner] | None = None
    check: Callable[[Point, Workload], None] | None = None
    cutoffs: Callable[[Point, Workload], tuple[float, ...]] | None = None


def dispatch_policy(name: str, *, params: type = NoParams,
                    examples: tuple[Mapping[str, Any], ...] = ({},), **hooks: Any) -> Policy:
    """A dispatch :class:`~sweep.families.Policy` from its hooks (:class:`DispatchHooks`)."""
    return Policy(name, "dispatch", DispatchHooks(**hooks), params, examples)
