"""Hydra schemas of the configuration, made from the code.

Hydra's *structured configs* pattern where a library owns the schema and YAML
extends it: every option file under ``conf/`` starts with a defaults list that
names its schema, e.g. ``conf/policy/eqs.yaml``::

    defaults:
      - /schema/policy/eqs@_here_
      - _self_

The schemas are dataclasses generated here from the code and stored in Hydra's
ConfigStore by :func:`register` before anything is composed (the families know
nothing of Hydra):

``schema/policy/<policy>``
    ``name`` (the registered name) and the fields of the policy's parameter
    dataclass (``Policy.params``), for every registered policy.
``schema/workload/<kind>``
    ``name``, ``kind`` and the kind's options: the dataclasses of
    :func:`sweep.workloads.config.distribution_kinds` (the shared distributions,
    an installed plugin's among them) and of every family's ``Family.workloads``.
    A plugin's kind without a YAML is also the ``workload`` option of its name.
``schema/workload/<section>/<model>``
    ``model`` and the options of each model of a nested workload section the
    families declare (``Family.workload_models``: the malleable family's ``speedup``).
``schema/system/<name>``
    the kinds of machine the families declare (``Family.systems``).
``schema/design/<name>``
    ``name`` and the options of each sample design,
    :data:`sweep.config.design.SAMPLERS`.
``schema/sweep``
    the root (``conf/config.yaml``): sweep's own options, :class:`Settings`,
    with ``stop`` (the fields of :class:`~sweep.families.StopRule`) and ``engine``.

OmegaConf types a field only as ``int``, ``float``, ``bool``, ``str`` or an
optional one of these; any other annotation becomes ``Any``. A field whose
value the code defaults itself (a speedup option; the options of a workload
class with ``defaults_in_code = True``, the malleable workload) is *unset*
(``???``) in the schema: it can be set, but :func:`to_plain` leaves
it out, so a family receives exactly the keys the YAML and the command line
gave (and a workload's stream key does not change when a schema
learns an option). An unset *required* field is an error (:func:`to_plain`).

OmegaConf's own errors (a value of the wrong type, a key the schema does not
have) become one-line :class:`~sweep.config.compose.ConfigError` texts in the
wording of :mod:`sweep.families._params` (:func:`explain`); range checks stay
with ``check_params`` (``Family.validate``) and :func:`check_settings`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, make_dataclass
from pathlib import Path
from typing import Any

from omegaconf import MISSING as UNSET
from omegaconf import DictConfig, OmegaConf

from sweep.config.design import SAMPLERS
from sweep.families import StopRule, all_policies, load_families, param
from sweep.families._params import Spec
from sweep.workloads._discovery import plugin_distributions
from sweep.workloads.config import distribution_kinds

__all__ = ["SCHEMAS", "Schema", "Settings", "check_settings", "explain", "omegaconf_type", "register",
           "to_plain"]

_SCALARS = (int, float, bool, str)
#: A value of each scalar type, for describing a field whose default is unset or null.
_SAMPLES: dict[Any, Any] = {int: 0, float: 0.0, bool: False, str: ""}


def omegaconf_type(annotation: Any) -> Any:
    """The annotation OmegaConf can enforce: a scalar, ``Optional[scalar]``, otherwise ``Any``."""
    if annotation in _SCALARS:
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and args[0] in _SCALARS and len(typing.get_args(annotation)) == 2:
            return typing.Optional[args[0]]  # noqa: UP045 (OmegaConf reads Optional, not X | None)
    return Any


def _scalar(annotation: Any) -> Any:
    """The scalar type inside ``annotation`` (``Optional[float]`` -> float), or None."""
    annotation = omegaconf_type(annotation)
    if annotation in _SCALARS:
        return annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    return args[0] if args else None


@dataclass(frozen=True)
class Schema:
    """One stored schema: the config section it types and the code it mirrors.

    ``section`` is the section's dotted key (``policy``, ``workload.speedup``;
    ``""`` for the root), ``owner`` names it in messages (``policy 'eqs'``),
    ``source`` is the dataclass whose fields (and their :func:`param` specs) it
    copies, ``node`` the generated dataclass Hydra stores, ``required`` the
    fields that must be set.
    """

    group: str
    name: str
    section: str
    owner: str
    source: type
    node: type
    required: frozenset[str] = frozenset()

    def fields(self) -> dict[str, dataclasses.Field]:
        return {f.name: f for f in dataclasses.fields(self.source)}

    def hint(self, key: str) -> Any:
        return typing.get_type_hints(self.node).get(key, Any)


#: Every registered schema by the name of its generated dataclass (see :func:`register`).
SCHEMAS: dict[str, Schema] = {}


def _resolved_fields(cls: type) -> list[tuple[str, Any, dataclasses.Field]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name], f) for f in dataclasses.fields(cls)]


def _field(f: dataclasses.Field, unset: bool) -> dataclasses.Field:
    """The schema's field for ``f``: its default (and spec), or unset."""
    if unset or (f.default is MISSING and f.default_factory is MISSING):
        return field(default=UNSET, metadata=f.metadata)
    if f.default is not MISSING:
        return field(default=f.default, metadata=f.metadata)
    return field(default_factory=f.default_factory, metadata=f.metadata)


def make_schema(group: str, name: str, source: type, *, section: str, owner: str,
                lead: Sequence[tuple[str, Any, Any]] = (), unset: bool = False) -> Schema:
    """Generate the schema dataclass of ``source`` (module docstring) and describe it.

    ``lead`` are extra fields ``(name, type, default)`` put first (``name``,
    ``kind``, ``model``); ``unset`` leaves every field of ``source`` unset. The
    fields of ``source`` without a default are required.
    """
    node = make_dataclass(f"{group.replace('/', '_')}_{name}",
                          [*((key, omegaconf_type(hint), field(default=default))
                             for key, hint, default in lead),
                           *((key, omegaconf_type(hint), _field(f, unset))
                             for key, hint, f in _resolved_fields(source))])
    required = frozenset(f.name for f in dataclasses.fields(source)
                         if f.default is MISSING and f.default_factory is MISSING)
    schema = Schema(group, name, section, owner, source, node, required)
    SCHEMAS[node.__name__] = schema
    return schema


@dataclass
class EngineSettings:
    """``engine``: how the sweep runs (not what it computes)."""

    backend: str = param("auto", choices=("auto", "ray", "serial"))
    workers: int | None = param(None, ge=1, nullable=True)
    address: str | None = None
    batch_size: int | None = param(None, ge=1, nullable=True)
    in_flight: int = param(2, ge=1)
    checkpoint_seconds: float = param(2.0, ge=0, unit="seconds")


@dataclass
class SaturationSettings:
    """``saturation``: with ``search``, find the load at which each grid point saturates, by
    bisection in rounds (:mod:`sweep.engine.adaptive`); ``low`` must be stable and ``high``
    unstable everywhere."""

    search: bool = False
    low: float = param(0.05, gt=0)
    high: float = param(2.0, gt=0)
    tol: float = param(0.01, gt=0)
    alpha: float = param(0.001, gt=0, lt=1)


def _stop_settings() -> type:
    """``stop``: the fields of :class:`~sweep.families.StopRule` with the ranges the engine checks."""
    ranges = {"jobs": {"ge": 1}, "warmup": {"ge": 0}, "max_in_system": {"ge": 1},
              "max_jobs": {"ge": 1, "nullable": True}}
    entries = []
    for key, hint, f in _resolved_fields(StopRule):
        default = UNSET if f.default is MISSING else f.default
        entries.append((key, omegaconf_type(hint),
                        param(default, **ranges[key]) if key in ranges else field(default=default)))
    return make_dataclass("StopSettings", entries)


StopSettings = _stop_settings()


@dataclass
class Settings:
    """The root config: sweep's own options (``conf/config.yaml`` documents each)."""

    policy: Any = None
    workload: Any = None
    system: Any = None
    load: float = param(0.7, gt=0)
    replications: int | None = param(None, ge=1, nullable=True)  # null: 2, or 1 (grid.settle_replications)
    first_replication: int = param(0, ge=0)
    seed: int = param(20000, ge=0, le=2**63 - 1)
    stop: StopSettings = field(default_factory=StopSettings)
    model: str = param("simulation", choices=("simulation", "analytic"))
    design: Any = None
    record_jobs: bool = False
    output: str | None = None
    overwrite: bool = False
    grid: dict[str, Any] = field(default_factory=dict)
    progress: bool = True
    plots: bool = True
    engine: EngineSettings = field(default_factory=EngineSettings)
    saturation: SaturationSettings = field(default_factory=SaturationSettings)


#: The root config's keys a sweep cannot run without (``~grid`` is fine: no axes).
ROOT_KEYS = tuple(f.name for f in dataclasses.fields(Settings) if f.name != "grid")


def _root_schemas() -> list[Schema]:
    """The root and its two nested sections; the root's fields are typed, nothing is generated."""
    root = Schema("schema", "sweep", "", "the config", Settings, Settings)
    stop = Schema("", "stop", "stop", "stop", StopSettings, StopSettings)
    engine = Schema("", "engine", "engine", "engine", EngineSettings, EngineSettings)
    saturation = Schema("", "saturation", "saturation", "saturation", SaturationSettings, SaturationSettings)
    for schema in (root, stop, engine, saturation):
        SCHEMAS[schema.node.__name__] = schema
    return [root]


def _policy_schemas() -> list[Schema]:
    return [make_schema("schema/policy", name, policy.params, section="policy", owner=f"policy {name!r}",
                        lead=[("name", str, name)]) for name, policy in all_policies().items()]


def _workload_schemas() -> list[Schema]:
    families = load_families()  # first: a plugin's kind that a family's workload takes is left out
    kinds = {name: kind.options for name, kind in distribution_kinds().items()}
    for family in families.values():
        kinds.update(family.workloads)
    return [make_schema("schema/workload", kind, cls, section="workload", owner=f"workload kind {kind!r}",
                        lead=[("name", str, UNSET), ("kind", str, kind)],
                        unset=getattr(cls, "defaults_in_code", False))
            for kind, cls in kinds.items()]


@functools.cache
def workload_models() -> dict[str, dict[str, type]]:
    """Every family's nested workload sections: section -> ``model`` option -> its dataclass."""
    sections: dict[str, dict[str, type]] = {}
    for family in load_families().values():
        for section, models in family.workload_models.items():
            sections.setdefault(section, {}).update(models)
    return sections


def _workload_model_schemas() -> list[Schema]:
    return [make_schema(f"schema/workload/{section}", model, cls, section=f"workload.{section}",
                        owner=f"{section} model {model!r}", lead=[("model", str, model)], unset=True)
            for section, models in workload_models().items() for model, cls in models.items()]


def _system_schemas() -> list[Schema]:
    systems = {name: cls for family in load_families().values() for name, cls in family.systems.items()}
    return [make_schema("schema/system", name, cls, section="system", owner="system")
            for name, cls in systems.items()]


def _design_schemas() -> list[Schema]:
    return [make_schema("schema/design", name, sampler.options, section="design", owner=f"design {name!r}",
                        lead=[("name", str, name)]) for name, sampler in SAMPLERS.items()]


@functools.cache
def register(conf_dir: Path) -> tuple[Schema, ...]:
    """Store every schema in Hydra's ConfigStore (once per process); return them.

    A policy without a YAML in ``conf_dir`` (an installed plugin's) gets its schema as its option.
    """
    from hydra.core.config_store import ConfigStore

    store = ConfigStore.instance()
    schemas = [*_root_schemas(), *_policy_schemas(), *_workload_schemas(), *_workload_model_schemas(),
               *_system_schemas(), *_design_schemas()]
    for schema in schemas:
        store.store(group=schema.group, name=schema.name, node=schema.node)
    for schema in _policy_schemas():
        if not (conf_dir / "policy" / f"{schema.name}.yaml").exists():
            store.store(group="policy", name=schema.name, node=schema.node)
    for option in _plugin_workload_options(conf_dir):
        store.store(group="workload", name=option.name, node=option.node)
    return tuple(schemas)


def _plugin_workload_options(conf_dir: Path) -> list[Schema]:
    """An installed plugin's distribution kind without a YAML in ``conf_dir`` as a ``workload``
    option of its own name: ``workload=<kind>`` composes its schema with its defaults."""
    return [make_schema("workload", name, kind.options, section="workload", owner=f"workload kind {name!r}",
                        lead=[("name", str, name), ("kind", str, name)])
            for name, kind in plugin_distributions().items()
            if not (conf_dir / "workload" / f"{name}.yaml").exists()]


def models_with(section: str, key: str) -> list[str]:
    """The models of nested workload section ``section`` that have option ``key``."""
    return [model for model, cls in workload_models().get(section, {}).items()
            if key in {f.name for f in dataclasses.fields(cls)}]


# --- plain values -------------------------------------------------------------------------


def to_plain(node: Any, key: str = "", required: bool = True) -> Any:
    """A composed config section as plain Python values, unset fields left out.

    ``key`` is the section's dotted key, for messages: with ``required``, an
    unset field that its schema requires raises ``ValueError`` (``workload.path
    is required ...``).
    """
    if not isinstance(node, DictConfig):
        return OmegaConf.to_container(node, resolve=True) if OmegaConf.is_config(node) else node
    schema = SCHEMAS.get(getattr(OmegaConf.get_type(node), "__name__", ""))
    out = {}
    for name in node:
        option = f"{key}.{name}" if key else str(name)
        if OmegaConf.is_missing(node, name):
            if required and schema is not None and name in schema.required:
                raise ValueError(f"{option} is required for {schema.owner}; set {option}=...")
            continue
        out[name] = to_plain(node[name], option, required)
    return out


# --- one-line messages --------------------------------------------------------------------


def _typed_default(hint: Any, f: dataclasses.Field | None) -> Any:
    """A value of the field's type to describe it with: its default, or a sample when unset or null."""
    default = None if f is None else f.default
    if isinstance(default, _SCALARS) and default != UNSET:
        return default
    return _SAMPLES.get(_scalar(hint), 0.0)


def _spec(schema: Schema, key: str) -> tuple[Spec, Any]:
    """What ``key`` of ``schema`` allows: its :func:`param` spec (or none) and a value of its type."""
    f = schema.fields().get(key)
    spec = f.metadata.get("spec", Spec()) if f is not None else Spec()
    hint = omegaconf_type(schema.hint(key))
    if spec == Spec() and hint not in _SCALARS and hint is not Any:
        spec = Spec(nullable=True)  # Optional[scalar] without a spec: "null or ..."
    return spec, _typed_default(hint, f)


def must_be(option: str, spec: Spec, default: Any, value: Any) -> str:
    """``option must be <allowed>, got <value>``: the wording of ``check_params``."""
    return f"{option} must be {spec.describe(default)}, got {value!r}"


def _unknown(schema: Schema, key: str) -> str:
    allowed = ", ".join(sorted(k for k in schema.fields() if k != "name")) or "none"
    section = schema.section.removeprefix("workload.")
    if section in workload_models():
        owners = models_with(section, key)
        if owners:
            return (f"{schema.section}.{key} belongs to {section} model {', '.join(owners)}, not "
                    f"{schema.name}: the workload sets it for its own model (keep that model, or "
                    f"choose a workload that does not set it)")
    return f"{schema.owner} has no option {key!r}; allowed: {allowed}"


_KEY_NOT_IN = re.compile(r"Key '(?P<key>[^']+)' not in '(?P<type>[^']+)'")
_VALUE = re.compile(r"Value '(?P<value>.*)' (of type '[^']+' could not be converted|is not a valid)")
_FULL_KEY = re.compile(r"full_key: (?P<full_key>\S*)")
_OBJECT = re.compile(r"object_type=(?P<type>\w+)")


def _error_facts(error: BaseException) -> tuple[str, str, Any, str] | None:
    """``(what, full key, value, schema class name)`` of a schema's error, ``what`` unknown|type.

    From the OmegaConf exception Hydra chains (a command-line override) or, when
    Hydra only kept its text (a YAML merged while composing), from the text.
    """
    from omegaconf.errors import ConfigAttributeError, ConfigKeyError, ValidationError

    cause = error.__cause__
    if isinstance(cause, ConfigKeyError | ConfigAttributeError | ValidationError) and cause.full_key:
        what = "type" if isinstance(cause, ValidationError) else "unknown"
        return what, cause.full_key, cause.value, getattr(cause.object_type, "__name__", "")
    text = str(error)
    unknown, value = _KEY_NOT_IN.search(text), _VALUE.search(text)
    full_key, owner = _FULL_KEY.search(text), _OBJECT.search(text)
    if unknown is not None and full_key is not None:
        return "unknown", full_key["full_key"], None, unknown["type"]
    if value is not None and full_key is not None and owner is not None:
        return "type", full_key["full_key"], value["value"], owner["type"]
    return None


def explain(error: BaseException) -> str | None:
    """One line for an OmegaConf error a schema raised while composing; None if it is not one.

    An unknown key names the owner and its options (``policy 'eqs' has no option
    'quantum'; allowed: ...``), a speedup option left from another model names
    that model, a value of the wrong type says what is allowed
    (``policy.quantum must be a number of seconds > 0, got 'abc'``).
    """
    facts = _error_facts(error)
    if facts is None:
        return None
    what, full_key, value, owner = facts
    schema = SCHEMAS.get(owner)
    if schema is None:
        return None
    key = full_key.rsplit(".", 1)[-1]
    if what == "unknown":
        return _unknown(schema, key)
    return must_be(full_key, *_spec(schema, key), value)


# --- sweep's own options ------------------------------------------------------------------


#: sweep's own settings by section ("" the root): what :func:`check_settings` checks.
SECTIONS = (("", Settings), ("stop", StopSettings), ("engine", EngineSettings),
            ("saturation", SaturationSettings))


def check_settings(settings: Mapping[str, Any]) -> None:
    """Check sweep's own options (root, ``stop``, ``engine``, ``saturation``): a key sweep does not read
    (added with ``+key=value``, not silently stored), then each value's range; ``ValueError`` on the
    first bad one."""
    for section, cls in SECTIONS:
        values = settings.get(section, {}) if section else settings
        known = {f.name for f in dataclasses.fields(cls)}
        if unknown := sorted(set(values) - known):
            key = f"{section}.{unknown[0]}" if section else unknown[0]
            raise ValueError(f"unknown option {key}; allowed: {', '.join(sorted(known))}")
    for section, cls in SECTIONS:
        values = settings[section] if section else settings
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            spec = f.metadata.get("spec")
            if spec is None or f.name not in values:
                continue
            default = _typed_default(hints[f.name], f)
            if not spec.allows(values[f.name], default):
                raise ValueError(must_be(f"{section}.{f.name}" if section else f.name, spec, default,
                                         values[f.name]))
