"""Simulator families: one subpackage each, no Ray, Hydra or xarray inside.

A family package defines one :class:`Family` as ``FAMILY`` in its
``__init__.py``; its policies are the module-level :class:`Policy` objects of
its modules (one file plus one YAML per policy, no list to edit).
:func:`load_families` imports every subpackage of this one, then what other
installed packages declare in the entry point groups ``sweep.families`` (a
``Family``) and ``sweep.policies`` (a ``Policy``, or a module holding some).
A duplicate family or policy name raises.
"""

from __future__ import annotations

from sweep.families._discovery import (
    FAMILIES,
    add_policy,
    all_policies,
    family_of,
    load_families,
    plugin_of,
    policies_in,
    register,
    unloadable,
)
from sweep.families._family import Family, Point, Processors, Result, StopRule, Variable
from sweep.families._params import NoParams, check_params, param
from sweep.families._policy import Policy

__all__ = ["FAMILIES", "Family", "NoParams", "Point", "Policy", "Processors", "Result", "StopRule",
           "Variable", "add_policy", "all_policies", "check_params", "family_of", "load_families", "param",
           "plugin_of", "policies_in", "register", "unloadable"]
