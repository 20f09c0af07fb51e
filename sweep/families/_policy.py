"""The one policy type of every family (docs/adding-a-policy.md).

A family is a machine model with one simulation loop; a policy is what varies.
A policy is a :class:`Policy`: its config name, the family whose loop runs it,
the family's record of compiled hooks (each family declares the record's type
and the hooks' fixed signatures, e.g. the dispatch family's ``choose(n, t, ...)
-> host``), and the dataclass of its parameters (defaults, allowed values and
their sources: :mod:`sweep.families._params`).

A policy is one module-level ``Policy`` in one file of its family's package,
plus one ``conf/policy/<name>.yaml``: the package is scanned, no list is
edited (:func:`sweep.families.load_families`). A package installed elsewhere
adds policies through the ``sweep.policies`` entry point group.

``examples`` are the small parameter sets with which the generic tests run
the policy (invariants, serial = Ray, the naive reference where one exists);
``({},)``, the defaults, unless the policy says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sweep.families._params import NoParams, check_params


@dataclass(frozen=True)
class Policy:
    """One scheduling policy (module docstring)."""

    name: str
    family: str
    hooks: Any
    params: type = NoParams
    examples: tuple[Mapping[str, Any], ...] = ({},)

    def make_params(self, config: Mapping[str, Any]) -> Any:
        """The parameter dataclass from a ``policy`` config section (``name`` ignored).

        One-line ``ValueError`` for an unknown option or a value out of range.
        """
        return check_params(self.params, config, section="policy", owner=f"policy {self.name!r}")
