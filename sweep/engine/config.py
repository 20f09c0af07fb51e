"""Compose and validate a sweep's configuration (DESIGN §8).

Hydra's compose API builds the config from ``conf/`` and the user's overrides;
this module then checks every option sweep itself owns and turns each problem
into one :class:`ConfigError` line that names the option and the allowed values.
Policy- and workload-specific checks belong to the families and workloads
(``Family.validate``); the grid module calls them point by point.

Why the compose API and not ``@hydra.main``: errors must be one line and exit
non-zero with no traceback, and the grid is expanded in-process (composing each
config-group option once, DESIGN §3), which Hydra's per-job launcher cannot do
cheaply.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf, open_dict

from sweep.families import StopRule

#: Config groups whose options a grid axis may list by name.
GROUPS = ("policy", "workload", "system", "experiment")
#: Top-level keys sweep itself owns (everything else comes from the groups).
ENGINE_BACKENDS = ("ray", "serial")
MODELS = ("simulation", "analytic")


class ConfigError(ValueError):
    """A bad option: the message is one line naming the option and what is allowed."""


def conf_dir() -> Path:
    """The folder holding ``config.yaml`` (``SWEEP_CONF_DIR`` overrides the repository's)."""
    override = os.environ.get("SWEEP_CONF_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[2] / "conf"


def group_options(group: str) -> list[str]:
    """The option names of a config group: the stems of ``conf/<group>/*.yaml``."""
    return sorted(p.stem for p in (conf_dir() / group).glob("*.yaml"))


def _check_group_choice(group: str, name: Any) -> None:
    options = group_options(group)
    if not isinstance(name, str) or name not in options:
        raise ConfigError(f"unknown {group} {name!r}; allowed: {', '.join(options)}")


_OVERRIDE = re.compile(r"^(?P<prefix>[+~]{0,2})(?P<key>[A-Za-z_][\w.]*)=(?P<value>.*)$")


def split_overrides(overrides: Sequence[str]) -> tuple[list[str], dict[str, list[Any]]]:
    """Separate grid axes from ordinary overrides; check group choices on the way.

    A grid axis is ``grid.<key>=[v1,v2]`` (or any Hydra sweep such as
    ``range(0.1,1,0.1)`` or ``choice(a,b)``) and is kept out of Hydra's
    composition: ``<key>`` is a dotted config key, and both ``grid.workload=[a,b]``
    and ``grid.workload.scv=[1,4]`` may be given, which one config tree could not
    hold. A group choice (``policy=x``) is checked here, so that an unknown name
    gives one line listing the allowed names.
    """
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    ordinary, grid = [], {}
    for override in overrides:
        match = _OVERRIDE.match(override)
        if match is None:
            raise ConfigError(f"cannot read override {override!r}; expected key=value")
        key, value = match["key"], match["value"]
        if key in GROUPS and value not in ("null", ""):
            _check_group_choice(key, value)
        if not key.startswith("grid."):
            ordinary.append(override)
            continue
        values = _plain_list(value)
        if values is None:
            try:
                parsed = parser.parse_override(override)
            except HydraException as error:
                raise ConfigError(f"cannot read {override!r}: {_first_line(error)}") from None
            values = list(parsed.sweep_iterator()) if parsed.is_sweep_override() else parsed.value()
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{key} must be a non-empty list like [v1,v2], got {value!r}")
        grid[key.removeprefix("grid.")] = values
    return ordinary, grid


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


def flatten_grid(grid: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested ``grid`` section as {dotted key: values}; lists are leaves."""
    flat: dict[str, Any] = {}
    for name, value in grid.items():
        if isinstance(value, Mapping):
            flat.update(flatten_grid(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat


def compose(overrides: Sequence[str]) -> DictConfig:
    """Compose ``conf/config.yaml`` with ``overrides``; Hydra errors become ConfigError.

    The result's ``grid`` is flat: {dotted key: list of values}, the experiment's
    axes first, then the command line's (which replace an experiment's axis of
    the same key).
    """
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    ordinary, grid = split_overrides(overrides)
    try:
        with initialize_config_dir(config_dir=str(conf_dir()), version_base=None):
            cfg = hydra_compose("config", overrides=ordinary, return_hydra_config=True)
    except (HydraException, OmegaConfBaseException) as error:
        raise ConfigError(_first_line(error)) from None
    flat = flatten_grid(OmegaConf.to_container(cfg.grid, resolve=True) or {})
    flat.update(grid)
    with open_dict(cfg):
        cfg.grid = flat
    return cfg


def compose_group_option(overrides: Sequence[str], group: str, name: str) -> dict[str, Any]:
    """One option of a config group, with the user's overrides applied, as a plain dict.

    Composed once per option (DESIGN §3): the user's other overrides and experiment
    still apply, the group choice is replaced by ``name``, grid axes are dropped.
    """
    _check_group_choice(group, name)
    ordinary, _ = split_overrides(overrides)
    kept = [o for o in ordinary if _OVERRIDE.match(o)["key"] != group]
    cfg = compose([*kept, f"{group}={name}"])
    return OmegaConf.to_container(cfg[group], resolve=True)


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    line = text[0] if text else type(error).__name__
    if "To append to your config use" in str(error):
        key = re.search(r"Could not override '([^']+)'", str(error))
        if key:
            return f"unknown option {key[1]!r} (no such key in the config; see conf/config.yaml)"
    return line


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConfigError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_settings(cfg: DictConfig) -> None:
    """Check the options sweep itself owns; raise ConfigError on the first bad one."""
    _require(_is_int(cfg.seed) and cfg.seed >= 0, f"seed must be an integer >= 0, got {cfg.seed!r}")
    _require(_is_int(cfg.replications) and cfg.replications >= 1,
             f"replications must be an integer >= 1, got {cfg.replications!r}")
    for key in ("jobs", "warmup", "max_in_system"):
        value = cfg.stop[key]
        _require(_is_int(value) and value >= (1 if key != "warmup" else 0),
                 f"stop.{key} must be an integer >= {1 if key != 'warmup' else 0}, got {value!r}")
    _require(cfg.stop.max_jobs is None or (_is_int(cfg.stop.max_jobs) and cfg.stop.max_jobs >= 1),
             f"stop.max_jobs must be an integer >= 1 or null, got {cfg.stop.max_jobs!r}")
    try:  # the stop rule checks its own ci_target and control_variate
        StopRule(**OmegaConf.to_container(cfg.stop, resolve=True))
    except ValueError as error:
        raise ConfigError(str(error)) from None
    _require(cfg.model in MODELS, f"model must be one of {', '.join(MODELS)}, got {cfg.model!r}")
    _require(isinstance(cfg.record_jobs, bool), f"record_jobs must be true or false, got {cfg.record_jobs!r}")
    engine = cfg.engine
    _require(engine.backend in ENGINE_BACKENDS,
             f"engine.backend must be one of {', '.join(ENGINE_BACKENDS)}, got {engine.backend!r}")
    _require(engine.workers is None or (_is_int(engine.workers) and engine.workers >= 1),
             f"engine.workers must be an integer >= 1 or null, got {engine.workers!r}")
    _require(engine.batch_size is None or (_is_int(engine.batch_size) and engine.batch_size >= 1),
             f"engine.batch_size must be an integer >= 1 or null, got {engine.batch_size!r}")
    _require(_is_int(engine.in_flight) and engine.in_flight >= 1,
             f"engine.in_flight must be an integer >= 1, got {engine.in_flight!r}")
    _require(isinstance(engine.address, str) or engine.address is None,
             f"engine.address must be empty, 'auto' or a Ray address, got {engine.address!r}")
    _require(cfg.output is None or (isinstance(cfg.output, str) and cfg.output.endswith(".nc")),
             f"output must be a path ending in .nc, got {cfg.output!r}")
    _require(isinstance(cfg.grid, DictConfig), f"grid must be a mapping of axis -> values, got {cfg.grid!r}")


def check_load(value: Any) -> float:
    """An offered load: a number > 0 (>= 1 is allowed; its points come back saturated)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"load must be a number > 0, got {value!r}")
    if not value > 0:
        raise ConfigError(f"load must be > 0, got {value!r}")
    return round(float(value), 10)


def plain(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain Python values, without Hydra's own ``hydra`` section."""
    return {key: OmegaConf.to_container(cfg[key], resolve=True) if OmegaConf.is_config(cfg[key])
            else cfg[key] for key in cfg if key != "hydra"}
