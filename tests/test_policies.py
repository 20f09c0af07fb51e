"""Generic checks over every registered policy of every family.

No list of policies here: a policy joins these checks by being registered
(one file in its family's package, or an installed ``sweep.policies`` entry
point). Each family's own tests run the policy-level checks (invariants,
naive references) over the same registry. The checks are :mod:`sweep.testing`'s,
which ``pytest --pyargs sweep.testing`` runs over an installed plugin's policies.
"""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
from pathlib import Path

import pytest

from sweep.families import Policy, all_policies, load_families
from sweep.testing.checks import check_parameters_and_examples, check_serial_equals_ray

FAMILIES = load_families()


def _policy_modules() -> list[str]:
    """The policy modules of sweep's own families: the modules of each family package not ``_``-named."""
    found = []
    for family in FAMILIES.values():
        if family.package.startswith("sweep.families."):
            path = importlib.import_module(family.package).__path__
            found += [f"{family.package}.{m.name}" for m in pkgutil.iter_modules(path)
                      if not m.name.startswith("_")]
    return sorted(found)


def private_imports(module: str) -> list[str]:
    """What ``module`` imports from the ``_`` modules of its family, or ``_`` names from the package."""
    package = module.rpartition(".")[0]
    source = Path(importlib.util.find_spec(module).origin).read_text()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(f"{package}._"):
                found += [f"{node.module}.{alias.name}" for alias in node.names]
            elif node.module == package:
                found += [f"{package}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith(f"{package}._")]
    return found


@pytest.mark.parametrize("module", _policy_modules())
def test_a_policy_imports_only_public_names_of_its_family(module):
    """A policy file reads its family through the names the family package exports (issue 28),
    so that the family's ``_`` modules can change behind them."""
    assert private_imports(module) == []


def test_the_check_of_private_imports_sees_them():
    assert "sweep.families.balancing._core.make_sim" in private_imports("sweep.families.balancing._simulate")


@pytest.mark.parametrize("policy", list(all_policies().values()), ids=lambda p: p.name)
def test_policy_declares_its_parameters_and_examples(policy: Policy):
    check_parameters_and_examples(policy)


@pytest.mark.ray
@pytest.mark.parametrize("family", list(FAMILIES), ids=str)
def test_serial_and_ray_give_identical_datasets(tmp_path, ray_session, family):
    """Every policy of the family in one grid, on the family's default workload and system."""
    check_serial_equals_ray(FAMILIES[family], list(FAMILIES[family].policies), tmp_path)
