"""The checks every policy of every family passes (docs/adding-a-policy.md §1, docs/design.md §4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest
import xarray as xr

from sweep.families import Family, Policy

__all__ = ["TINY", "check_parameters_and_examples", "check_serial_equals_ray"]

#: Small enough for every family: stream families measure 2,000 jobs, traces run whole.
TINY = ("stop.jobs=2000", "stop.warmup=200", "replications=2", "progress=false", "plots=false")


def check_parameters_and_examples(policy: Policy) -> None:
    """The parameters are a frozen dataclass whose defaults are what a config naming the policy alone
    builds; every example is a valid parameter set; an unknown option is refused in one line."""
    assert dataclasses.is_dataclass(policy.params) and policy.params.__dataclass_params__.frozen, \
        f"policy {policy.name!r}: params must be a frozen dataclass"
    assert policy.make_params({"name": policy.name}) == policy.params()
    for example in policy.examples:
        policy.make_params(example)  # every example is a valid parameter set
    with pytest.raises(ValueError, match=f"^policy '{policy.name}' has no option 'no_such_option'"):
        policy.make_params({"no_such_option": 1})


def check_serial_equals_ray(family: Family, policies: Sequence[str], folder: Path) -> None:
    """``policies`` (of ``family``) in one grid on the family's default workload and system: the
    serial backend and a Ray pool of two workers, one point per batch, write identical results
    (the wall-clock variables left out). Needs a running Ray (:func:`~sweep.testing.fixtures.ray_session`)."""
    import sweep
    from sweep.engine.dataset import reproducible

    design = [f"grid.policy=[{','.join(policies)}]", f"workload={family.default_workload}",
              f"system={family.default_system}", *TINY]
    serial = sweep.run([*design, "engine.backend=serial", f"output={folder / 'serial.nc'}"])
    ray = sweep.run([*design, "engine.backend=ray", "engine.workers=2", "engine.batch_size=1",
                     f"output={folder / 'ray.nc'}"])
    xr.testing.assert_identical(reproducible(serial), reproducible(ray))
    assert list(serial["policy"].values) == list(policies)
