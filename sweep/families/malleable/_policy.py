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

The parameters are the policy's own dataclass (its ``Policy.params``): the
hooks receive them as one record, ``options`` (``_core.make_options``), every
field by its name (``options.quantum``; a string of ``choices`` as its index
there) after the family's ``processors`` and ``phase2``. So a policy with a
parameter of a new name is its file and its YAML. The family reads two of them
itself, by name: ``repartition_overhead`` (the loop's stall, :class:`Overhead`)
and ``repartition_period`` (the first period's end), both 0 without them; the
shared hooks read their own: ``equipartition_share`` the fields of
:class:`Shares`, ``time_slice`` those of :class:`Quantum`.
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
from sweep.families.malleable._slices import RESCHEDULES
from sweep.families.malleable._workload import MalleableJobs


@dataclass(frozen=True)
class MalleableHooks:
    """The malleable family's hooks.

    kernel(arrivals, columns, options, state, batches, log, scalars, work) -> None
        The compiled loop, ``_core.run_events(..., configure, allocate)`` with
        the policy's hooks (signatures in :mod:`~sweep.families.malleable._core`).
    workspace(slots, cap) -> named tuple of arrays
        The hooks' work arrays for ``slots`` job slots, at most ``cap`` jobs in
        the system (the loop may not allocate), passed to the hooks as ``work``.
    phase_one(jobs, processors) -> per-job caps, or None
        The phase-one caps of a two-phase equipartition (``Columns.first``,
        capped at ``min(N_j, P)``); ``None``: ``min(N_j, P)``.
    naive
        The policy of ``sweep/testing/naive/malleable.py`` this one must match job for
        job, given ``phase_one`` (or, without one, the jobs' pws) as its
        ``pws``; ``None`` when no naive reference covers it.
    """

    kernel: Callable[..., None]
    workspace: Callable[[int, int], tuple]
    phase_one: Callable[[MalleableJobs, int], np.ndarray] | None = None
    naive: str | None = None

    def stream(self, chunks: Callable[[], tuple[MalleableJobs, np.ndarray | None, bool]],
               processors: int, params: Any, stop: _core.Stop,
               flush: Callable[[_core.Log], None] | None = None) -> _core.Outcome:
        """Simulate the jobs ``chunks()`` hands out (each call: the next jobs, their control values
        or None, whether more follow) on ``processors`` with the policy's ``params`` until ``stop``.

        Memory holds one chunk and the jobs in the system (``stop.cap + 1``
        slots), however long the run. ``flush`` receives the departed jobs
        (:class:`~sweep.families.malleable._core.Log`), a chunk at a time.
        """
        def arrivals() -> tuple[_core.Columns, bool]:
            jobs, controls, more = chunks()
            first = None if self.phase_one is None else self.phase_one(jobs, processors)
            return _core.make_arrivals(jobs, processors, first, controls), more

        options = _core.make_options(params, processors, phase2=self.phase_one is not None)
        overhead, period = _core.loop_params(params)
        columns, state, batches, log, scalars = _core.start(stop, overhead, period,
                                                            _core.CHUNK_JOBS if flush else 0)
        _core.run_stream(self.kernel, arrivals, columns, options, state, batches, log, scalars,
                         self.workspace(stop.cap + 1, stop.cap), flush)
        return _core.Outcome(None, batches, scalars.view(np.recarray)[0])

    def run(self, jobs: MalleableJobs, processors: int, params: Any, stop: _core.Stop,
            controls: np.ndarray | None = None) -> _core.Outcome:
        """Simulate the given ``jobs`` (and their control values, (n, q)) until ``stop``; the outcome's
        ``state`` holds every job's departure (:class:`~sweep.families.malleable._core.JobRecord`)."""
        n, position = len(jobs), 0
        record = _core.JobRecord(np.full(n, np.nan), np.zeros(n), np.zeros(n, np.int64), np.ones(n))

        def chunks() -> tuple[MalleableJobs, np.ndarray | None, bool]:
            nonlocal position
            window = slice(position, min(position + _core.CHUNK_JOBS, n))
            position = window.stop
            chunk = MalleableJobs(*(getattr(jobs, f.name)[window] for f in dataclasses.fields(jobs)))
            return chunk, None if controls is None else controls[window], position < n

        def flush(log: _core.Log) -> None:
            for name in record._fields:
                getattr(record, name)[log.ident] = getattr(log, name)

        outcome = self.stream(chunks, processors, params, stop, flush)
        return outcome._replace(state=record)


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
        "slice_boundary", choices=RESCHEDULES,
        doc="slice_boundary: the full schedule only at the start of each time slice, arrivals and "
            "departures in between filling idle processors (§2.1, the paper's); every_event: also at "
            "every arrival and departure (an idealised least-attained-service discipline)")
