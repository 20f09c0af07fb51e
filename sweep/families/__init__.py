"""Simulator families: one subpackage each, no Ray, Hydra or xarray inside.

``family_of(policy_name)`` finds the family that owns a policy; families
register themselves in :data:`FAMILIES` when imported.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from sweep.families._family import Family, Point, Result, StopRule, Variable

FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add ``family`` to the registry; a duplicate family or policy name raises."""
    if family.name in FAMILIES:
        raise ValueError(f"family {family.name!r} registered twice")
    taken = {p: f.name for f in FAMILIES.values() for p in f.policies}
    for policy in family.policies:
        if policy in taken:
            raise ValueError(f"policy {policy!r} of {family.name!r} already in {taken[policy]!r}")
    FAMILIES[family.name] = family
    return family


@functools.cache
def load_families() -> dict[str, Family]:
    """Import every family subpackage (each registers itself) and return the registry."""
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    return FAMILIES


def family_of(policy_name: str) -> Family:
    """The family owning ``policy_name``; ``KeyError`` lists the known policies."""
    for family in load_families().values():
        if policy_name in family.policies:
            return family
    known = sorted(p for f in FAMILIES.values() for p in f.policies)
    raise KeyError(f"unknown policy {policy_name!r}; known: {', '.join(known)}")


__all__ = ["FAMILIES", "Family", "Point", "Result", "StopRule", "Variable", "family_of",
           "load_families", "register"]
