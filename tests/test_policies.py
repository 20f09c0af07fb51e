"""Generic checks over every registered policy of every family.

No list of policies here: a policy joins these checks by being registered
(one file in its family's package, or an installed ``sweep.policies`` entry
point). Each family's own tests run the policy-level checks (invariants,
naive references) over the same registry.
"""

from __future__ import annotations

import dataclasses

import pytest
import xarray as xr

import sweep
from sweep.engine.dataset import reproducible
from sweep.families import Policy, all_policies, load_families

FAMILIES = load_families()
#: Small enough for every family: stream families measure 2,000 jobs, traces run whole.
TINY = ["stop.jobs=2000", "stop.warmup=200", "replications=2", "progress=false", "plots=false"]


@pytest.mark.parametrize("policy", list(all_policies().values()), ids=lambda p: p.name)
def test_policy_declares_its_parameters_and_examples(policy: Policy):
    assert dataclasses.is_dataclass(policy.params) and policy.params.__dataclass_params__.frozen
    defaults = policy.make_params({"name": policy.name})
    assert defaults == policy.params()
    for example in policy.examples:
        policy.make_params(example)  # every example is a valid parameter set
    with pytest.raises(ValueError, match=f"^policy '{policy.name}' has no option 'no_such_option'"):
        policy.make_params({"no_such_option": 1})


@pytest.mark.ray
@pytest.mark.parametrize("family", list(FAMILIES), ids=str)
def test_serial_and_ray_give_identical_datasets(tmp_path, ray_session, family):
    """Every policy of the family in one grid, on the family's default workload and system."""
    spec = FAMILIES[family]
    design = [f"grid.policy=[{','.join(spec.policies)}]", f"workload={spec.default_workload}",
              f"system={spec.default_system}", *TINY]
    serial = sweep.run([*design, "engine.backend=serial", f"output={tmp_path / 'serial.nc'}"])
    ray = sweep.run([*design, "engine.backend=ray", "engine.workers=2", "engine.batch_size=1",
                     f"output={tmp_path / 'ray.nc'}"])
    xr.testing.assert_identical(reproducible(serial), reproducible(ray))
    assert list(serial["policy"].values) == list(spec.policies)
