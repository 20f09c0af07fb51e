"""Runs of any malleable policy on given jobs, and its comparison with its plain-Python reference.

:func:`run` runs a policy until a number of departures (``tests/malleable`` runs sweep's own
policies through it); :func:`compare_with_reference` runs a policy that has a reference (the
rule its hooks name, ``MalleableHooks.naive``, or one registered under its name with
:func:`sweep.testing.naive.reference`) against the event-driven simulation of
:mod:`sweep.testing.naive.malleable` (CV96 §2, §4), job for job, which ``pytest --pyargs
sweep.testing`` runs on a plugin's policies too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sweep.families import load_families
from sweep.families.malleable._core import Outcome, Stop
from sweep.families.malleable._workload import MalleableJobs, make_jobs
from sweep.testing.checks import assert_matches
from sweep.testing.naive import malleable as naive
from sweep.testing.naive import reference_of

__all__ = ["HOW_TO_ADD", "PEAKED_WORKLOAD", "REFERENCE_WORKLOAD", "compare_on_workload",
           "compare_with_reference", "run"]

#: How a malleable policy gets a reference ({name}: the policy's).
HOW_TO_ADD = ("name a rule of sweep.testing.naive.malleable in MalleableHooks.naive, or register an "
              "Equipartition or TimeSlices with @sweep.testing.naive.reference({name!r}) in the module that "
              "defines the policy (docs/plugins.md)")

#: CV96 Figure 6(b)'s workload with C_W^2 = 4, the speedup of Eq. (5) with phi' = 0.02,
#: beta' = 1e-4, N_j from distribution 3: the jobs of the comparison.
REFERENCE_WORKLOAD = {"name": "reference", "kind": "malleable", "parallelism": "dist3", "demand_mean": 1000.0,
                      "demand_scv": 4.0, "demand_growth": "n2", "demand_normalise": True,
                      "speedup": {"model": "eq5", "phi_prime": 0.02, "beta_prime": 0.0001}}
#: The same with Figure 6(b)'s beta' (the speedup peaks at N_j): here the processor working set
#: is below min(N_j, 16) for 223 of the 400 jobs, so a phase one capped at it (EQS-PWS) changes
#: 105 of the 300 departures against EQS; with beta' = 1e-4 it never binds.
PEAKED_WORKLOAD = {**REFERENCE_WORKLOAD, "speedup": {"model": "eq5", "phi_prime": 0.02, "beta_prime": "max"}}

#: The parameters the reference reads, by name, where a policy has them.
OPTIONS = ("fractional", "quantum", "repartition_overhead", "repartition_period", "reschedule")


def run(name: str, options: Mapping[str, Any], jobs: MalleableJobs, processors: int,
        target: int | None = None, cap: int | None = None) -> Outcome:
    """Policy ``name`` with ``options`` on ``jobs`` until ``target`` departures (all by default)."""
    policy = load_families()["malleable"].policies[name]
    target = len(jobs) if target is None else target
    stop = Stop(warmup=0, target=target, cap=len(jobs) + 1 if cap is None else cap, blen=target)
    return policy.hooks.run(jobs, processors, policy.make_params(options), stop)


def compare_with_reference(name: str, example: Mapping[str, Any]) -> None:
    """:func:`compare_on_workload` on :data:`REFERENCE_WORKLOAD` and :data:`PEAKED_WORKLOAD`."""
    for workload in (REFERENCE_WORKLOAD, PEAKED_WORKLOAD):
        compare_on_workload(name, example, workload)


def compare_on_workload(name: str, example: Mapping[str, Any], workload: Mapping[str, Any],
                        processors: int = 16, jobs: int = 400, target: int = 300) -> None:
    """The first ``target`` departures of ``jobs`` jobs of ``workload`` at load 0.8 on
    ``processors`` processors: every departure time the reference's (relative 1e-9); else an
    ``AssertionError`` naming the policy and the first job that differs."""
    policy = load_families()["malleable"].policies[name]
    rule = reference_of(policy)
    if rule is None:
        raise LookupError(f"malleable policy {name!r} has no reference: {HOW_TO_ADD.format(name=name)}")
    params = policy.make_params(example)
    stream = make_jobs(workload, processors, 0.8, jobs, np.random.default_rng(11))
    cap = np.minimum(stream.parallelism, processors)
    hooks = policy.hooks
    pws = stream.pws if hooks.phase_one is None else hooks.phase_one(stream, processors)
    options = {option: getattr(params, option) for option in OPTIONS if hasattr(params, option)}
    want = naive.simulate(stream.arrival.tolist(), stream.a.tolist(), stream.b.tolist(), stream.c.tolist(),
                          cap.tolist(), pws.tolist(), processors, rule, target, **options)
    out = run(name, example, stream, processors, target=target)
    case = (f"{dict(example)}: {jobs} jobs at load 0.8 on {processors} processors, speedup "
            f"{dict(workload['speedup'])}, until {target} departures")
    assert_matches(name, case, {"departed": out.scalars.departed, "depart": out.state.depart},
                   {"departed": target, "depart": want}, rtol=1e-9)
