"""Every registered malleable policy, with each of its examples (``Policy.examples``).

Invariants on small random streams, the declared summary, and job-for-job
agreement with the naive reference of ``sweep/testing/naive/malleable.py`` that the
policy names (``MalleableHooks.naive``; :func:`sweep.testing.malleable.compare_with_reference`,
which ``pytest --pyargs sweep.testing`` runs on a plugin's policies too). No list of policy names here: a new
policy file is checked as soon as it is registered.
"""

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.malleable._workload import make_jobs
from sweep.testing.malleable import REFERENCE_WORKLOAD, compare_with_reference
from sweep.testing.naive import malleable as naive

from ._util import POLICIES, run

#: Figure 6(b)'s workload (C_W = 36): β' = (1 − φ')/N², so the speedup peaks at N_j
FIG6B = {"name": "fig6b", "kind": "malleable", "parallelism": "dist1", "demand_mean": 1000.0,
         "demand_scv": 100.0, "demand_growth": "n2", "demand_normalise": True,
         "speedup": {"model": "eq5", "phi_prime": 0.01, "beta_prime": "max"}}
LINEAR = {**FIG6B, "demand_scv": 4.0, "speedup": {"model": "linear"}}
P = 32


def _execution_time(jobs, x):
    return jobs.a / x + jobs.b + jobs.c * x


def test_every_job_departs_once_after_its_arrival_within_its_caps(example):
    name, options = example
    jobs = make_jobs(FIG6B, P, 0.9, 1500, np.random.default_rng(8))
    out = run(name, options, jobs, P)
    state, end = out.state, out.scalars
    assert end.departed == len(jobs) and end.in_system == 0 and not end.saturated
    assert np.all(np.isfinite(state.depart))
    response = state.depart - jobs.arrival
    cap = np.minimum(jobs.parallelism, P)
    # no job can beat its execution time alone on min(N_j, P): its speedup peaks at N_j
    assert np.all(response >= _execution_time(jobs, cap) * (1 - 1e-9))
    # never above the cap N_j (acquired processor-seconds) nor above P in total
    assert np.all(state.acquired <= cap * response * (1 + 1e-9))
    assert state.acquired.sum() <= P * (state.depart.max() - jobs.arrival[0]) * (1 + 1e-9)
    assert end.max_allocated <= P + 1e-9 and end.max_over_cap <= 1e-9  # at every event
    assert end.max_allocated > P / 2  # the checks saw a busy system


def test_every_departed_job_received_its_work(example):
    # linear speedup: a job on x processors does x/W of its work per second, so without
    # overhead it leaves with acquired processor-seconds = W; with overhead it holds its
    # processors while stalled, and acquires more
    name, options = example
    jobs = make_jobs(LINEAR, P, 0.9, 1500, np.random.default_rng(9))
    state = run(name, options, jobs, P).state
    rounding = 1e-12 * state.depart.max()  # each event adds x·dt, dt a difference of clock readings
    # the work left at departure (processor-seconds): the rounding of the last step alone
    assert np.all(np.abs(state.remaining) * jobs.work <= P * rounding)
    if options.get("repartition_overhead", 0.0) == 0.0:
        np.testing.assert_allclose(state.acquired, jobs.work, rtol=1e-9, atol=rounding)
    else:
        assert np.all(state.acquired >= jobs.work * (1 - 1e-9) - rounding)
        assert np.any(state.acquired > jobs.work * 1.01)


def test_one_job_at_a_time_takes_its_own_execution_time(example, stream):
    # arrivals far apart: every job runs alone on min(N_j, P) processors, response T(min(N_j, P))
    name, options = example
    rng = np.random.default_rng(4)
    k = 50
    n = rng.integers(1, 40, k)
    a = rng.uniform(10, 1000, k)
    b = rng.uniform(0, 5, k)
    c = rng.uniform(0, 1, k) / n**2
    jobs = stream(np.arange(k) * 1e5, a, b, c, n)
    state = run(name, options, jobs, P).state
    x = np.minimum(n, P)
    np.testing.assert_allclose(state.depart - jobs.arrival, a / x + b + c * x, rtol=1e-9)
    np.testing.assert_allclose(state.acquired, x * (a / x + b + c * x), rtol=1e-9)


def test_summary_has_every_declared_variable(example):
    name, options = example
    family = load_families()["malleable"]
    point = Point(policy={"name": name, **options}, workload=FIG6B, system={"processors": 128},
                  load=0.6, stop=StopRule(jobs=400, warmup=40))
    family.validate(point)
    result = family.simulate(point, np.random.default_rng(1))
    assert set(result.summary) == {v.name for v in family.variables}
    assert result.summary["jobs"] == 400 and result.summary["batches"] == 20
    assert 0 < result.summary["mean_response_hw90"] < result.summary["mean_response"]
    assert result.summary["mean_response_direct"] == result.summary["mean_response"]  # no control
    assert 1 <= result.summary["mean_allocation"] <= 128 and 0 < result.summary["utilization"] < 1
    assert not result.summary["saturated"]
    assert result.work > 2 * 440  # events: at least an arrival and a departure per job


@pytest.mark.kernel
def test_matches_the_naive_reference(example):
    name, options = example
    hooks = POLICIES[name].hooks
    assert hooks.naive is not None, (f"malleable policy {name!r} names no naive reference "
                                     f"(MalleableHooks.naive: one of {', '.join(naive.RULES)})")
    compare_with_reference(name, options)
    plain = {k: v for k, v in options.items() if not k.startswith("repartition")}
    if plain != options:  # the §4.3 options change the schedule (the check is not vacuous)
        jobs = make_jobs(REFERENCE_WORKLOAD, 16, 0.8, 400, np.random.default_rng(11))
        assert not np.allclose(run(name, plain, jobs, 16, target=300).state.depart,
                               run(name, options, jobs, 16, target=300).state.depart, equal_nan=True)


def test_a_reference_named_by_no_policy_fails_with_where_to_add_it():
    with pytest.raises(LookupError, match=r"^no naive reference for malleable rule 'eqs_eff': register an "
                                          r"Equipartition or TimeSlices under that name in .* "
                                          r"\(known: eqs, eqs_pws"):
        naive.simulate([0.0], [1.0], [0.0], [0.0], [1], [1.0], 1, "eqs_eff", 1)
