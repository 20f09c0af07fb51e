"""Generic checks over every registered policy of every family.

No list of policies here: a policy joins these checks by being registered
(one file in its family's package, or an installed ``sweep.policies`` entry
point). Each family's own tests run the policy-level checks (invariants,
naive references) over the same registry. The checks are :mod:`sweep.testing`'s,
which ``pytest --pyargs sweep.testing`` runs over an installed plugin's policies.
"""

from __future__ import annotations

import pytest

from sweep.families import Policy, all_policies, load_families
from sweep.testing.checks import check_parameters_and_examples, check_serial_equals_ray

FAMILIES = load_families()


@pytest.mark.parametrize("policy", list(all_policies().values()), ids=lambda p: p.name)
def test_policy_declares_its_parameters_and_examples(policy: Policy):
    check_parameters_and_examples(policy)


@pytest.mark.ray
@pytest.mark.parametrize("family", list(FAMILIES), ids=str)
def test_serial_and_ray_give_identical_datasets(tmp_path, ray_session, family):
    """Every policy of the family in one grid, on the family's default workload and system."""
    check_serial_equals_ray(FAMILIES[family], list(FAMILIES[family].policies), tmp_path)
