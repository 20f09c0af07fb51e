"""Compose and validate a sweep's configuration (docs/design.md §8).

Hydra's compose API builds the config from ``conf/`` and the user's overrides;
every option file there extends a schema generated from the code
(:mod:`sweep.config.schema`), so a wrong type or an unknown key is caught while
composing. This module then checks the ranges of the options sweep itself
owns and turns each problem into one :class:`ConfigError` line that names the
option and the allowed values. Policy- and workload-specific checks belong to
the families and workloads (``Family.validate``); the grid module calls them
point by point.

Three rules on top of Hydra's: a policy named alone runs on its family's
default workload and system (:func:`family_defaults`); every config group is
a grid axis over its options (``grid.system=[sp2_100,sp2_128]``); a
:func:`selectors` key chooses a nested group's option
(``workload.speedup.model=linear`` is ``workload/speedup=linear``).

Why the compose API and not ``@hydra.main``: errors must be one line and exit
non-zero with no traceback, and the grid is expanded in-process (composing each
config-group option once, docs/design.md §3), which Hydra's per-job launcher cannot do
cheaply.
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf, open_dict

from sweep.config import schema
from sweep.config.design import flatten_keys
from sweep.config.files import (
    ConfigError,
    conf_dir,
    config_dirs,
    config_groups,
    group_options,
    search_path_override,
    split_search_path,
    use_search_path,
)
from sweep.families import StopRule, all_policies, family_of

#: Top-level config groups whose choice, when not made, comes from the policy's family.
FAMILY_GROUPS = ("workload", "system")
#: The map of a sample design's parameters: ``design.params.<config key>=[low,high]`` adds an entry.
DESIGN_PARAMS = "design.params"


def _check_group_choice(group: str, name: Any) -> None:
    options = group_options(group)
    if not isinstance(name, str) or name not in options:
        raise ConfigError(f"unknown {group} {name!r}; allowed: {', '.join(options)}")


_OVERRIDE = re.compile(r"^(?P<prefix>[+~]{0,2})(?P<key>[A-Za-z_][\w./]*)(?:=(?P<value>.*))?$")


def _key(override: str) -> str:
    match = _OVERRIDE.match(override)
    return match["key"] if match else ""


def _chooses(override: str) -> bool:
    """Whether an ordinary override sets its key (``~key`` deletes, ``key=null`` unsets)."""
    match = _OVERRIDE.match(override)
    return bool(match) and match["prefix"] != "~" and match["value"] not in (None, "null", "")


def multirun_axes(overrides: Sequence[str], multirun: bool) -> list[str]:
    """Hydra's sweep overrides (``key=a,b``, ``key=range(1,4)``, ``key=choice(a,b)``) as grid axes.

    With ``-m`` (``multirun``) each becomes ``grid.key=...``: one axis of one sweep, one
    Dataset, rather than one job per value as in Hydra's own launcher. Without it, a
    sweep override is an error that says so.
    """
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    converted = []
    for override in overrides:
        match = _OVERRIDE.match(override)
        value = match["value"] if match else None
        if (match is None or value is None or match["key"].startswith(("grid.", "hydra."))
                or not re.search(r"[,(]", value) or value.startswith("[")):
            converted.append(override)
            continue
        try:
            parsed = parser.parse_override(override.replace("/", "."))
        except HydraException as error:
            raise ConfigError(f"cannot read {override!r}: {_first_line(error)}") from None
        if not parsed.is_sweep_override():
            converted.append(override)
        elif multirun:
            converted.append(f"grid.{match['key']}={value}")
        else:
            raise ConfigError(f"{override!r} is a sweep: add -m (multirun: one grid axis of one sweep) "
                              f"or write grid.{match['key']}=[...]")
    return converted


@functools.cache
def selectors() -> dict[str, str]:
    """Keys whose value names an option of a nested config group, each option's YAML setting the
    key to its own name: ``workload.speedup.model=linear`` is read as ``workload/speedup=linear``,
    which replaces the whole ``speedup`` section instead of changing one key of it. The sections
    are the families' (``Family.workload_models``)."""
    return {f"workload.{section}.model": f"workload/{section}" for section in schema.workload_models()}


def grid_key(key: str) -> str:
    """A grid axis's dotted key: ``workload/speedup``, ``workload.speedup.model``: ``workload.speedup``."""
    key = key.replace("/", ".")
    return selectors().get(key, key).replace("/", ".")


def split_overrides(overrides: Sequence[str]) -> tuple[list[str], dict[str, list[Any]]]:
    """Separate grid axes from ordinary overrides; check group choices on the way.

    A grid axis is ``grid.<key>=[v1,v2]`` (or any Hydra sweep such as
    ``range(0.1,1,0.1)`` or ``choice(a,b)``) and is kept out of Hydra's
    composition: ``<key>`` is a dotted config key or a config group
    (``grid.system=[sp2_100,sp2_128]``, ``grid.workload/speedup=[eq5,linear]``),
    and both ``grid.workload=[a,b]`` and ``grid.workload.scv=[1,4]`` may be
    given, which one config tree could not hold. A group choice (``policy=x``,
    ``workload/speedup=eq2``, or a :func:`selectors` key such as
    ``workload.speedup.model=eq2``, rewritten to the group choice) is checked
    here, so that an unknown name gives one line listing the allowed names.
    """
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    groups = config_groups()
    ordinary, grid = [], {}
    for override in overrides:
        match = _OVERRIDE.match(override)
        if match is None:
            raise ConfigError(f"cannot read override {override!r}; expected key=value")
        key, value = match["key"], match["value"]
        if value is None:
            if match["prefix"] != "~":
                raise ConfigError(f"cannot read override {override!r}; expected key=value or ~key")
            ordinary.append(f"~{key}")
            continue
        if not key.startswith("grid."):
            key = selectors().get(key, key)
            if key.startswith(f"{DESIGN_PARAMS}.") and not match["prefix"]:
                ordinary.append(f"++{key}={value}")  # a parameter of the design: a new key of its map
                continue
            if key in groups and value not in ("null", "") and match["prefix"] != "~":
                _check_group_choice(key, value)
            ordinary.append(f"{match['prefix']}{key}={value}")
            continue
        axis = grid_key(key.removeprefix("grid."))
        if axis == "experiment":
            raise ConfigError("experiment cannot be a grid axis: run each preset on its own")
        values = _plain_list(value)
        if values is None:
            try:
                parsed = parser.parse_override(override.replace("/", "."))
            except HydraException as error:
                raise ConfigError(f"cannot read {override!r}: {_first_line(error)}") from None
            values = (list(itertools.islice(parsed.sweep_iterator(), MAX_AXIS_VALUES + 1))
                      if parsed.is_sweep_override() else parsed.value())
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{key} must be a non-empty list like [v1,v2], got {value!r}")
        if len(values) > MAX_AXIS_VALUES:
            raise ConfigError(f"{key}={value} has more than {MAX_AXIS_VALUES:,} values, the most one axis "
                              "may have")
        grid[axis] = values
    return ordinary, grid


#: The most values one grid axis may have (composing 10,000 takes seconds; a million, hours).
MAX_AXIS_VALUES = 10_000

_PLAIN_ITEM = re.compile(r"^[\w.+-]+$")


def _plain_item(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "null": None}.get(text.lower(), text)


def _plain_list(value: str) -> list[Any] | None:
    """``[a,1,0.5]`` read directly (Hydra's grammar takes ~1 ms an item); None if not that simple."""
    if not (value.startswith("[") and value.endswith("]")):
        return None
    items = [item.strip() for item in value[1:-1].split(",")]
    if not all(_PLAIN_ITEM.match(item) for item in items):
        return None
    return [_plain_item(item) for item in items]


def _hydra_compose(overrides: Sequence[str]) -> DictConfig:
    """Hydra's compose of ``config.yaml`` (schemas registered); its errors become ConfigError."""
    import yaml
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    schema.register(conf_dir())
    try:
        with initialize_config_dir(config_dir=str(conf_dir()), version_base=None):
            cfg = hydra_compose("config", overrides=[*overrides, *search_path_override()],
                                return_hydra_config=True)
    except yaml.MarkedYAMLError as error:  # a user's config file Hydra's YAML loader refuses
        mark = error.problem_mark
        where = f"{mark.name}:{mark.line + 1}: " if mark is not None else ""
        raise ConfigError(f"{where}{error.problem or _first_line(error)}") from None
    except (HydraException, OmegaConfBaseException, ValueError, yaml.YAMLError) as error:
        raise ConfigError(schema.explain(error) or _first_line(error)) from None
    deleted = [key for key in schema.ROOT_KEYS if key not in cfg]
    if deleted:
        raise ConfigError(f"~{deleted[0]}: sweep needs {deleted[0]}; "
                          f"set it (key=value) instead of deleting it")
    if cfg.get("policy") is None:
        raise ConfigError("no policy chosen: choose one, e.g. policy=random (sweep --help lists them)")
    return cfg


def compose(overrides: Sequence[str]) -> DictConfig:
    """Compose ``conf/config.yaml`` with ``overrides``; Hydra errors become ConfigError.

    A workload or system that neither the command line nor an experiment
    chooses is the policy's family's (``Family.default_workload``,
    ``default_system``): see :func:`_compose_with_family_defaults`. A process keeps
    the configs it composed, so composing the same overrides again is a copy.

    Parameters
    ----------
    overrides
        Hydra overrides, as on the command line (``"policy=lwl"``, ``"grid.load=[0.5,0.8]"``).

    Returns
    -------
    omegaconf.DictConfig
        The composed config (a copy of its own), whose ``grid`` is flat: {dotted key: list of
        values}, the experiment's axes first, then the command line's (which replace an
        experiment's axis of the same key).

    Raises
    ------
    sweep.errors.ConfigError
        Any error of Hydra or of the schema, as one line.
    """
    searchpath, rest = split_search_path(overrides)
    use_search_path(searchpath)
    rest, output = _plain_output(rest)
    key = (tuple(o for o in overrides if output is None or o != f"output={output}"), _config_files_stamp())
    cfg = _COMPOSED.pop(key, None)
    if cfg is None:
        ordinary, grid = split_overrides(rest)
        cfg = _compose_with_family_defaults(ordinary, grid)
        flat = _config_grid(cfg)
        flat.update(grid)
        with open_dict(cfg):
            cfg.grid = flat
    _COMPOSED[key] = cfg
    while len(_COMPOSED) > COMPOSED_KEPT:
        _COMPOSED.pop(next(iter(_COMPOSED)))
    composed = copy.deepcopy(cfg)
    if output is not None:
        composed.output = output
    return composed


#: An ``output=`` value that is a plain path (no interpolation, quoting or list): set after composing.
_PLAIN_PATH = re.compile(r"^[\w./~+-]+$")


def _plain_output(overrides: Sequence[str]) -> tuple[list[str], str | None]:
    """``overrides`` without a plain ``output=PATH``, and that path (None: none, or one Hydra must
    parse). The output path changes no composed value but ``output``, so a process composes a config
    once for every output it is run into: ``sweep.run`` without ``output=`` runs in a new temporary
    folder each call, and a notebook's loop of such calls composed every time (about 100 ms each)."""
    plain = [o for o in overrides if o.startswith("output=") and _PLAIN_PATH.match(o.removeprefix("output="))]
    if len(plain) != 1:
        return list(overrides), None
    return [o for o in overrides if o is not plain[0]], plain[0].removeprefix("output=")


#: How many composed configs a process keeps (:func:`compose`), the most recently used.
COMPOSED_KEPT = 64
#: Composed configs by (overrides, the config files' stamp), least recently used first: a loop of
#: ``sweep.run`` calls on one config composes it once (Hydra's compose takes 0.1-0.3 s).
_COMPOSED: dict[tuple, DictConfig] = {}


def _config_files_stamp() -> tuple[tuple[str, int, int], ...]:
    """Path, modification time and size of every YAML file of every config folder: a file edited,
    added or removed makes a new stamp, and :func:`compose` composes again."""
    stamp = []
    for root in config_dirs():
        for path in sorted(root.rglob("*.yaml")):
            st = path.stat()
            stamp.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(stamp)


def _config_grid(cfg: DictConfig) -> dict[str, Any]:
    """The ``grid`` section of a composed config (an experiment's axes), flat, keys as :func:`grid_key`."""
    grid = cfg.get("grid")  # None after ``~grid``
    flat = flatten_keys(OmegaConf.to_container(grid, resolve=True) if grid is not None else {})
    return {grid_key(key): values for key, values in flat.items()}


def _compose_with_family_defaults(ordinary: list[str], grid: Mapping[str, Any]) -> DictConfig:
    """Compose, adding ``workload=`` and ``system=`` defaults for the groups nobody chose.

    Nobody: not the command line (a choice, or a grid axis: then its first
    option is the main config's), not the experiment.
    Without an experiment that is known from the command line; with one, the
    config is composed first as given (an experiment usually chooses both, and
    that compose is the answer), else from its group choices alone (the
    command line may set keys of the workload it does not choose). The defaults
    are those of the family of the policies: ``grid.policy`` (the command
    line's, else the experiment's), else ``policy`` (:func:`family_defaults`).
    """
    chosen = {_key(o) for o in ordinary if _chooses(o)}
    for group in FAMILY_GROUPS:  # a swept group: its first option (so that its keys can be set)
        if group in grid and group not in chosen:
            _check_group_choice(group, grid[group][0])
            ordinary, chosen = [*ordinary, f"{group}={grid[group][0]}"], chosen | {group}
    missing = [g for g in FAMILY_GROUPS if g not in chosen]
    if not missing:
        return _hydra_compose(ordinary)
    options = grid.get("policy") or [o.split("=", 1)[1] for o in ordinary
                                     if _key(o) == "policy" and _chooses(o)][-1:]
    if "experiment" not in chosen and options:
        return _hydra_compose([*ordinary, *family_defaults(options, missing)])
    try:
        first, error = _hydra_compose(ordinary), None
    except ConfigError as caught:  # e.g. workload.mean=2 with no workload chosen yet
        first, error = _hydra_compose([o for o in ordinary if _key(o) in ("policy", "experiment")]), caught
    experiment_grid = _config_grid(first)
    missing = [g for g in missing if first.hydra.runtime.choices.get(g) is None and g not in experiment_grid]
    if not missing:
        if error is not None:
            raise error
        return first
    options = grid.get("policy") or experiment_grid.get("policy") or [first.hydra.runtime.choices.policy]
    return _hydra_compose([*ordinary, *family_defaults(options, missing)])


def family_defaults(options: Sequence[Any], missing: Sequence[str]) -> list[str]:
    """``<group>=<default>`` for each ``missing`` group, from the family of the policy ``options``.

    Policies of several families have no common default: one-line ConfigError.
    """
    if not missing:
        return []
    families = {option: _family_of_option(option) for option in options}
    names = sorted({family.name for family in families.values()})
    if len(names) > 1:
        listed = ", ".join(f"{option} ({family.name})" for option, family in families.items())
        raise ConfigError(f"the policies {listed} are of different families, so no default "
                          f"{' or '.join(missing)} fits them all; choose one, e.g. "
                          + " ".join(f"{g}=<{g}>" for g in missing))
    family = next(iter(families.values()))
    return [f"{g}={getattr(family, 'default_' + g)}" for g in missing]


@functools.cache
def _registered_policy(option: str, folders: tuple[Path, ...]) -> str:
    """The registered policy an option of ``conf/policy`` configures (``eqs_periodic`` -> ``eqs``)."""
    if option in all_policies():
        return option
    return str(_hydra_compose([f"policy={option}"]).policy.name)


def _family_of_option(option: Any) -> Any:
    _check_group_choice("policy", option)
    name = _registered_policy(option, config_dirs())
    try:
        return family_of(name)
    except KeyError as error:
        raise ConfigError(error.args[0]) from None


def section(cfg: DictConfig, group: str, required: bool = True) -> Any:
    """The section of a config group (``workload/speedup`` -> ``cfg.workload.speedup``) as plain values.

    ``required``: an unset required field is an error (:func:`sweep.config.schema.to_plain`).
    """
    key = group.replace("/", ".")
    try:
        return schema.to_plain(OmegaConf.select(cfg, key), key, required)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def compose_group_option(overrides: Sequence[str], group: str, name: str,
                         pinned: Sequence[str] = (), required: bool = True) -> dict[str, Any]:
    """One option of a config group, with the user's overrides applied, as a plain dict.

    Composed once per option (docs/design.md §3): the user's other overrides and experiment
    still apply, the group choice is replaced by ``name``, grid axes are dropped.
    ``pinned`` are further group choices (the main config's, so that the
    family's defaults need not be looked up again). ``group`` may be dotted;
    ``required`` as in :func:`section`.
    """
    group = group.replace(".", "/")
    _check_group_choice(group, name)
    searchpath, rest = split_search_path(overrides)
    ordinary, _ = split_overrides(rest)
    kept = [o for o in ordinary if _key(o) != group]
    return section(compose([*searchpath, *kept, *pinned, f"{group}={name}"]), group, required)


def load_option(group: str, name: str) -> dict[str, Any]:
    """What ``conf/<group>/<name>.yaml`` composes to: its defaults list and schema applied.

    Unset fields are left out, required ones too (``swf.yaml``'s ``path``).
    """
    return compose_group_option([], group, name, required=False)


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    line = text[0] if text else type(error).__name__
    if "To append to your config use" in str(error):
        key = re.search(r"Could not override '([^']+)'", str(error))
        if key:
            return f"unknown option {key[1]!r} (no such key in the config; see conf/config.yaml)"
    group = re.search(r"Could not override '([^']+)'. No match in the defaults list", str(error))
    if group:
        parent = group[1].rsplit("/", 1)[0]
        return f"{group[1]} cannot be chosen here: the chosen {parent} has no {group[1]} option"
    return line


def validate_settings(cfg: DictConfig) -> None:
    """Check the options sweep itself owns; raise ConfigError on the first bad one.

    The types were checked while composing (the root schema); the ranges here,
    in the wording of :mod:`sweep.families._params` (:func:`schema.check_settings`).
    """
    settings = plain(cfg)
    try:
        schema.check_settings(settings)
        StopRule(**settings["stop"])  # the stop rule checks its own ci_target and control_variate
    except ValueError as error:
        raise ConfigError(str(error)) from None
    check_load(settings["load"])
    output = settings["output"]
    if output is not None and not output.endswith(".nc"):
        raise ConfigError(f"output must be a path ending in .nc, got {output!r}")
    engine = settings["engine"]
    if engine["backend"] == "serial" and engine.get("address"):
        raise ConfigError(f"engine.address={engine['address']} names a Ray cluster, but "
                          "engine.backend=serial runs every task in this process: drop one of them "
                          "(engine.backend=ray or auto to use the cluster)")


#: Loads are kept to 10 decimals (labels, grid values): a smaller load would be 0.
SMALLEST_LOAD = 1e-10


def check_load(value: Any) -> float:
    """An offered load: a finite number >= :data:`SMALLEST_LOAD` (>= 1 is allowed; its points come
    back saturated)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"load must be a number > 0, got {value!r}")
    if not SMALLEST_LOAD <= value < math.inf:
        raise ConfigError(f"load must be a finite number >= {SMALLEST_LOAD:g}, got {value!r}")
    return round(float(value), 10)


def plain(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain Python values, without Hydra's own ``hydra`` section.

    Unset schema fields are left out (:func:`sweep.config.schema.to_plain`).
    """
    try:
        return {key: schema.to_plain(cfg[key], key) for key in cfg if key != "hydra"}
    except ValueError as error:
        raise ConfigError(str(error)) from None
