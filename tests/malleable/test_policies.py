"""Malleable policies: theory, hand-worked traces, invariants, the naive reference (seed 000 §2)."""

import numpy as np
import pytest
from naive import malleable as naive

from sweep.families import Point, StopRule, load_families
from sweep.families.malleable import _core
from sweep.families.malleable.simulate import simulate
from sweep.families.malleable.workload import make_jobs
from sweep.workloads.speedup import average_parallelism

POLICIES = load_families()["malleable"].policies

#: (policy, options): every variant the generic checks run over (STYLE pattern 5)
VARIANTS = [("eqs", {}), ("eqs", {"fractional": True}), ("eqs_pws", {}),
            ("eqs_pws", {"fractional": True}), ("fb_pws", {"quantum": 10.0}),
            ("fb_asp", {"quantum": 10.0}), ("eqs_avg", {}),
            ("eqs", {"repartition_overhead": 5.0}), ("eqs", {"repartition_period": 50.0}),
            ("eqs_pws", {"repartition_period": 50.0, "repartition_overhead": 5.0}),
            ("fb_pws", {"quantum": 10.0, "repartition_overhead": 5.0})]
IDS = [f"{name}{'_' + '_'.join(map(str, o.values())) if o else ''}" for name, o in VARIANTS]

FIG6B = {"name": "fig6b", "kind": "malleable", "parallelism": "dist1", "demand_mean": 1000.0,
         "demand_scv": 100.0, "demand_growth": "n2", "demand_normalise": True,
         "speedup": {"model": "eq5", "phi_prime": 0.01, "beta_prime": "max"}}


def run(name, options, jobs, processors, target=None):
    """``(depart, acquired, ist, fst)`` after ``target`` departures (all by default)."""
    policy = POLICIES[name]
    target = len(jobs) if target is None else target
    stop = _core.Stop(warmup=0, target=target, cap=len(jobs) + 1, blen=target)
    st = policy.hooks.run(jobs, processors, policy.make_params(options), stop)
    return st[4], st[1], st[6], st[7]


@pytest.mark.parametrize(("scv", "load"), [(1.0, 0.5), (1.0, 0.8), (4.0, 0.5), (4.0, 0.8)])
def test_fractional_eqs_with_linear_speedup_is_mg1_processor_sharing(scv, load):
    # N_j >= P, linear speedup, real shares: M/G/1-PS at rate P, E[R] = E[W] / (P(1 − ρ))
    workload = {**FIG6B, "parallelism": 128, "demand_scv": scv, "demand_growth": "none",
                "speedup": {"model": "linear"}}
    point = Point(policy={"name": "eqs", "fractional": True}, workload=workload,
                  system={"processors": 128}, load=load,
                  stop=StopRule(jobs=1_000_000, warmup=50_000))
    result = simulate(point, np.random.default_rng(2026))
    expected = 1000.0 / (128 * (1 - load))
    assert result.summary["mean_response"] == pytest.approx(expected, rel=0.02)
    assert result.summary["utilization"] == pytest.approx(load, rel=0.02)
    assert not result.summary["saturated"]


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_one_job_at_a_time_takes_its_own_execution_time(name, options, stream):
    # arrivals far apart: every job runs alone on min(N_j, P) processors, response T(min(N_j, P))
    rng = np.random.default_rng(4)
    k = 50
    n = rng.integers(1, 40, k)
    a = rng.uniform(10, 1000, k)
    b = rng.uniform(0, 5, k)
    c = rng.uniform(0, 1, k) / n**2
    jobs = stream(np.arange(k) * 1e5, a, b, c, n)
    depart, acq, ist, fst = run(name, options, jobs, 32)
    x = np.minimum(n, 32)
    np.testing.assert_allclose(depart - jobs.arrival, a / x + b + c * x, rtol=1e-9)
    np.testing.assert_allclose(acq, x * (a / x + b + c * x), rtol=1e-9)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_allocations_never_exceed_p_or_n(name, options):
    jobs = make_jobs(FIG6B, 64, 0.9, 20_000, np.random.default_rng(8))
    jobs = type(jobs)(**{**jobs.__dict__, "parallelism": np.minimum(jobs.parallelism, 64)})
    depart, acq, ist, fst = run(name, options, jobs, 64, target=15_000)
    assert fst[_core.F_MAX_TOTAL] <= 64 + 1e-9
    assert fst[_core.F_MAX_TOTAL] > 32  # the check saw a busy system
    assert fst[_core.F_MAX_OVER] <= 1e-9
    assert ist[_core.I_DEP] == 15_000


def test_eqs_rounds_up_for_less_acquired_service(stream):
    # P = 4, linear. A (W 8) alone on 4 until B (W 6) arrives at 1: 2 + 2. C (W 2) at 2:
    # 4/3 -> 1, 1, and the extra processor to C (acquired 0 < B's 2 < A's 6); C ends at 3.
    # A (1 left) and B (3 left) on 2 + 2: A ends 3.5; B alone on 4 with 2 left ends 4.
    jobs = stream([0.0, 1.0, 2.0], [8.0, 6.0, 2.0], n=[4, 4, 4])
    depart, acq, _, _ = run("eqs", {}, jobs, 4)
    np.testing.assert_allclose(depart, [3.5, 4.0, 3.0])
    np.testing.assert_allclose(acq, [8.0, 6.0, 2.0])  # linear speedup: acquired = work
    fractional, _, _, _ = run("eqs", {"fractional": True}, jobs, 4)
    assert not np.allclose(fractional, depart)


def test_eqs_caps_at_parallelism(stream):
    # P = 8: A (N 2, W 4) gets 2 and ends at 2; B (N 8, W 18) gets 6, then 8: 18 − 12 = 6 left -> 2.75
    depart, _, _, _ = run("eqs", {}, stream([0.0, 0.0], [4.0, 18.0], n=[2, 8]), 8)
    np.testing.assert_allclose(depart, [2.0, 2.75])


def test_eqs_pws_caps_the_first_phase_at_pws(stream):
    # A: eq. 8 with δ = 2 (pws 2), W = 3: T(n) = (2 + n)/n. B: linear, W 18 (pws 8). P = 8.
    # EQS-PWS: A on min(pws, N) = 2, T(2) = 2 -> ends 2; B on 6, then 8 -> 2.75.
    # EQS: 4 + 4; A: T(4) = 1.5 -> ends 1.5; B did 6, 12 left on 8 -> 3.0.
    jobs = stream([0.0, 0.0], [2.0, 18.0], b=[1.0, 0.0], n=[8, 8])
    assert list(jobs.pws) == [2, 8]
    np.testing.assert_allclose(run("eqs_pws", {}, jobs, 8)[0], [2.0, 2.75])
    np.testing.assert_allclose(run("eqs", {}, jobs, 8)[0], [1.5, 3.0])


def test_fb_pws_configures_from_s_and_runs_the_last_job_on_fewer(stream):
    # P = 8, linear, N = pws = 8. A (W 16) arrives alone: 8/(0 + 8)·8 = 8. B (W 4) at 1:
    # S = 8 -> 8/(8 + 8)·8 = 4. From 1: B (acquired 0) runs on 4, A (8 acquired) does not fit
    # its 8 and runs on the 4 left. B ends at 2; A did 8 + 4, alone on 8 again: ends 2.5.
    depart, acq, _, _ = run("fb_pws", {"quantum": 10.0}, stream([0.0, 1.0], [16.0, 4.0], n=[8, 8]), 8)
    np.testing.assert_allclose(depart, [2.5, 2.0])


def test_fb_asp_time_slices_by_least_acquired_service(stream):
    # P = 4, quantum 1, linear. A (W 10) and B (W 4) both arrive at 0: sizes 4 and 4/2 = 2.
    # Slice at 0: tie at 0 acquired, A first (arrival order) takes all 4; B waits.
    # Slice at 1: B (0) on 2, A (4) on the 2 left; so on every slice. B ends at 3
    # (4 on 2); A: 4 + 2·2 = 8 by 3, 2 left alone on 4: ends 3.5.
    depart, _, ist, _ = run("fb_asp", {"quantum": 1.0}, stream([0.0, 0.0], [10.0, 4.0], n=[4, 4]), 4)
    np.testing.assert_allclose(depart, [3.5, 3.0])
    assert ist[_core.I_EVENTS] == 2 + 2 + 2  # arrivals, departures, slice ends at 1 and 2


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_kernels_match_the_naive_reference(name, options):
    rng = np.random.default_rng(11)
    workload = {**FIG6B, "parallelism": "dist3", "demand_scv": 4.0,
                "speedup": {"model": "eq5", "phi_prime": 0.02, "beta_prime": 0.0001}}
    jobs = make_jobs(workload, 16, 0.8, 400, rng)
    target = 300
    ncap = np.minimum(jobs.parallelism, 16)
    pws = jobs.pws
    if name == "eqs_avg":  # EQS-PWS with avg in place of pws
        pws = average_parallelism(jobs.a, jobs.b, jobs.c, ncap)
    want = naive.simulate(jobs.arrival.tolist(), jobs.a.tolist(), jobs.b.tolist(),
                          jobs.c.tolist(), ncap.tolist(), pws.tolist(), 16,
                          "eqs_pws" if name == "eqs_avg" else name, target, **options)
    got, _, ist, _ = run(name, options, jobs, 16, target=target)
    assert ist[_core.I_DEP] == target
    np.testing.assert_allclose(got, np.array(want), rtol=1e-9)
    plain = {k: v for k, v in options.items() if not k.startswith("repartition")}
    if plain != options:  # the §4.3 options change the schedule (the check is not vacuous)
        assert not np.allclose(run(name, plain, jobs, 16, target=target)[0], got, equal_nan=True)
