"""Finding the families and their policies (the package docstring of :mod:`sweep.families`).

The families are the subpackages of ``sweep.families`` and what installed packages
declare in the entry point groups; the policies are the module-level
:class:`~sweep.families.Policy` objects of each family's modules. Below
``_family``: a family's ``policies`` load everything through :func:`load_families`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sweep._plugins import CONTRACT, load_group, missing, objects_of
from sweep.families._policy import Policy
from sweep.workloads._discovery import drop_distribution, plugin_distributions

# CONTRACT: the version of the family and policy contract (docs/design.md §2a), sweep._plugins'.
__all__ = ["CONTRACT", "FAMILIES", "FAMILY_GROUP", "PLUGIN_ERRORS", "POLICY_GROUP", "add_policy",
           "all_policies", "family_of", "load_families", "plugin_of", "policies_in", "register", "unloadable"]

if TYPE_CHECKING:
    from sweep.families._family import Family

FAMILIES: dict[str, Family] = {}
#: Entry point groups through which an installed package adds families and policies.
FAMILY_GROUP, POLICY_GROUP = "sweep.families", "sweep.policies"
#: Installed plugins left out, by entry point (``name = value``): why, in one line. A plugin that fails
#: to import, or whose policy takes a name already taken, is left out and said once on stderr; sweeps
#: that do not use it run, and a sweep naming a policy it would have added is told why it is missing.
PLUGIN_ERRORS: dict[str, str] = {}
#: The entry point (``name = value``) that added each plugin family, and each plugin policy by name.
_PLUGIN_FAMILIES: dict[str, str] = {}
_PLUGIN_POLICIES: dict[str, str] = {}


def register(family: Family) -> Family:
    """Add ``family`` to the registry; a duplicate family name raises."""
    if family.name in FAMILIES and FAMILIES[family.name] is not family:
        raise ValueError(f"family {family.name!r} registered twice")
    FAMILIES[family.name] = family
    return family


def add_policy(policy: Policy) -> None:
    """Add ``policy`` to its family; a policy name taken in any family raises."""
    if not isinstance(policy, Policy):
        raise TypeError(f"expected a sweep Policy, got {type(policy).__name__}")
    family = FAMILIES.get(policy.family)
    if family is None:
        raise ValueError(f"policy {policy.name!r} names an unknown family {policy.family!r}; "
                         f"known: {', '.join(FAMILIES)}")
    if family.registry.get(policy.name) is policy:
        return  # the same object found twice (e.g. imported into a second module)
    for other in FAMILIES.values():
        if policy.name in other.registry:
            raise ValueError(f"policy {policy.name!r} of {family.name!r} already in {other.name!r}")
    if not isinstance(policy.hooks, family.hooks):
        raise TypeError(f"policy {policy.name!r}: hooks must be a {family.hooks.__name__}, "
                        f"got {type(policy.hooks).__name__}")
    family.registry.register(policy)


def policies_in(module: ModuleType) -> list[Policy]:
    """The module-level :class:`Policy` objects of ``module``."""
    return [value for value in vars(module).values() if isinstance(value, Policy)]


def _modules(package: str) -> Iterable[ModuleType]:
    """``package`` and every module in it (not ``_``-prefixed ones), imported."""
    root = importlib.import_module(package)
    yield root
    for info in pkgutil.iter_modules(root.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{package}.{info.name}")


@functools.cache
def load_families() -> dict[str, Family]:
    """Import every family and policy (module docstring) and return the families by name."""
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.ispkg and not info.name.startswith("_"):
            register(importlib.import_module(f"{__package__}.{info.name}").FAMILY)
    load_group(FAMILY_GROUP, lambda loaded, where: _PLUGIN_FAMILIES.setdefault(register(loaded).name, where),
               PLUGIN_ERRORS)
    for family in list(FAMILIES.values()):
        for module in _modules(family.package):
            for policy in policies_in(module):
                add_policy(policy)
                if family.name in _PLUGIN_FAMILIES:
                    _PLUGIN_POLICIES[policy.name] = _PLUGIN_FAMILIES[family.name]
    load_group(POLICY_GROUP, lambda loaded, where: _add_policies(objects_of(loaded, Policy), where),
               PLUGIN_ERRORS)
    _check_workload_kinds()
    return FAMILIES


def _check_workload_kinds() -> None:
    """A plugin's distribution kind (``sweep.workloads``) named as a family's own workload kind is
    left out: the two would share one config schema."""
    readers = {kind: family.name for family in FAMILIES.values() for kind in family.workloads}
    for kind in [kind for kind in plugin_distributions() if kind in readers]:
        drop_distribution(kind, f"ValueError: workload kind {kind!r} is taken (the {readers[kind]} family "
                                "reads one of that name)")


def plugin_of(policy_name: str) -> str | None:
    """The entry point (``name = value``) of the installed plugin that added the policy or its
    family; ``None`` for sweep's own policies and unknown names."""
    load_families()
    return _PLUGIN_POLICIES.get(policy_name)


def unloadable(names: Iterable[str]) -> dict[str, str]:
    """The policies of ``names`` this process cannot load, each with the reason in a few words (a
    plugin missing here, or one that failed to load)."""
    return missing(names, all_policies(), PLUGIN_ERRORS)


def _add_policies(policies: list[Any], where: str) -> None:
    """Add a plugin's policies, all or none: a name another package's policy holds raises first."""
    for policy in policies:
        for family in FAMILIES.values():
            other = family.registry.get(getattr(policy, "name", None))
            if other is not None and other is not policy:
                raise ValueError(f"policy {policy.name!r} is taken (the {family.name} family has one of that "
                                 "name)")
    for policy in policies:
        add_policy(policy)
        _PLUGIN_POLICIES[policy.name] = where


def all_policies() -> dict[str, Policy]:
    """Every registered policy by name, all families together."""
    return {name: p for f in load_families().values() for name, p in f.policies.items()}


def family_of(policy_name: str) -> Family:
    """The family owning ``policy_name``; ``KeyError`` lists the known policies."""
    for family in load_families().values():
        if policy_name in family.policies:
            return family
    known = sorted(all_policies())
    left_out = "".join(f"; plugin {where!r} was left out ({why})" for where, why in PLUGIN_ERRORS.items())
    raise KeyError(f"unknown policy {policy_name!r}; known: {', '.join(known)}{left_out}")
