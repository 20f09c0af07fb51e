"""The generic tests over the chosen policies: ``pytest --pyargs sweep.testing`` (the package docstring
says which policies and what is checked)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np
import pytest

from sweep.families import family_of
from sweep.testing import POLICIES_VARIABLE, chosen_policies, unknown_policies
from sweep.testing import dispatch as dispatch_checks
from sweep.testing import rigid as rigid_checks
from sweep.testing.checks import check_parameters_and_examples, check_serial_equals_ray
from sweep.testing.fixtures import ray_session  # noqa: F401 (a fixture, used by name)
from sweep.testing.naive import REFERENCES, reference_of

CHOSEN = chosen_policies()
FAMILIES = sorted({family_of(name).name for name in CHOSEN})


def _examples(family: str | None = None) -> list:
    """``(policy, example)`` of every chosen policy of ``family`` (``None``: of every family), as
    pytest parameters with readable ids."""
    return [pytest.param(name, dict(example), id="-".join([name, *(f"{k}={v}" for k, v in example.items())]))
            for name, policy in CHOSEN.items() if family in (None, policy.family)
            for example in policy.examples]


def _comparison(family: str) -> Callable[..., None] | None:
    """The family's comparison of a policy with its reference, ``compare_with_reference(name,
    example)`` of :mod:`sweep.testing.<family>`; ``None`` where there is none."""
    try:
        module = importlib.import_module(f"sweep.testing.{family}")
    except ModuleNotFoundError as missing:
        if missing.name != f"sweep.testing.{family}":
            raise
        return None
    return getattr(module, "compare_with_reference", None)


def test_the_chosen_policies_exist():
    """An empty choice or a name nobody adds fails, rather than passing on nothing."""
    assert not unknown_policies(), (f"{POLICIES_VARIABLE} names policies no installed package adds: "
                                    f"{', '.join(unknown_policies())}")
    assert CHOSEN, (f"no policy to test: no installed package adds one; name them in {POLICIES_VARIABLE} "
                    "(comma-separated, or all)")


@pytest.mark.parametrize("name", sorted(CHOSEN))
def test_parameters_and_examples(name):
    check_parameters_and_examples(CHOSEN[name])


@pytest.mark.parametrize("family", FAMILIES)
def test_serial_and_ray_give_identical_results(tmp_path, ray_session, family):  # noqa: F811
    names = [name for name, policy in CHOSEN.items() if policy.family == family]
    check_serial_equals_ray(family_of(names[0]), names, tmp_path)


@pytest.mark.parametrize(("name", "example"), _examples("dispatch"))
def test_dispatch_simulation(name, example):
    dispatch_checks.check_simulation(name, example)


@pytest.mark.parametrize(("name", "example"), _examples("rigid"))
def test_rigid_small_random_workloads(name, example):
    rng = np.random.default_rng(11)
    for _ in range(200):
        jobs = rigid_checks.small_jobs(rng)
        start = rigid_checks.run_from_empty(name, example, jobs, jobs.processors)
        rigid_checks.check_schedule(jobs, start, jobs.processors)


@pytest.fixture(scope="module")
def kth_jobs():
    """The whole KTH SP2 log on 128 processors, every fifth job at a higher priority."""
    from sweep.families.rigid._jobs import prepare
    from sweep.workloads.named import resolve_trace_path
    from sweep.workloads.traces import read_trace

    return prepare(read_trace(resolve_trace_path(rigid_checks.KTH)), processors=128, priority_every=5)


@pytest.mark.parametrize(("name", "example"), _examples("rigid"))
def test_rigid_whole_kth_trace(kth_jobs, name, example):
    start = rigid_checks.run_from_empty(name, example, kth_jobs, 128)
    rigid_checks.check_schedule(kth_jobs, start, 128)


@pytest.mark.parametrize(("name", "example"), _examples())
def test_matches_its_reference(name, example):
    """The family's compiled run against the policy's plain-Python reference on small random cases
    (:mod:`sweep.testing.naive`); skipped, saying how to add one, for a policy without one."""
    policy = CHOSEN[name]
    compare = _comparison(policy.family)
    if compare is None:
        pytest.skip(f"policy {name!r}: the {policy.family} family has no plain-Python reference in "
                    "sweep.testing.naive yet")
    if reference_of(policy) is None:
        how = getattr(importlib.import_module(f"sweep.testing.{policy.family}"), "HOW_TO_ADD", REFERENCES.how)
        pytest.skip(f"policy {name!r} has no plain-Python reference: {how.format(name=name)}")
    compare(name, example)
