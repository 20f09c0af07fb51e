"""Checks of any dispatch policy, and the points and workloads they run on.

:func:`check_simulation` is what every dispatch policy, sweep's own and a plugin's, must satisfy
(``tests/dispatch/test_family.py`` runs it over sweep's; :mod:`sweep.testing.test_generic` over
a plugin's): the family's declared variables, and every job served once, in arrival order on
its host, as soon as both it and the host are there (the hosts are FCFS, one job at a time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families

__all__ = ["WORKLOADS", "check_simulation", "point", "usable_workload"]

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
