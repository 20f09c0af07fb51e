"""What a mapping policy (a mapper) supplies: :class:`MappingHooks`.

A mapper is one file plus one YAML (``conf/policy/<name>.yaml``) defining a
module-level :class:`~sweep.families.Policy` of family ``mapping`` (through
:func:`mapping_policy`). Its ``map`` hook turns an instance into a
:class:`Plan` (a processor per task and the order in which tasks run); the
family's one execution model (``_core._execute``) runs every plan, so the
makespans of all mappers are measured alike. Mappers whose kernels need
compiled loops keep them in their own file (numba, ``cache=True``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import Policy
from sweep.families._params import NoParams


@dataclass(frozen=True)
class Plan:
    """A mapper's output: ``proc[t]``; ``key[t]`` orders the tasks (planned start times).

    ``ops`` counts the mapper's elementary steps (deterministic, CSSE00's T_c
    in operations); ``planned`` is the makespan the mapper itself predicted
    (NaN if it predicts none).
    """

    proc: np.ndarray
    key: np.ndarray
    ops: int
    planned: float = float("nan")


@dataclass(frozen=True)
class MappingHooks:
    """The mapping family's hooks.

    map(instance, params, rng, clusters) -> Plan
        The mapper. ``rng`` is the policy's own generator; ``clusters`` what
        ``cluster`` returned (None without it).
    cluster(instance, params) -> (clusters, ops), or None
        A clustering phase done before mapping and timed apart (Cluster-M's
        CNDG and CNUG, CSSE00 §3.1: T_cm − T_c).
    system_clustering_operations(instance, params) -> int, or None
        The part of ``cluster``'s operations that depends on the system graph
        alone. CSSE00 §3.1: "The clustering is done only once for a given
        task (system) graph independent of any system (task) graphs … it is
        not necessary to be repeated for different mappings": a tool that
        maps many jobs on one machine (the ``salad`` family) pays it once per
        machine, and the rest of ``cluster`` once per task graph.
    """

    map: Callable[..., Plan]
    cluster: Callable[..., tuple[Any, int]] | None = None
    system_clustering_operations: Callable[..., int] | None = None


def mapping_policy(name: str, *, params: type = NoParams,
                   examples: tuple[Mapping[str, Any], ...] = ({},), **hooks: Any) -> Policy:
    """A mapping :class:`~sweep.families.Policy` from its hooks (:class:`MappingHooks`)."""
    return Policy(name, "mapping", MappingHooks(**hooks), params, examples)
