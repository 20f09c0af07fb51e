"""What a malleable policy supplies: :class:`MalleableHooks`, and the policies' parameters.

A policy is one file plus one YAML (``conf/policy/<name>.yaml``): the file
defines a module-level :class:`~sweep.families.Policy` of family ``malleable``
(through :func:`malleable_policy`); the family finds it by scanning its
package. Every policy runs the family's one event loop
(:func:`sweep.families.malleable._core.run_events`) with two compiled hooks:
*configure* (the processors an arriving job is configured for; FB-PWS and
FB-ASP) and *allocate* (the allocations after an event: two-phase
equipartition, ``_equipartition``, or FB time slices, ``_slices``). The loop
with the hooks is the policy's *kernel*, compiled in the hooks' file with
them as compile-time constants.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import Policy
from sweep.families._params import NoParams, param
from sweep.families.malleable import _core
from sweep.families.malleable.workload import MalleableJobs


@dataclass(frozen=True)
class MalleableHooks:
    """The malleable family's hooks.

    kernel(columns, options, state, batches, scalars, work) -> None
        The compiled loop, ``_core.run_events(..., configure, allocate)`` with
        the policy's hooks (signatures in :mod:`~sweep.families.malleable._core`).
    workspace(jobs, cap) -> named tuple of arrays
        The hooks' work arrays for ``jobs`` jobs, at most ``cap`` in the system
        (the loop may not allocate), passed to the hooks as ``work``.
    phase_one(jobs, processors) -> per-job caps, or None
        The phase-one caps of a two-phase equipartition (``Columns.first``,
        capped at ``min(N_j, P)``); ``None``: ``min(N_j, P)``.
    naive
        The policy of ``tests/naive/malleable.py`` this one must match job for
        job, given ``phase_one`` (or, without one, the jobs' pws) as its
        ``pws``; ``None`` when no naive reference covers it.
    """

    kernel: Callable[..., None]
    workspace: Callable[[int, int], tuple]
    phase_one: Callable[[MalleableJobs, int], np.ndarray] | None = None
    naive: str | None = None

    def run(self, jobs: MalleableJobs, processors: int, params: Any, stop: _core.Stop) -> _core.Outcome:
        """Simulate ``jobs`` on ``processors`` with the policy's ``params`` until ``stop``."""
        first = None if self.phase_one is None else self.phase_one(jobs, processors)
        columns = _core.make_columns(jobs, processors, first)
        options = _core.make_options(params, processors, phase2=bool((columns.second > 0).any()))
        overhead = float(dataclasses.asdict(params).get("repartition_overhead", 0.0))
        state, batches, scalars = _core.start(len(jobs), stop, overhead, options.period)
        _core.run_batches(self.kernel, columns, options, state, batches, scalars,
                          self.workspace(len(jobs), stop.cap))
        return _core.Outcome(state, batches, scalars.view(np.recarray)[0])


def malleable_policy(name: str, *, params: type = NoParams, examples: tuple[Mapping[str, Any], ...] = ({},),
                     **hooks: Any) -> Policy:
    """A malleable :class:`~sweep.families.Policy` from its hooks (:class:`MalleableHooks`)."""
    return Policy(name, "malleable", MalleableHooks(**hooks), params, examples)


@dataclass(frozen=True)
class Overhead:
    """Options of every malleable policy (CV96 §4.3)."""

    repartition_overhead: float = param(
        0.0, ge=0, unit="seconds",
        doc="seconds a whole job stalls per change of its allocation (§4.3; 5 s in Figures 10–11)")


@dataclass(frozen=True)
class Shares(Overhead):
    """Options of the equipartition policies (CV96 §2.2, §4.3)."""

    fractional: bool = param(
        False, doc="real-valued shares instead of integer ones (with linear speedup and N_j >= P: "
                   "M/G/1 processor sharing at rate P)")
    repartition_period: float = param(
        0.0, ge=0, unit="seconds",
        doc="> 0: repartition fully only at its multiples, serving arrivals and departures in "
            "between by moving processors (§4.3, Figure 11: 500 s); 0: at every arrival and departure")


@dataclass(frozen=True)
class Quantum(Overhead):
    """Options of the FB policies (CV96 §2.1)."""

    quantum: float = param(10.0, gt=0, unit="seconds",
                           doc="the time slice (not printed in the paper: a choice)")
    reschedule: str = param(
        "slice_boundary", choices=("slice_boundary", "every_event"),
        doc="slice_boundary: the full schedule only at the start of each time slice, arrivals and "
            "departures in between filling idle processors (§2.1, the paper's); every_event: also at "
            "every arrival and departure (an idealised least-attained-service discipline)")
