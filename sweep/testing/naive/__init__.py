"""Slow, obvious references of the compiled kernels, shared by sweep's tests and :mod:`sweep.testing`.

Plain Python, written from the documentation, sharing nothing with the kernels they check: these
exist to be read and trusted. One module per family holds the family's event loop in plain
Python (:mod:`.balancing`, :mod:`.dispatch`, :mod:`.gang`, :mod:`.malleable`, :mod:`.mapping`,
:mod:`.rigid`); what each policy does differently is registered under the policy's name in
:data:`REFERENCES`, with the decorator :func:`reference`, in the module that defines the
policy's reference: sweep's own in a module of :mod:`.policies` (one file per policy, all
imported with this package; the older ones in the family's module here), a plugin's in the module
of its ``Policy`` (docs/plugins.md), so that loading the policy registers its reference and no
list is edited. :func:`reference_of` finds a policy's reference; the generic test of
:mod:`sweep.testing` compares every policy that has one with its family's compiled run.

What a family's reference takes is the family's contract (its module's docstring): a dispatch
policy registers its host rule ``rule(view, job, now) -> host``, a gang policy its local
scheduler ``local(matrix, cur, p, rr, par)``, a mapper ``mapper(inst, params, rng) -> Mapped``,
a balancing policy ``reference(tasks, dist, costs, bus, params)`` -> its outcome;
a rigid policy names a pass of :mod:`.rigid` and its order key in ``RigidHooks.reference``
(``rigid_policy`` does by default; a new pass is registered by name with
:func:`.rigid.rigid_pass`), a malleable one a rule of :mod:`.malleable` in
``MalleableHooks.naive``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from sweep.families import Policy
from sweep.testing.naive import policies
from sweep.testing.naive._registry import References

__all__ = ["REFERENCES", "WHERE", "References", "reference", "reference_of"]

#: Where a reference is registered, the end of every "how to add one" line.
WHERE = ("in the module that defines the policy (a plugin's) or in a new module of "
         "sweep/testing/naive/policies/ (sweep's own; docs/plugins.md)")

#: Policy name -> what its family's reference does for it (module docstring).
REFERENCES = References("policy", "register one with @sweep.testing.naive.reference({name!r}), " + WHERE)


def reference(*names: str) -> Callable[[Any], Any]:
    """Decorator: register the decorated function (or value) as the reference of the policies
    ``names`` (``ValueError`` for a name registered twice)."""
    return REFERENCES.register(*names)


def family_module(family: str) -> Any | None:
    """The family's module of references, :mod:`sweep.testing.naive.<family>` (its import registers
    sweep's own policies' references), or ``None`` for a family without one."""
    try:
        return importlib.import_module(f"{__name__}.{family}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{family}":
            raise
        return None


def reference_of(policy: Policy) -> Any | None:
    """The policy's reference: the one registered under its name, else the one its hooks declare
    where its family's module reads it from them (``declared(policy)``: the rigid family's
    ``RigidHooks.reference``); ``None`` if it has neither."""
    module = family_module(policy.family)
    if policy.name in REFERENCES:
        return REFERENCES[policy.name]
    declared = getattr(module, "declared", None)
    return declared(policy) if declared else None


def _load_own_references() -> None:
    """Import every module of :mod:`.policies`: each registers one of sweep's own policies'
    references (a new policy's reference is a new file there)."""
    for module in pkgutil.iter_modules(policies.__path__):
        importlib.import_module(f"{policies.__name__}.{module.name}")


_load_own_references()
