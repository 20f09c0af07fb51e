"""Checks of any dispatch policy, and the points and workloads they run on.

:func:`check_simulation` is what every dispatch policy, sweep's own and a plugin's, must satisfy
(``tests/dispatch/test_family.py`` runs it over sweep's; :mod:`sweep.testing.test_generic` over
a plugin's): the family's declared variables, and every job served once, in arrival order on
its host, as soon as both it and the host are there (the hosts are FCFS, one job at a time).
:func:`compare_with_reference` runs a policy that has a plain-Python reference (its host rule,
registered with :func:`sweep.testing.naive.reference`) against the event-driven simulation of
:mod:`sweep.testing.naive.dispatch`, job by job and in the summary statistics.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.dispatch._simulate import simulate_arrays
from sweep.families.dispatch._workload import workload_of
from sweep.testing.checks import assert_matches
from sweep.testing.naive import WHERE
from sweep.testing.naive import dispatch as naive

__all__ = ["HOW_TO_ADD", "WORKLOADS", "FixedDraws", "check_simulation", "compare_on_random_jobs",
           "compare_with_reference", "point", "usable_workload"]

#: How a dispatch policy gets a reference ({name}: the policy's).
HOW_TO_ADD = ("register its host rule, rule(view, job, now) -> host (sweep.testing.naive.dispatch), with "
              "@sweep.testing.naive.reference({name!r}), " + WHERE)

#: Small workload sections, as the engine hands them to the family.
WORKLOADS: dict[str, dict[str, Any]] = {
    "exponential": {"name": "exponential", "kind": "exponential", "mean": 1.0},
    "hyperexp2": {"name": "hyperexp2", "kind": "hyperexp2", "mean": 1.0, "scv": 8.0},
    "c90": {"name": "c90", "kind": "c90"},
    "bounded_pareto": {"name": "bounded_pareto", "kind": "bounded_pareto", "k": 332.1,
                       "p": 1.0e10, "alpha": 1.1},
    "ctc": {"name": "ctc", "kind": "trace", "path": "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
            "processors": 8, "max_run_time": 43200.0, "sampling": "bootstrap", "cutoff_fraction": 0.5},
}


def point(policy: str, workload: str = "exponential", *, hosts: int = 2, load: float = 0.5,
          jobs: int = 1000, warmup: int = 0, cap: int = 1_000_000, record: bool = False,
          model: str = "simulation", **params: Any) -> Point:
    """A dispatch point with plain-dict sections, as the engine builds them."""
    return Point(policy={"name": policy, **params}, workload=dict(WORKLOADS[workload]),
                 system={"hosts": hosts}, load=load,
                 stop=StopRule(jobs=jobs, warmup=warmup, max_in_system=cap),
                 record_jobs=record, model=model)


def usable_workload(policy: str, params: Mapping[str, Any],
                    candidates: Sequence[str] = ("hyperexp2", "c90")) -> str:
    """The first of ``candidates`` the policy accepts (SITA-U needs E[1/X] < inf, so not hyperexp2)."""
    family = load_families()["dispatch"]
    for name in candidates:
        try:
            family.validate(point(policy, name, **params))
        except ValueError:
            continue
        return name
    raise AssertionError(f"policy {policy} accepts none of {candidates}")


def check_simulation(policy: str, params: Mapping[str, Any]) -> None:
    """One replication of ``policy`` with ``params`` on 3 hosts at load 0.7: the declared variables,
    and the per-job invariants of FCFS hosts (module docstring)."""
    family = load_families()["dispatch"]
    p = point(policy, usable_workload(policy, params), hosts=3, load=0.7, jobs=5000, warmup=500,
              record=True, **params)
    result = family.simulate(p, np.random.default_rng(0))
    summary = result.summary
    assert set(summary) == {v.name for v in family.variables}
    assert result.work == 5500 and summary["jobs"] == 5000
    assert isinstance(summary["saturated"], bool) and isinstance(summary["jobs"], int)
    for variable in family.variables:
        if variable.dims == ("host",):
            assert np.shape(summary[variable.name]) == (3,)
    assert sum(summary["host_job_fraction"]) == pytest.approx(1.0)
    assert summary["mean_slowdown"] >= 1.0
    assert set(result.jobs) == {"arrival", "size", "job_host", "start", "end"}
    assert all(len(column) == 5000 for column in result.jobs.values())
    jobs = result.jobs
    assert np.all(jobs["start"] >= jobs["arrival"]) and np.all(np.diff(jobs["arrival"]) >= 0)
    np.testing.assert_allclose(jobs["end"] - jobs["start"], jobs["size"], atol=1e-12 * jobs["end"].max())
    whole = family.simulate(point(policy, usable_workload(policy, params), hosts=3, load=0.7, jobs=3000,
                                  record=True, **params), np.random.default_rng(1)).jobs
    check_fcfs_hosts(whole, hosts=3)


def check_fcfs_hosts(jobs: Mapping[str, np.ndarray], hosts: int) -> None:
    """Per-job records of a run from an empty system (no warm-up): every job on a host in range, and
    on each host, in arrival order, ``start = max(arrival, end of the host's previous job)``."""
    host = jobs["job_host"]
    assert np.all((host >= 0) & (host < hosts)), "a job on a host that does not exist"
    for h in range(hosts):
        on = np.flatnonzero(host == h)
        previous_end = np.concatenate(([0.0], jobs["end"][on][:-1]))
        np.testing.assert_allclose(jobs["start"][on], np.maximum(jobs["arrival"][on], previous_end),
                                   rtol=1e-12, err_msg=f"host {h} is not FCFS from the arrivals")


class FixedDraws:
    """Stands in for a policy's generator: hands out the given uniforms in order."""

    def __init__(self, uniforms: Sequence[float]) -> None:
        self._uniforms = list(uniforms)

    def random(self, count: int) -> np.ndarray:
        taken, self._uniforms = self._uniforms[:count], self._uniforms[count:]
        return np.array(taken)


def _random_jobs(rng: np.random.Generator, integer: bool) -> tuple[np.ndarray, np.ndarray]:
    """2-59 jobs: Poisson arrivals and Pareto sizes around 1, or integer ones full of simultaneous
    arrivals, departures and equal backlogs, where the tie rules decide."""
    n = int(rng.integers(2, 60))
    if integer:
        return np.cumsum(rng.integers(0, 3, n)).astype(float), rng.integers(1, 6, n).astype(float)
    return np.cumsum(rng.exponential(1.0, n)), rng.pareto(1.5, n) + 0.2


def _cutoffs(p: Point) -> tuple[float, ...]:
    """The size cutoffs of a size-interval policy (its ``cutoffs`` hook), else none."""
    cutoffs = load_families()["dispatch"].policy(p).hooks.cutoffs
    return tuple(cutoffs(p, workload_of(p.workload))) if cutoffs else ()


def compare_on_random_jobs(policy: str, params: Mapping[str, Any], integer: bool, trials: int = 25) -> None:
    """``trials`` random cases (1-4 hosts, a random warm-up, the same uniforms for both): the
    compiled run, in chunks of 7 jobs, and the reference give every job the same host, start and
    end, and the same summary statistics; else one ``AssertionError`` naming the policy, the case
    and the first difference."""
    rng = np.random.default_rng(zlib.crc32(f"{policy}{dict(params)}{integer}".encode()))
    # Sizes around 1 here, so SITA's cutoffs come from a workload with sizes around 1 too;
    # SITA-U needs E[1/X] < inf: C90 sizes, scaled up to its range.
    workload = usable_workload(policy, params, ("exponential", "c90"))
    chosen = load_families()["dispatch"].policies[policy].make_params(params)
    for trial in range(trials):
        arrival, size = _random_jobs(rng, integer)
        if workload == "c90":
            size = size * 1000.0
        hosts = int(rng.integers(1, 5))
        load = float(rng.choice([0.3, 0.7]))
        warmup = int(rng.integers(0, len(arrival) - 1))
        draws = rng.random(8 * len(arrival))  # enough uniforms for up to 8 per job
        p = point(policy, workload, hosts=hosts, load=load, jobs=len(arrival) - warmup, warmup=warmup,
                  record=True, **params)
        start, end, host = naive.simulate(policy, arrival, size, hosts, cutoffs=_cutoffs(p), draws=draws,
                                          params=chosen)
        result = simulate_arrays(p, arrival, size, FixedDraws(draws), chunk_jobs=7)
        kind = "integer" if integer else "continuous"
        case = (f"{dict(params)}, {kind} case {trial}: {len(arrival)} jobs, "
                f"{hosts} hosts, the first {warmup} not measured: index 0 is job {warmup}")
        assert_matches(policy, case, result.jobs, {"job_host": host[warmup:], "start": start[warmup:],
                                                   "end": end[warmup:]})
        assert_matches(policy, case, result.summary,
                       naive.summary(arrival, size, start, end, host, hosts, warmup), rtol=1e-9, atol=1e-12)


def compare_with_reference(policy: str, params: Mapping[str, Any]) -> None:
    """:func:`compare_on_random_jobs` on continuous and on integer jobs, 25 cases each."""
    for integer in (False, True):
        compare_on_random_jobs(policy, params, integer)
