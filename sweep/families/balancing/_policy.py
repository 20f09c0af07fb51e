"""What a balancing policy supplies: :class:`BalancingHooks` (the policy contract).

A policy is one module of this package with a module-level
:class:`~sweep.families.Policy` of family ``balancing`` (made with
:func:`balancing_policy`) plus one ``conf/policy/<name>.yaml``. Its compiled
kernel is two lines, ``_run(S, pst) = run_loop(S, pst, _tick, _receive)``
(:mod:`~sweep.families.balancing._core` documents the hooks' signatures).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import Policy
from sweep.families._params import NoParams
from sweep.families.balancing._machine import Machine
from sweep.families.balancing._tasks import TaskSet


@dataclass(frozen=True)
class BalancingHooks:
    """The balancing family's hooks.

    kernel(S, pst) -> None
        The compiled run (``_core.run_loop`` with the policy's tick and receive).
    tick, receive
        The two compiled hooks themselves (``_core``'s module docstring), for
        loops that drive the balancer with their own executor
        (``_core.balance_step``; the ``salad`` family).
    make_state(machine, tasks, params) -> pst
        The policy's namedtuple of parameters and state arrays for one run.
    stats(pst) -> dict
        Policy-specific summary values (RoC's hit rates), or None.
    check(machine, params) -> None
        ValueError for a machine the parameters do not fit (e.g. the
        dispatcher's PE number beyond P), or None.
    """

    kernel: Callable[..., None]
    tick: Callable[..., None]
    receive: Callable[..., None]
    make_state: Callable[[Machine, TaskSet, Any], Any]
    stats: Callable[[Any], dict[str, float]] | None = None
    check: Callable[[Machine, Any], None] | None = None


def balancing_policy(name: str, *, params: type = NoParams,
                     examples: tuple[Mapping[str, Any], ...] = ({},), **hooks: Any) -> Policy:
    """A balancing :class:`~sweep.families.Policy` from its hooks (:class:`BalancingHooks`)."""
    return Policy(name, "balancing", BalancingHooks(**hooks), params, examples)


#: The state of a policy that keeps none.
Nothing = namedtuple("Nothing", ["unused"])


def nothing(machine: Machine, tasks: TaskSet, params: Any) -> Any:
    """``make_state`` of a policy without state."""
    return Nothing(np.zeros(1, dtype=np.int64))


@jit(**NO_REFCOUNT)
def no_tick(t, S, pst):
    """A ``tick`` hook that does nothing."""
    return


@jit(**NO_REFCOUNT)
def no_receive(t, S, pst, src, dst, kind, a, b, c):
    """A ``receive`` hook that does nothing."""
    return
