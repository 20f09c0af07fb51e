"""Malleable policies by hand and in theory (CV96 §2); the generic checks are in test_contract.py."""

import numpy as np
import pytest

from sweep.families import Point, StopRule
from sweep.families.malleable._simulate import simulate

from ._util import run

FIG6B = {"name": "fig6b", "kind": "malleable", "parallelism": "dist1", "demand_mean": 1000.0,
         "demand_scv": 100.0, "demand_growth": "n2", "demand_normalise": True,
         "speedup": {"model": "eq5", "phi_prime": 0.01, "beta_prime": "max"}}


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
    # within the run's 90% interval (a fixed 2% held by luck: the hw is 2-3% here; issue 15 redrew the stream)
    assert abs(result.summary["mean_response"] - expected) <= result.summary["mean_response_hw90"]
    assert result.summary["utilization"] == pytest.approx(load, rel=0.02)
    assert not result.summary["saturated"]


@pytest.mark.kernel
def test_eqs_rounds_up_for_less_acquired_service(stream):
    # P = 4, linear. A (W 8) alone on 4 until B (W 6) arrives at 1: 2 + 2. C (W 2) at 2:
    # 4/3 -> 1, 1, and the extra processor to C (acquired 0 < B's 2 < A's 6); C ends at 3.
    # A (1 left) and B (3 left) on 2 + 2: A ends 3.5; B alone on 4 with 2 left ends 4.
    jobs = stream([0.0, 1.0, 2.0], [8.0, 6.0, 2.0], n=[4, 4, 4])
    out = run("eqs", {}, jobs, 4)
    np.testing.assert_allclose(out.state.depart, [3.5, 4.0, 3.0])
    np.testing.assert_allclose(out.state.acquired, [8.0, 6.0, 2.0])  # linear speedup: acquired = work
    fractional = run("eqs", {"fractional": True}, jobs, 4).state.depart
    assert not np.allclose(fractional, out.state.depart)


@pytest.mark.kernel
def test_eqs_caps_at_parallelism(stream):
    # P = 8: A (N 2, W 4) gets 2 and ends at 2; B (N 8, W 18) gets 6, then 8: 18 − 12 = 6 left -> 2.75
    out = run("eqs", {}, stream([0.0, 0.0], [4.0, 18.0], n=[2, 8]), 8)
    np.testing.assert_allclose(out.state.depart, [2.0, 2.75])


@pytest.mark.kernel
def test_eqs_pws_caps_the_first_phase_at_pws(stream):
    # A: eq. 8 with δ = 2 (pws 2), W = 3: T(n) = (2 + n)/n. B: linear, W 18 (pws 8). P = 8.
    # EQS-PWS: A on min(pws, N) = 2, T(2) = 2 -> ends 2; B on 6, then 8 -> 2.75.
    # EQS: 4 + 4; A: T(4) = 1.5 -> ends 1.5; B did 6, 12 left on 8 -> 3.0.
    jobs = stream([0.0, 0.0], [2.0, 18.0], b=[1.0, 0.0], n=[8, 8])
    assert list(jobs.pws) == [2, 8]
    np.testing.assert_allclose(run("eqs_pws", {}, jobs, 8).state.depart, [2.0, 2.75])
    np.testing.assert_allclose(run("eqs", {}, jobs, 8).state.depart, [1.5, 3.0])


EVERY_EVENT = {"reschedule": "every_event"}


@pytest.mark.kernel
def test_fb_pws_configures_from_s_and_runs_the_last_job_on_fewer(stream):
    # P = 8, linear, N = pws = 8. A (W 16) arrives alone: 8/(0 + 8)·8 = 8. B (W 4) at 1:
    # S = 8 -> 8/(8 + 8)·8 = 4. Rescheduling at every event, from 1: B (acquired 0) runs on 4,
    # A (8 acquired) does not fit its 8 and runs on the 4 left. B ends at 2; A did 8 + 4, alone
    # on 8 again: ends 2.5.
    jobs = stream([0.0, 1.0], [16.0, 4.0], n=[8, 8])
    out = run("fb_pws", {"quantum": 10.0, **EVERY_EVENT}, jobs, 8)
    np.testing.assert_allclose(out.state.depart, [2.5, 2.0])
    # At slice boundaries only (multiples of 10 s): B finds no idle processor at 1 and waits;
    # A, never preempted, ends at 2, and B runs on its 4 from A's departure: ends 3.
    np.testing.assert_allclose(run("fb_pws", {"quantum": 10.0}, jobs, 8).state.depart, [2.0, 3.0])


@pytest.mark.kernel
@pytest.mark.parametrize("policy", ["fb_pws", "fb_asp"])
def test_fb_arrival_waits_for_the_slice_boundary_and_the_quantum_matters(stream, policy):
    # P = 8, linear, N = 8 (pws 8). A (W 20) alone on 8 from 0. B (W 4) at 1: FB-PWS
    # 8/(8 + 8)·8 = 4, FB-ASP 8/2 = 4. No idle processor: B waits for the next multiple of the
    # quantum (CV96 §2.1: the schedule is made "at the start of each time slice").
    # Quantum 1.5: at 1.5 A has 12 of 20; B (0 acquired) on 4, A does not fit and runs on the
    # 4 left. B ends at 2.5; A keeps its 4 until the boundary at 3 (16 done), then alone on 8:
    # ends 3.25. Quantum 0.5: a boundary at 1, B's arrival: the every-event schedule, B ends
    # at 2 and A (8 + 4 done, alone on 8 from the boundary at 2) at 3. Every event: the same,
    # whatever the quantum.
    jobs = stream([0.0, 1.0], [20.0, 4.0], n=[8, 8])
    np.testing.assert_allclose(run(policy, {"quantum": 1.5}, jobs, 8).state.depart, [3.25, 2.5])
    np.testing.assert_allclose(run(policy, {"quantum": 0.5}, jobs, 8).state.depart, [3.0, 2.0])
    for quantum in (0.5, 1.5, 10.0):
        np.testing.assert_allclose(run(policy, {"quantum": quantum, **EVERY_EVENT}, jobs, 8).state.depart,
                                   [3.0, 2.0])


@pytest.mark.kernel
def test_fb_between_boundaries_waiting_jobs_take_idle_processors_only(stream):
    # FB-ASP, P = 8, quantum 4 (first boundary at 4, after every departure), linear.
    # A (W 4, N 2) at 0: size min(2, 8/1) = 2, on 2: ends 2.
    # B (W 8, N 8) at 0.5: size 8/2 = 4, fits the 6 idle: ends 2.5.
    # C (W 4, N 8) at 1: size round(8/3) = 3 > 2 idle, no job on fewer than its size yet:
    #   C runs on the 2 idle processors, and keeps them until the boundary: ends 3.
    # D (W 0.5, N 8) at 1.5: size 8/4 = 2, nothing idle: waits. A's departure at 2 frees 2:
    #   D starts on its 2: ends 2.25 (running jobs are not resized: C stays on 2).
    # E (W 1, N 8) at 2.3: size round(8/3) = 3 > the 2 idle, and C already runs on fewer than
    #   its size ("at most one job per quantum"): E waits with 2 processors idle. B's departure
    #   at 2.5 leaves 6 idle: E on 3, ends 2.5 + 1/3.
    jobs = stream([0.0, 0.5, 1.0, 1.5, 2.3], [4.0, 8.0, 4.0, 0.5, 1.0], n=[2, 8, 8, 8, 8])
    out = run("fb_asp", {"quantum": 4.0}, jobs, 8)
    np.testing.assert_allclose(out.state.depart, [2.0, 2.5, 3.0, 2.25, 2.5 + 1 / 3], rtol=1e-12)
    assert out.state.changes.sum() == 0  # no job was resized: C never went back to its size
    assert not np.allclose(run("fb_asp", {"quantum": 4.0, **EVERY_EVENT}, jobs, 8).state.depart,
                           out.state.depart)


@pytest.mark.kernel
def test_fb_pws_and_fb_asp_differ_in_the_configured_size_alone(stream):
    # P = 8, quantum 10. A: linear, W 16, N = pws = 8. B at 1: T(x) = 2/x + 1 (eq. 8, δ = 2: pws 2),
    # N 8. Both configure A alone for 8 and run it on 8 until 1 (8 of its 16 done).
    # FB-PWS: B gets round(w/(S + w)·P) = round(2/(8 + 2)·8) = round(1.6) = 2. B (acquired 0) on 2,
    # A does not fit its 8 and runs on the 6 left: A ends at 1 + 8/6 = 7/3, B on 2 (T(2) = 2) at 3.
    # FB-ASP: B gets round(P/J) = 8/2 = 4. B on 4 (T(4) = 1.5) ends at 2.5; A on the 4 left did 6
    # of its 8 by then, alone on 8 again: ends 2.75.
    # (Rescheduling at every event, so that B preempts A at once.)
    jobs = stream([0.0, 1.0], [16.0, 2.0], b=[0.0, 1.0], n=[8, 8])
    assert list(jobs.pws) == [8, 2]
    np.testing.assert_allclose(run("fb_pws", EVERY_EVENT, jobs, 8).state.depart, [7 / 3, 3.0], rtol=1e-12)
    np.testing.assert_allclose(run("fb_asp", EVERY_EVENT, jobs, 8).state.depart, [2.75, 2.5], rtol=1e-12)


@pytest.mark.kernel
def test_fb_asp_time_slices_by_least_acquired_service(stream):
    # P = 4, quantum 1, linear. A (W 10) and B (W 4) both arrive at 0: sizes 4 and 4/2 = 2.
    # Slice at 0: tie at 0 acquired, A first (arrival order) takes all 4; B waits.
    # Slice at 1: B (0) on 2, A (4) on the 2 left; so on every slice. B ends at 3
    # (4 on 2); A: 4 + 2·2 = 8 by 3, 2 left alone on 4: ends 3.5. The same at slice boundaries
    # only: the boundaries are the multiples of 1 s, and B's arrival at 0 finds no idle
    # processor (A, first, took all 4), so the slice at 0 is A's.
    jobs = stream([0.0, 0.0], [10.0, 4.0], n=[4, 4])
    out = run("fb_asp", {"quantum": 1.0, **EVERY_EVENT}, jobs, 4)
    np.testing.assert_allclose(out.state.depart, [3.5, 3.0])
    assert out.scalars.events == 2 + 2 + 2  # arrivals, departures, slice ends at 1 and 2
    np.testing.assert_allclose(run("fb_asp", {"quantum": 1.0}, jobs, 4).state.depart, [3.5, 3.0])
