"""Expand a composed config into the grid of points (docs/design.md §3).

An axis is ``policy``, ``workload``, ``load`` or any other config key listed
under ``grid.<key>``; a key that is not on the grid keeps its single value, and
``policy``, ``workload`` and ``load`` are always axes (of length one when not
swept). Any config group is an axis over its options when listed
(``grid.system=[sp2_100,sp2_128]``, ``grid.workload.speedup=[eq5,linear]``);
each option is composed once, not once per point, and its label is the
option's name.

A sample design (``design=saltelli`` etc., :mod:`sweep.config.design`) adds one
more axis, ``sample``, last: each of its values sets every ``design.params``
key at once. A sampled ``load`` replaces the ``load`` axis.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from omegaconf import DictConfig, OmegaConf

from sweep.config.compose import (
    FAMILY_GROUPS,
    ConfigError,
    _chooses,
    _key,
    check_load,
    compose_group_option,
    config_groups,
    plain,
    section,
)
from sweep.config.design import SAMPLE_DIM, Design, DesignError, draw, read_options
from sweep.config.seeding import stream_key
from sweep.families import Family, Point, StopRule, family_of

#: Axes every Dataset has, in this order, before any other grid axis.
CORE_AXES = ("policy", "workload", "load")
#: Names a grid axis may not take: they are dimensions sweep adds itself.
RESERVED_DIMS = ("replication", "job", SAMPLE_DIM)


@dataclass(frozen=True)
class Axis:
    """One dimension of the sweep: ``dim`` names it in the Dataset, ``key`` in the config."""

    dim: str
    key: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class GridPoint:
    """One point: its position on every axis, what the family needs, its stream key."""

    index: int
    position: tuple[int, ...]
    point: Point
    stream: tuple[int, ...]

    def label(self, axes: Sequence[Axis]) -> str:
        """``policy=random, load=0.5, ...`` for messages."""
        return ", ".join(f"{a.dim}={a.values[i]}" for a, i in zip(axes, self.position, strict=True))


@dataclass(frozen=True)
class Grid:
    """The axes and how a point is made from a position on them.

    Points are not stored: :meth:`point` makes one from its index (a
    10^6-point grid is its axes and a few composed sections, not 10^6
    objects). ``points`` is the sequence of all of them, made on demand.
    """

    axes: tuple[Axis, ...]
    #: The config without its grid, with the composed option of every group axis, in the order
    #: the axes are applied (groups first), and the stopping rule of every point whose ``stop``
    #: section no axis sets (one that does gets its own, :func:`_make_point`).
    base: Mapping[str, Any] = field(repr=False)
    sections: Mapping[str, Mapping[Any, dict[str, Any]]] = field(repr=False)
    order: tuple[int, ...] = field(repr=False)
    stop: StopRule = field(repr=False)
    #: The axes whose key lies inside a group axis's options.
    owned: frozenset[int] = field(repr=False, default=frozenset())
    #: False when no point applies its ``load`` (every one replays a trace as it is): the result
    #: file then has no ``load`` dimension (:attr:`dims`).
    load_applied: bool = True
    #: True when no point draws a random number (``Family.deterministic``): its replications would
    #: all be the same run.
    deterministic: bool = False
    #: What the sweep must say before it runs: options that take no effect here (one line each).
    notes: tuple[str, ...] = ()
    #: The sample design whose points lie on the ``sample`` axis; None for a plain grid.
    design: Design | None = None
    #: The design's points, one row of values of ``design.keys`` per value of the ``sample`` axis.
    rows: tuple[tuple[Any, ...], ...] = field(repr=False, default=())
    #: Stream keys by the positions on the axes that shape the workload and the load (computed
    #: once per distinct workload and load, not per point; never pickled).
    _streams: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key != "_streams"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in {**state, "_streams": {}}.items():
            object.__setattr__(self, key, value)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(a.values) for a in self.axes)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def _shown(self) -> tuple[Axis, ...]:
        """The axes the result file has as dimensions: every one, but ``load`` where no point applies it."""
        return tuple(axis for axis in self.axes if self.load_applied or axis.key != "load")

    @property
    def dims(self) -> tuple[str, ...]:
        """The result file's grid dimensions (:attr:`_shown`)."""
        return tuple(axis.dim for axis in self._shown)

    @property
    def dims_shape(self) -> tuple[int, ...]:
        """The lengths of :attr:`dims` (the ``load`` axis left out has one value)."""
        return tuple(len(axis.values) for axis in self._shown)

    @property
    def points(self) -> GridPoints:
        return GridPoints(self)

    def position(self, index: int) -> tuple[int, ...]:
        """The position of point ``index`` (points are numbered in C order of the axes)."""
        position = []
        for length in reversed(self.shape):
            index, place = divmod(index, length)
            position.append(place)
        return tuple(reversed(position))

    def point(self, index: int) -> GridPoint:
        """Point ``index``: the config with every axis set to its value there."""
        position = self.position(index)
        point = _make_point(self, position)
        key = tuple(place for place, axis in zip(position, self.axes, strict=True) if _shapes_stream(axis))
        stream = self._streams.get(key)
        if stream is None:
            if len(self._streams) >= _STREAMS_KEPT:
                self._streams.clear()
            stream = self._streams[key] = stream_key(point.workload, point.load)
        return GridPoint(index, position, point, stream)

    def label(self, index: int) -> str:
        """``policy=random, load=0.5, ...``: point ``index`` on the result file's dimensions
        (:attr:`dims`)."""
        shown, position = self.dims, self.position(index)
        return ", ".join(f"{a.dim}={a.values[i]}" for a, i in zip(self.axes, position, strict=True)
                         if a.dim in shown)

    def first_with(self, axis: int, value: int) -> GridPoint:
        """The first point whose position on ``axis`` is ``value`` (e.g. one point per policy)."""
        return self.point(value * math.prod(self.shape[axis + 1:]))


#: Stream keys a grid keeps at most (then it starts again).
_STREAMS_KEPT = 1 << 17


def _shapes_stream(axis: Axis) -> bool:
    """Whether an axis's value enters the stream key (:func:`sweep.config.seeding.stream_key`):
    the ``sample`` axis may set the load or the workload's parameters, so it counts."""
    return (axis.key in ("load", "workload", SAMPLE_DIM) or axis.key.startswith("workload."))


class GridPoints(Sequence[GridPoint]):
    """Every point of a grid, in index order, each made when asked for."""

    def __init__(self, grid: Grid) -> None:
        self._grid = grid

    def __len__(self) -> int:
        return self._grid.size

    @overload
    def __getitem__(self, index: int) -> GridPoint: ...
    @overload
    def __getitem__(self, index: slice) -> list[GridPoint]: ...
    def __getitem__(self, index: int | slice) -> GridPoint | list[GridPoint]:
        if isinstance(index, slice):
            return [self._grid.point(i) for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(f"grid point {index} of {len(self)}")
        return self._grid.point(index % len(self))

    def __iter__(self) -> Iterator[GridPoint]:
        return (self._grid.point(i) for i in range(len(self)))


def _grid_entries(grid: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The flat grid (dotted key -> values), each a non-empty list, float labels rounded."""
    entries = {}
    for key, values in grid.items():
        if not isinstance(values, list | tuple) or len(values) == 0:
            raise ConfigError(f"grid.{key} must be a non-empty list like [v1,v2], got {values!r}")
        entries[key] = [round(v, 10) if isinstance(v, float) else v for v in values]
    return entries


def _dim_names(keys: Sequence[str], variables: frozenset[str] = frozenset()) -> list[str]:
    """Each key's last component, or the whole key (dots as '_') where two would collide or where the
    last component names one of the result's ``variables`` (``grid.stop.jobs``: the dimension
    ``stop_jobs``, since ``jobs`` is a variable); a dimension that is still a variable's name is refused."""
    last = [k.rsplit(".", 1)[-1] for k in keys]
    dims = [name if last.count(name) == 1 and name not in variables else key.replace(".", "_")
            for key, name in zip(keys, last, strict=True)]
    taken = [(key, dim) for key, dim in zip(keys, dims, strict=True) if dim in variables]
    if taken:
        key, dim = taken[0]
        raise ConfigError(f"grid.{key} would make a dimension named {dim!r}, which is a variable of the "
                          f"result: set it as a key of its section (e.g. grid.<section>.{key})")
    return dims


def _variable_names(policies: Sequence[Any]) -> frozenset[str]:
    """The variables the families of ``policies`` (grid values of ``policy``) write; names that are
    no registered policy add none (their error comes where the points are made)."""
    names: set[str] = set()
    for policy in policies:
        try:
            family = family_of(str(policy))
        except KeyError:
            continue
        names.update(variable.name for variable in family.variables)
    return frozenset(names)


def build_axes(cfg: DictConfig, sampled: Sequence[str] = ()) -> tuple[Axis, ...]:
    """The sweep's axes: the core three first, then the other grid keys in the order given.

    ``sampled`` are the keys a sample design sets: one on the grid too is an
    error, and a sampled ``load`` is no axis.
    """
    entries = _grid_entries(OmegaConf.to_container(cfg.grid, resolve=True))
    both = [k for k in sampled if k in entries]
    if both:
        raise ConfigError(f"design.params.{both[0]} is also a grid axis (grid.{both[0]}): "
                          f"give each key either a range or grid values")
    if any(k == "design" or k.startswith("design.") for k in entries):
        raise ConfigError("design cannot be a grid axis: choose one design per sweep")
    choices = cfg.hydra.runtime.choices
    defaults = {"policy": [choices.policy], "workload": [choices.workload], "load": [cfg.load]}
    keys = [*CORE_AXES, *(k for k in entries if k not in CORE_AXES)]
    keys = [k for k in keys if k not in sampled]
    values = {k: entries.get(k, defaults.get(k)) for k in keys}
    if "load" in values:
        values["load"] = [check_load(v) for v in values["load"]]
    for key in keys:
        if len(set(map(repr, values[key]))) != len(values[key]):
            raise ConfigError(f"grid.{key} lists a value twice: {values[key]}")
    dims = _dim_names(keys, _variable_names(values.get("policy", ())))
    for dim, key in zip(dims, keys, strict=True):
        if dim in RESERVED_DIMS:
            raise ConfigError(f"grid.{key} would make a dimension named {dim!r}, which sweep reserves")
    return tuple(Axis(d, k, tuple(values[k])) for d, k in zip(dims, keys, strict=True))


def axes_of(cfg: DictConfig) -> tuple[Axis, ...]:
    """The grid axes of a composed config as :func:`expand` makes them, less a design's ``sample``
    axis, without composing any group option or checking any point (cheap: no Hydra compose)."""
    design = cfg.get("design")
    options = OmegaConf.to_container(design, resolve=True) if design is not None else None
    _, _, ranges = _sample_design(options or {"name": "grid"})
    return build_axes(cfg, tuple(ranges))


def _set_key(config: dict[str, Any], key: str, value: Any) -> None:
    """Set a dotted key, copying the dicts on its path (points share everything else)."""
    *parents, leaf = key.split(".")
    node = config
    for part in parents:
        node[part] = dict(node[part])
        node = node[part]
    node[leaf] = value


def _has_key(config: Mapping[str, Any], key: str) -> bool:
    node: Any = config
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _group_keys(axes: Sequence[Axis]) -> list[str]:
    """The axes that list options of a config group (always ``policy`` and ``workload``)."""
    groups = {g.replace("/", ".") for g in config_groups()}
    return [a.key for a in axes if a.key in groups]


def _group_sections(cfg: DictConfig, overrides: Sequence[str], key: str,
                    names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each listed option of the group at ``key``, composed once (the selected one is already in cfg).

    The other options are composed with the main config's workload and system
    choices pinned (their family defaults are not looked up again).
    """
    group = key.replace(".", "/")
    choices = cfg.hydra.runtime.choices
    selected = choices.get(group)
    pinned = [f"{g}={choices[g]}" for g in FAMILY_GROUPS if g != group and choices.get(g) is not None]
    sections = {name: (section(cfg, group) if name == selected
                       else compose_group_option(overrides, group, name, pinned)) for name in names}
    if key in CORE_AXES:
        for name, values in sections.items():
            values.setdefault("name", name)
    return sections


def _owner(key: str, sections: Mapping[str, Any]) -> str | None:
    """The group axis whose section holds ``key`` (the longest prefix), if any."""
    owners = [g for g in sections if key.startswith(g + ".")]
    return max(owners, key=len) if owners else None


def _current_values(key: str, base: Mapping[str, Any],
                    sections: Mapping[str, Mapping[str, dict[str, Any]]]) -> list[Any]:
    """The values ``key`` has before the sweep sets it: in ``base``, or in each option of the
    group axis that holds it (none where no option has it)."""
    owner = _owner(key, sections)
    configs = [_nest(owner, s) for s in sections[owner].values()] if owner is not None else [base]
    values = []
    for config in configs:
        if _has_key(config, key):
            node: Any = config
            for part in key.split("."):
                node = node[part]
            values.append(node)
    return values


def _unknown_key(key: str, base: Mapping[str, Any], what: str) -> ConfigError:
    known = ", ".join(sorted(k for k in base if k not in ("hydra", "grid", "design")))
    return ConfigError(f"{what} unknown key {key!r}; top-level keys: {known}")


def _check_axis_keys(axes: Sequence[Axis], base: Mapping[str, Any],
                     sections: Mapping[str, Mapping[str, dict[str, Any]]]) -> None:
    for axis in axes:
        if axis.key in CORE_AXES or axis.key in sections or axis.dim == SAMPLE_DIM:
            continue
        if not _current_values(axis.key, base, sections):
            raise _unknown_key(axis.key, base, "grid over")


def _sample_design(section: Mapping[str, Any]) -> tuple[str, Any, dict[str, tuple[float, float]]]:
    try:
        return read_options(section)
    except (DesignError, ValueError) as error:
        raise ConfigError(str(error)) from None


def _draw_design(cfg: DictConfig, axes: Sequence[Axis], base: Mapping[str, Any],
                 sections: Mapping[str, Mapping[str, dict[str, Any]]], name: str, options: Any,
                 ranges: Mapping[str, tuple[float, float]]) -> Design:
    """Check the design's keys against the config (known, numeric), name their coordinates, draw."""
    integer = []
    for key in ranges:
        values = _current_values(key, base, sections) if key != "load" else [cfg.load]
        if not values:
            raise _unknown_key(key, base, f"design.params: design={name} over")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise ConfigError(f"design.params.{key}: design={name} varies numbers, and {key} is "
                              f"{values[0]!r}; list its values on the grid instead (grid.{key}=[...])")
        integer.append(all(isinstance(v, int) for v in values))
    if "load" in ranges:
        for bound in ranges["load"]:
            check_load(bound)
    taken = {a.dim for a in axes}
    dims = _dim_names(list(ranges))
    for key, dim in zip(ranges, dims, strict=True):
        if dim in taken or dim in (*RESERVED_DIMS, "parameter"):
            raise ConfigError(f"design.params.{key} would make a coordinate named {dim!r}, which the "
                              f"sweep already has")
    return draw(name, options, ranges, dims, integer, int(cfg.seed))


def _nest(key: str, value: Any) -> dict[str, Any]:
    """``{"a": {"b": value}}`` for ``a.b``."""
    for part in reversed(key.split(".")):
        value = {part: value}
    return value


def expand(cfg: DictConfig, overrides: Sequence[str] = ()) -> Grid:
    """The grid of a composed config: axes, then one validated Point per combination.

    With a sample design the last axis is ``sample``: its value ``s`` sets every
    design key to row ``s`` of the design. A config that leaves ``replications`` null
    gets its number here, in ``cfg`` (:func:`settle_replications`).
    """
    base = plain(cfg)
    base.pop("grid", None)
    name, options, ranges = _sample_design(base.pop("design", None) or {"name": "grid"})
    axes = build_axes(cfg, tuple(ranges))
    by_key = {a.key: a for a in axes}
    sections = {k: _group_sections(cfg, overrides, k, by_key[k].values) for k in _group_keys(axes)}
    _check_axis_keys(axes, base, sections)
    design = _draw_design(cfg, axes, base, sections, name, options, ranges) if ranges else None
    if design is not None:
        axes = (*axes, Axis(SAMPLE_DIM, SAMPLE_DIM, tuple(range(len(design)))))
    _check_size(axes, int(base["replications"] or DEFAULT_REPLICATIONS))
    # group options first (outer groups before nested ones), then the keys set inside them
    order = tuple(sorted(range(len(axes)),
                         key=lambda i: (axes[i].key not in sections, axes[i].key.count("."))))
    owned = frozenset(i for i, a in enumerate(axes) if a.key not in sections and _owner(a.key, sections))
    grid = Grid(axes, base, sections, order, StopRule(**base["stop"]), owned, design=design,
                rows=tuple(design.rows()) if design is not None else ())
    ignored, first_ignored, deterministic, analytic = 0, None, 0, 0
    for point, loads in _checked_combinations(grid):
        family = family_of(point.policy["name"])
        if not _applies_load(point, family):
            ignored += loads
            first_ignored = first_ignored or point
        deterministic += loads * _is_deterministic(point, family)
        analytic += loads * (point.model == "analytic")
    load_axis = next((a for a in axes if a.key == "load"), None)
    if first_ignored is not None and (load_axis is None or len(load_axis.values) > 1):
        point = first_ignored
        option = "grid.load" if load_axis is not None else "design.params.load"
        raise ConfigError(f"{option}: the load is not applied to policy={point.policy['name']} on "
                          f"workload={point.workload.get('name')} (a trace replayed as it is), so its "
                          f"values would label identical runs; set workload.rescale_load=true to scale "
                          f"the trace to each load, or leave load out of the {option.split('.')[0]}")
    grid = dataclasses.replace(grid, load_applied=ignored < grid.size,
                               deterministic=deterministic == grid.size)
    notes = settle_replications(cfg, grid, _why_deterministic(analytic, grid.size))
    if not grid.load_applied and any(_key(o) in ("load", "grid.load") and _chooses(o) for o in overrides):
        notes.append(f"load={load_axis.values[0]} is not applied: {_what(grid)} replays its trace as it is "
                     "(its own load is the variable offered_load; workload.rescale_load=true scales the "
                     "trace to a load)")
    simulation_only = [o for o in overrides if _chooses(o) and _key(o).startswith(("stop.", "record_jobs"))
                       and o != "record_jobs=false"]
    if analytic == grid.size and simulation_only:
        notes.append(f"{' '.join(simulation_only)}: no effect with model=analytic, which computes each "
                     "point's closed form (no job is simulated)")
    return dataclasses.replace(grid, notes=tuple(notes))


#: Replications of a point when the config leaves ``replications`` null (and some point draws at random).
DEFAULT_REPLICATIONS = 2


def settle_replications(cfg: DictConfig, grid: Grid, why: str = "a trace replayed as it is") -> list[str]:
    """Set ``cfg.replications`` where it is null: :data:`DEFAULT_REPLICATIONS`, or 1 when no point of
    ``grid`` draws a random number (:attr:`Grid.deterministic`: a closed form, or a trace replayed as
    it is, ``why``; its replications would all be the same run). Returns the lines to say: the default
    reduced, or a number of replications asked of such a sweep (honoured: identical runs, intervals of
    0)."""
    asked = cfg.replications
    if asked is None:
        cfg.replications = 1 if grid.deterministic else DEFAULT_REPLICATIONS
        if grid.deterministic:
            return [f"1 replication (not {DEFAULT_REPLICATIONS}): {_what(grid)} draws no random number "
                    f"({why}), so every replication would be the same run"]
    elif grid.deterministic and int(asked) > 1:
        return [f"replications={asked} of {_what(grid)}, which draws no random number ({why}): {asked} "
                "identical runs, whose intervals are 0 by construction, not a measure of noise"]
    return []


def _why_deterministic(analytic: int, points: int) -> str:
    """Why a grid's points draw no random number, of which ``analytic`` of ``points`` are closed forms."""
    if analytic == points:
        return "model=analytic: a closed form"
    return "closed forms, and traces replayed as they are" if analytic else "a trace replayed as it is"


def _what(grid: Grid) -> str:
    """``policy=easy on workload=kth`` (``policy=easy,conservative``, up to three names an axis)."""
    def names(key: str) -> str:
        values = next(a.values for a in grid.axes if a.key == key)
        return ",".join(map(str, values[:3])) + (",..." if len(values) > 3 else "")
    return f"policy={names('policy')} on workload={names('workload')}"


#: The largest sweep one output holds: its points, and its runs (points x replications), each a record
#: in memory and a slot of every variable.
MAX_POINTS, MAX_RUNS = 10**6, 10**8


def _check_size(axes: Sequence[Axis], replications: int) -> None:
    """A sweep larger than :data:`MAX_POINTS` points or :data:`MAX_RUNS` runs is refused with its size,
    before any point is made."""
    points = math.prod(len(a.values) for a in axes)
    if points > MAX_POINTS or points * replications > MAX_RUNS:
        raise ConfigError(f"the sweep has {points:,} point{'s' if points > 1 else ''} x {replications:,} "
                          f"replication{'s' if replications > 1 else ''} = "
                          f"{points * replications:,} runs; one output holds at most {MAX_POINTS:,} points "
                          f"and {MAX_RUNS:,} runs: split it into several sweeps")


def _make_point(grid: Grid, position: Sequence[int]) -> Point:
    """The Point at ``position``: the base config with each axis's value set (dicts on the
    path copied, everything else shared between points). A key inside a group option is set
    only where that option has it. The ``sample`` axis sets every design key to its row."""
    config = dict(grid.base)
    for i in grid.order:
        axis, value = grid.axes[i], grid.axes[i].values[position[i]]
        if axis.dim == SAMPLE_DIM:
            for key, setting in zip(grid.design.keys, grid.rows[value], strict=True):
                if _has_key(config, key) or _owner(key, grid.sections) is None:
                    _set_key(config, key, setting)
        elif axis.key in grid.sections:
            _set_key(config, axis.key, grid.sections[axis.key][value])
        elif i not in grid.owned or _has_key(config, axis.key):
            _set_key(config, axis.key, value)
    stop = StopRule(**config["stop"]) if config["stop"] is not grid.base["stop"] else grid.stop
    return Point(policy=config["policy"], workload=config["workload"], system=config["system"],
                 load=config["load"], stop=stop, record_jobs=config["record_jobs"],
                 model=config["model"])


def _applies_load(point: Point, family: Family) -> bool:
    return family.load_applied is None or family.load_applied(point)


def _is_deterministic(point: Point, family: Family) -> bool:
    """Whether a run of ``point`` draws no random number: a closed form (``model=analytic``), or what its
    family says (``Family.deterministic``: e.g. a trace replayed as it is)."""
    return point.model == "analytic" or (family.deterministic is not None and family.deterministic(point))


def _check_system_fits(point: Point, family: Family) -> None:
    """The system's keys must be those of one of the family's machines (``Family.systems``):
    a rigid policy on a distributed server, or a dispatch policy on an SP2, is one line
    naming the mismatch, not a missing key deep in the family's checks."""
    if not family.systems:
        return
    keys = set(point.system) - {"name"}
    kinds = {kind: {f.name for f in dataclasses.fields(cls)} for kind, cls in family.systems.items()}
    if any(keys <= fields for fields in kinds.values()):
        return
    wanted = " or ".join(", ".join(sorted(fields)) for fields in kinds.values())
    raise ValueError(f"the system (with {', '.join(sorted(keys)) or 'no keys'}) is not a machine of the "
                     f"{family.name} family of policy {point.policy['name']!r}, whose machines have "
                     f"{wanted}: choose e.g. system={family.default_system}")


def _checked_combinations(grid: Grid) -> Iterator[tuple[Point, int]]:
    """Every combination of the options other than ``load``, checked once, as its point at the first
    load with the number of loads it stands for; and every load checked once (by the Point). A
    family's checks do not read the load (:class:`~sweep.families.Family`), so a grid of 10⁴ loads
    costs 10⁴ load checks, not 10⁴ family checks per combination (issue 30)."""
    sizes = [len(a.values) for a in grid.axes]
    loads = next((i for i, a in enumerate(grid.axes) if a.key == "load"), None)
    if loads is None:
        yield from ((_checked_point(grid, at), 1) for at in itertools.product(*map(range, sizes)))
        return
    others = [range(n) if i != loads else range(1) for i, n in enumerate(sizes)]
    first = None
    for at in itertools.product(*others):
        first = first or at
        yield _checked_point(grid, at), len(grid.axes[loads].values)
    for value in range(1, len(grid.axes[loads].values)):
        _checked_point(grid, (*first[:loads], value, *first[loads + 1:]), family_checks=False)


def _checked_point(grid: Grid, position: Sequence[int], family_checks: bool = True) -> Point:
    """The Point at ``position``, checked by its family: a problem is one line naming the point."""
    try:
        point = _make_point(grid, position)
        if not family_checks:
            return point
        family = family_of(point.policy["name"])
        _check_system_fits(point, family)
        if point.model == "analytic" and family.analytic is None:
            raise ValueError(f"model=analytic: the {family.name} family has no closed-form model; "
                             f"use model=simulation")
        family.check_stop(point.stop)
        family.validate(point)
    except (KeyError, ValueError, TypeError) as error:
        message = error.args[0] if error.args else str(error)
        label = ", ".join(f"{a.dim}={a.values[i]}" for a, i in zip(grid.axes, position, strict=True))
        raise ConfigError(f"{message} (at {label})") from None
    return point
