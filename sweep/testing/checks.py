"""The checks every policy of every family passes (docs/adding-a-policy.md §1, docs/design.md §4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xarray as xr

from sweep.families import Family, Policy

__all__ = ["TINY", "assert_matches", "check_parameters_and_examples", "check_serial_equals_ray"]

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


def assert_matches(policy: str, case: str, got: Mapping[str, Any], want: Mapping[str, Any], *,
                   rtol: float = 0.0, atol: float = 0.0) -> None:
    """Every column of ``want`` (a reference's results) equals the same column of ``got`` (the
    compiled run's), exactly unless ``rtol``/``atol`` say otherwise (NaN equals NaN); else an
    ``AssertionError`` naming the policy, the case and the first element that differs."""
    for column, expected in want.items():
        mine, theirs = np.ravel(np.asarray(got[column], float)), np.ravel(np.asarray(expected, float))
        where = f"policy {policy!r} differs from its plain-Python reference ({case})"
        if np.shape(got[column]) != np.shape(expected):
            raise AssertionError(f"{where}: {column} has shape {np.shape(got[column])}, the reference's "
                                 f"{np.shape(expected)}")
        differ = np.flatnonzero(~np.isclose(mine, theirs, rtol=rtol, atol=atol, equal_nan=True))
        if differ.size:
            i = int(differ[0])
            at = ", ".join(map(str, np.unravel_index(i, np.shape(expected)))) if np.ndim(expected) > 1 else i
            raise AssertionError(f"{where}: {column}[{at}] is {float(mine[i])!r}, "
                                 f"the reference's {float(theirs[i])!r} "
                                 f"({differ.size} of {mine.size} differ)")
