"""What a rigid policy supplies: :class:`RigidHooks` (the policy contract, :mod:`sweep.families`).

A policy is one file plus one YAML (``conf/policy/<name>.yaml``): the file
defines a module-level :class:`~sweep.families.Policy` of family ``rigid``,
usually through :func:`rigid_policy`, from

- a :class:`Discipline`: the shared pass that runs at every event time (FCFS,
  EASY, conservative: :mod:`~sweep.families.rigid._passes`; slack:
  :mod:`~sweep.families.rigid._slack`) and the state of its own it needs;
- a queue-order hook, compiled, of the fixed signature
  ``order(t, j, submit, requested, procs, priority) -> float``: the key of
  waiting job ``j`` at pass time ``t``, lower first, ties by submit order.
  :func:`~sweep.families.rigid._core.submit_order` is FCFS order and costs
  nothing; the FCFS and EASY passes follow any other hook;
- the kernel, compiled in the policy's file: the shared event loop with the
  pass and the order hook as compile-time constants (numba's on-disk cache
  cannot hold a kernel that receives a compiled function at run time), with the
  names of the package (``from sweep.families.rigid import EASY, easy_pass, run_loop``)::

      @jit(**NO_REFCOUNT)
      def _run(jobs, state, aux):
          run_loop(jobs, state, aux, easy_pass, _shortest_requested)

A policy whose schedule the tests' slow reference reproduces says so with
``reference``: the tests then run that reference's pass of the same name,
ordering its queue with the hook's pure-Python source (``order.py_func``),
and compare every start time.

All job columns are in submit order (:mod:`sweep.families.rigid._jobs`);
``run`` only says when a job actually ends, every decision uses ``requested``,
the user's estimate: the scheduler does not know actual run times.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from sweep.families import NoParams, Policy
from sweep.families.rigid._core import Columns, RigidState, columns, new_state, submit_order

#: ``kernel(jobs, state, aux) -> None``: fills ``state.start`` (:mod:`~sweep.families.rigid._core`).
Kernel = Callable[[Columns, RigidState, tuple], None]


def no_aux(jobs: Columns, params: Any) -> tuple:
    """The state of a pass that needs none of its own."""
    return ()


@dataclass(frozen=True)
class Discipline:
    """A shared pass as the Python side sees it.

    ``name`` is also the name of the tests' slow reference of the pass.
    ``ordered``: the pass follows the policy's order hook (FCFS, EASY); the
    others keep the queue in submit order and take none. ``aux(jobs, params)``
    makes the pass's own state for one run, the kernel's ``aux``.
    """

    name: str
    ordered: bool
    aux: Callable[[Columns, Any], tuple] = no_aux


class Reference(NamedTuple):
    """The slow reference a policy matches: the reference's pass and a pure-Python order key."""

    discipline: str
    key: Callable[..., float]


@dataclass(frozen=True)
class RigidHooks:
    """The rigid family's hooks (module docstring).

    ``kernel`` runs ``discipline``'s pass with the ``order`` hook; ``reference``
    is ``None`` for a policy no slow reference covers.
    """

    kernel: Kernel
    discipline: Discipline
    order: Callable[..., float] = submit_order
    reference: Reference | None = None

    def run(self, jobs: Columns, processors: int, params: Any) -> tuple[RigidState, tuple]:
        """The final state of one run from an empty machine, and the pass's own state."""
        state = new_state(len(jobs.submit), processors)
        aux = self.discipline.aux(jobs, params)
        self.kernel(jobs, state, aux)
        return state, aux

    def schedule(self, submit: np.ndarray, run: np.ndarray, requested: np.ndarray,
                 procs: np.ndarray, priority: np.ndarray, processors: int, params: Any) -> np.ndarray:
        """Start time of every job (columns in submit order, ``params`` the policy's)."""
        jobs = columns(submit, run, requested, procs, priority)
        return self.run(jobs, processors, params)[0].start


def rigid_policy(name: str, *, kernel: Kernel, discipline: Discipline,
                 order: Callable[..., float] = submit_order, params: type = NoParams,
                 examples: tuple[Mapping[str, Any], ...] = ({},), reference: bool = True) -> Policy:
    """A rigid :class:`~sweep.families.Policy` (module docstring).

    ``reference=False`` for a policy the tests' slow reference does not cover.
    ``ValueError`` for an order hook given to a pass that keeps submit order.
    """
    if order is not submit_order and not discipline.ordered:
        raise ValueError(f"policy {name!r}: the {discipline.name} pass keeps the queue in submit "
                         "order and takes no order hook")
    key = getattr(order, "py_func", order)
    hooks = RigidHooks(kernel, discipline, order, Reference(discipline.name, key) if reference else None)
    return Policy(name, "rigid", hooks, params, examples)
