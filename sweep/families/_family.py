"""The contract between the engine and a simulator family.

A family is a pure function of plain data: it receives a :class:`Point` (the
policy, workload, system and stopping rule of one grid point, as plain Python
values) and a ``numpy.random.Generator``, and returns a :class:`Result`.
It knows nothing of Ray, Hydra or xarray; the engine knows nothing of a
family's policies beyond their config names.

Every variable a family can return is declared once, in ``Family.variables``,
with its units, long name and the extra dimensions it carries beyond the grid
point and the replication (``("host",)`` for a per-host value, ``()`` for a
scalar). The engine uses that table to lay out the Dataset.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.families._discovery import load_families
from sweep.families._policy import Policy
from sweep.families._registry import Registry


@dataclass(frozen=True)
class Variable:
    """One output variable of a family (shared names mean the same thing).

    ``reproducible=False`` marks a wall-clock measurement (how long an algorithm
    ran): its name ends in ``_seconds``, the Dataset gives it the attribute
    ``reproducible = "no"``, and identity checks leave it out.
    """

    name: str
    units: str
    long_name: str
    dims: tuple[str, ...] = ()
    dtype: str = "float64"
    reproducible: bool = True

    def __post_init__(self) -> None:
        if not self.reproducible and not self.name.endswith("_seconds"):
            raise ValueError(f"wall-clock variable {self.name!r} must be named *_seconds")


def control_names(value: Any) -> tuple[str, ...]:
    """``stop.control_variate`` as a tuple of names: ``false``/``null`` none, a name, or a list of names."""
    if value is False or value is None:
        return ()
    names = (value,) if isinstance(value, str) else value
    if not isinstance(names, list | tuple) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"stop.control_variate must be false, a control's name or a list of names, "
                         f"got {value!r}")
    return tuple(names)


def _require_int(name: str, value: Any, least: int, alternative: str = "") -> None:
    """One-line ``ValueError`` unless ``value`` is an integer (not a bool) ``>= least``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}{alternative}, got {value!r}")


@dataclass(frozen=True)
class Processors:
    """A machine of ``processors`` identical processors (the rigid and malleable families)."""

    processors: int


#: How a point is evaluated: the family's simulator, or its closed-form model.
MODELS = ("simulation", "analytic")


@dataclass(frozen=True)
class StopRule:
    """When a replication ends: ``jobs`` measured after ``warmup`` discarded ones.

    ``max_in_system`` caps the number of jobs present at once; a run that hits it
    is stopped and reported ``saturated`` instead of running on (docs/design.md §6).
    ``ci_target`` > 0 asks a family that supports it (``Family.sequential_stopping``)
    for sequential batch means:
    stop once the 90% confidence interval is within ``± ci_target`` of the mean,
    or after ``max_jobs`` measured jobs (docs/design.md §6; 0 = a fixed run of ``jobs``).
    ``control_variate`` names the control variates (values of known mean, such
    as the jobs' service demand) with which such a family estimates the mean
    (:func:`sweep.stats.controlled_mean`): ``false`` (none), a name, or a list of
    names; stored as a tuple. Every option is checked here, one line per problem
    (a family checks only what is its own, e.g. a least ``jobs`` for its batches).
    """

    jobs: int
    warmup: int
    max_in_system: int = 1_000_000
    ci_target: float = 0.0
    max_jobs: int | None = None
    control_variate: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, least in (("jobs", 1), ("warmup", 0), ("max_in_system", 1)):
            _require_int(f"stop.{name}", getattr(self, name), least)
        if self.max_jobs is not None:
            _require_int("stop.max_jobs", self.max_jobs, 1, " or null")
        rel = self.ci_target
        if isinstance(rel, bool) or not isinstance(rel, int | float) or not 0 <= rel < 1:
            raise ValueError(f"stop.ci_target must be a relative half-width in [0, 1), got {rel!r}")
        object.__setattr__(self, "control_variate", control_names(self.control_variate))

    @property
    def sequential(self) -> bool:
        """Whether the rule asks for sequential stopping (a CI target or control variates)."""
        return bool(self.ci_target or self.control_variate)


@dataclass(frozen=True)
class Point:
    """Everything one replication of one grid point needs, as plain data.

    ``policy`` and ``workload`` are the composed config sections as dicts (they
    carry at least ``name``); ``system`` is the ``system`` section; ``load`` the
    offered load (a number > 0; a family says what it means for its workloads);
    ``model`` one of :data:`MODELS`. Both are checked here, for every family.
    """

    policy: Mapping[str, Any]
    workload: Mapping[str, Any]
    system: Mapping[str, Any]
    load: float
    stop: StopRule
    record_jobs: bool = False
    model: str = "simulation"

    def __post_init__(self) -> None:
        load = self.load
        if isinstance(load, bool) or not isinstance(load, numbers.Real) or not 0 < load < math.inf:
            raise ValueError(f"load must be a number > 0, got {load!r}")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, got {self.model!r}")


@dataclass
class Result:
    """What one replication returns.

    ``summary`` maps declared variable names to a float/bool (scalar variables)
    or a 1-D array (variables with one extra dimension). ``jobs`` holds per-job
    arrays, all of one length, when ``record_jobs`` was asked for. ``work`` is the
    number of jobs (or events) simulated, for the progress bar's throughput.
    ``attrs`` carries facts about the input worth keeping in the Dataset's
    attributes (e.g. trace jobs dropped, by reason); str, int or float values.
    """

    summary: dict[str, Any]
    jobs: dict[str, np.ndarray] | None = None
    work: int = 0
    attrs: dict[str, str | int | float] = field(default_factory=dict)


@dataclass(frozen=True)
class Family:
    """A simulator family as the engine sees it.

    simulate(point, rng) -> Result
        One replication. Deterministic given ``rng``; no side effects.
    validate(point) -> None
        Raises ``ValueError`` with one line naming the bad option and the allowed
        values, before any simulation starts. It does not read ``point.load``
        (the :class:`Point` checks the load itself), nor do ``load_applied`` and
        ``deterministic``: the grid checks each combination of the other options
        once, however many loads it has.
    analytic(point) -> Result | None
        The closed-form/approximate model of the same point (``model=analytic``),
        or ``None`` when the family has none for this policy.

    ``hooks`` is the type of the record of compiled hooks every policy of the
    family supplies (:class:`~sweep.families._policy.Policy`); ``policies`` (its
    ``registry``, once loaded) is filled by :func:`sweep.families.load_families` from the modules of
    ``package`` and the ``sweep.policies`` entry points. ``default_workload``
    and ``default_system`` are the config options used when a policy of the
    family is named alone (``sweep policy=easy``). ``workloads`` maps each
    workload ``kind`` the family reads to the dataclass of its options, and
    ``systems`` each kind of machine to its dataclass: the engine makes the
    config schemas from them (``conf/workload/*.yaml`` and ``conf/system/*.yaml``
    extend those). ``workload_models`` declares a nested section of the family's
    workloads that is chosen by its ``model`` key: section -> model -> the dataclass
    of that model's options (the malleable family's ``speedup``); the engine makes
    their schemas and reads ``workload.<section>.model=m`` as the group choice
    ``workload/<section>=m``. ``load_applied(point)`` says whether the point's ``load`` shapes
    its jobs (``None``: always); a trace replayed as it is ignores it, so the engine
    refuses a load axis of several values there and leaves ``load`` out of the
    result file's dimensions. ``deterministic(point)`` says whether a run of the point draws
    no random number at all (a trace replayed as it is: every replication would be the
    same run; ``None``: never), so that such a sweep runs one replication by default.
    ``sequential_stopping``: the family honours ``stop.ci_target`` and
    ``stop.control_variate`` (:class:`StopRule`); in the others they are refused
    (:meth:`check_stop`), never ignored.
    """

    name: str
    package: str
    hooks: type
    variables: tuple[Variable, ...]
    simulate: Callable[[Point, np.random.Generator], Result]
    validate: Callable[[Point], None]
    default_workload: str
    default_system: str
    analytic: Callable[[Point], Result | None] | None = None
    extra_coords: Mapping[str, Callable[[Point], np.ndarray]] = field(default_factory=dict)
    workloads: Mapping[str, type] = field(default_factory=dict)
    systems: Mapping[str, type] = field(default_factory=dict)
    workload_models: Mapping[str, Mapping[str, type]] = field(default_factory=dict)
    sequential_stopping: bool = False
    load_applied: Callable[[Point], bool] | None = None
    deterministic: Callable[[Point], bool] | None = None
    registry: Registry[Policy] = field(default_factory=lambda: Registry("policy"), repr=False)

    @property
    def policies(self) -> Registry[Policy]:
        """The family's policies by name, every family and policy loaded first."""
        load_families()
        return self.registry

    def policy(self, point: Point) -> Policy:
        """The point's policy; one-line ``ValueError`` naming the allowed ones."""
        name = point.policy.get("name")
        if name not in self.policies:
            raise ValueError(f"unknown {self.name} policy {name!r}; allowed: {', '.join(self.policies)}")
        return self.policies[name]

    @property
    def headline(self) -> str:
        """The variable a multi-point sweep's table shows: the first scalar one (a family lists its
        headline measure first, e.g. the mean response time)."""
        return next(v.name for v in self.variables if not v.dims)

    def check_stop(self, stop: StopRule) -> None:
        """``ValueError`` for sequential stopping options in a family that does not honour them."""
        if stop.sequential and not self.sequential_stopping:
            takers = ", ".join(f.name for f in load_families().values() if f.sequential_stopping) or "none"
            raise ValueError(f"stop.ci_target and stop.control_variate are not supported by the {self.name} "
                             f"family (only {takers}); got {stop.ci_target!r} and {stop.control_variate!r}")

    def params(self, point: Point) -> Any:
        """The point's policy parameters, checked (:meth:`Policy.make_params`)."""
        return self.policy(point).make_params(point.policy)
