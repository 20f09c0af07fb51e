"""Checks of any rigid policy: invariants of its schedules, and its slow reference where it names one.

Every job starts exactly once, never before its submission, and never are more than P processors
busy. "Exactly once": every job has a start time, and at the end the machine is empty with all P
processors free; a job started twice would hold processors it never gives back, or give back
some twice (:func:`run_from_empty`, :func:`check_schedule`). A policy that names a pass of
:mod:`sweep.testing.naive.rigid` (``RigidHooks.reference``) must match that pass start for start,
its queue ordered by the policy's key in pure Python (:func:`kernel_and_reference`).
``tests/rigid`` runs these over sweep's own policies; :mod:`sweep.testing.test_generic` over a
plugin's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import load_families
from sweep.families.rigid._core import columns
from sweep.testing.checks import assert_matches
from sweep.testing.naive import reference_of
from sweep.testing.naive import rigid as naive

__all__ = ["HOW_TO_ADD", "KTH", "SmallJobs", "check_schedule", "compare_with_reference",
           "kernel_and_reference", "peak_busy", "run_from_empty", "small_jobs"]

#: How a rigid policy gets a reference ({name}: the policy's).
HOW_TO_ADD = ("leave rigid_policy's reference=True (the default: its discipline's pass of "
              "sweep.testing.naive.rigid, a new pass registered there with "
              "@sweep.testing.naive.rigid.rigid_pass), or register what RigidHooks.reference holds "
              "(the pass's name and the order key in Python) with @sweep.testing.naive.reference({name!r}) "
              "in the module that defines the policy (docs/plugins.md)")

#: The KTH SP2 log shipped with sweep (a path its trace readers resolve, in a checkout or a wheel).
KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"


def peak_busy(start: np.ndarray, end: np.ndarray, procs: np.ndarray) -> int:
    """Most processors busy at once; a job ending at t frees them before one starting at t."""
    times = np.concatenate((end, start))
    delta = np.concatenate((-procs, procs))
    order = np.lexsort((delta, times))  # at equal times, releases (negative) first
    return int(np.cumsum(delta[order]).max())


def check_schedule(jobs: Any, start: np.ndarray, processors: int) -> None:
    """Every job of ``jobs`` (``submit``, ``run``, ``procs`` columns) has a start, none before its
    submission, and never more than ``processors`` busy."""
    assert not np.isnan(start).any(), "a job never started"
    assert (start >= jobs.submit).all(), "a job started before its submission"
    assert peak_busy(start, start + jobs.run, jobs.procs) <= processors, "more processors busy than P"


def run_from_empty(name: str, example: Mapping[str, Any], jobs: Any, processors: int) -> np.ndarray:
    """Start times of one run of policy ``name`` (with parameters ``example``) from an empty machine;
    asserts that the machine ends empty, every job taken and every processor free."""
    policy = load_families()["rigid"].policies[name]
    cols = columns(jobs.submit, jobs.run, jobs.requested, jobs.procs, jobs.priority)
    state, _ = policy.hooks.run(cols, processors, policy.make_params(example))
    counts = state.counts[0]
    assert (counts["next"], counts["waiting"], counts["running"]) == (len(cols.submit), 0, 0)
    assert counts["free"] == processors
    return state.start


@dataclass(frozen=True)
class SmallJobs:
    """The columns of a small workload in submit order, and its machine's size."""

    submit: np.ndarray
    run: np.ndarray
    requested: np.ndarray
    procs: np.ndarray
    priority: np.ndarray
    processors: int


def small_jobs(rng: np.random.Generator) -> SmallJobs:
    """Up to 24 jobs on up to 8 processors with integer times: many equal timestamps, equal keys and
    early completions (run <= requested), every fifth job or so at a higher priority."""
    n = int(rng.integers(1, 25))
    processors = int(rng.integers(1, 9))
    submit = np.sort(rng.integers(0, 30, n)).astype(float)
    requested = rng.integers(1, 12, n).astype(float)
    run = np.minimum(requested, rng.integers(1, 12, n)).astype(float)
    procs = rng.integers(1, processors + 1, n)
    priority = np.where(rng.random(n) < 0.2, 2.0, 0.0)
    return SmallJobs(submit, run, requested, procs, priority, processors)


def kernel_and_reference(name: str, example: Mapping[str, Any], jobs: Any,
                         processors: int) -> tuple[np.ndarray, list]:
    """The start times of policy ``name``'s kernel and of its reference (:func:`sweep.testing.naive.
    reference_of`: the pass it names and its order key), on ``jobs``."""
    policy = load_families()["rigid"].policies[name]
    got = policy.hooks.schedule(jobs.submit, jobs.run, jobs.requested, jobs.procs, jobs.priority,
                                processors, policy.make_params(example))
    reference = reference_of(policy)
    if reference is None:
        raise LookupError(f"rigid policy {name!r} has no reference: {HOW_TO_ADD.format(name=name)}")
    want, _ = naive.simulate(reference.discipline, jobs.submit.tolist(), jobs.run.tolist(),
                             jobs.requested.tolist(), jobs.procs.tolist(), processors, key=reference.key,
                             priority=jobs.priority.tolist())
    return got, want


def compare_with_reference(name: str, example: Mapping[str, Any], cases: int = 400) -> None:
    """``cases`` small random workloads (:func:`small_jobs`): the kernel and the policy's reference
    start every job at the same time; else one ``AssertionError`` naming the policy, the case and
    the first job that differs."""
    rng = np.random.default_rng(2024)
    for case in range(cases):
        jobs = small_jobs(rng)
        got, want = kernel_and_reference(name, example, jobs, jobs.processors)
        assert_matches(name, f"{dict(example)}, case {case}: {len(jobs.submit)} jobs on {jobs.processors} "
                             "processors", {"start": got}, {"start": want})
