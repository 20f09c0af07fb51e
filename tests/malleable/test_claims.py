"""CV96's claims (§4.1–4.3, §5) on reduced runs of the cv96_* workloads.

Each test is named for a claim of the paper and asserts that claim; where the
reconstruction disagrees it is a strict expected failure whose reason gives the
measured value and the cause (``reproduction/cv96.md`` has the full-length
numbers and the claim inventory). Saturation claims are asserted on full-length
runs in ``test_claims_full.py`` (``slow``); here they are checked as the trend a
reduced run can see: the ratio to EQS near the top of the load range.

Every comparison uses common random numbers (one generator seed per workload
and load) and fixed-length runs far shorter than the ±5% runs. A ratio's 90%
interval combines the two means' intervals as if independent (wider than the
truth under common random numbers), and a claim holds when the measured ratio
is within that interval of the claim's bound (:func:`holds_below`). Terms the
paper leaves to the figures are read once for all tests: "comparable" or
"competitive" is within 20% of EQS (:data:`COMPARABLE`), "identical" within 3%
(:data:`IDENTICAL`), "as well as or better" no more than 2% worse (:data:`AS_WELL`).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np
import pytest

from sweep.engine.config import load_option
from sweep.families import Point, StopRule
from sweep.families.malleable.simulate import simulate

COMPARABLE = 0.20
IDENTICAL = 0.03
AS_WELL = 0.02
#: the control variates of the presets of Figures 5–9 (C_W = 5 to 36): a short run's plain mean is
#: decided by which huge jobs departed (reproduction/cv96.md, "Control variates")
CONTROLS = ("demand", "processor_sharing")


@functools.cache
def _workload(name: str, scv: float | None = None) -> dict:
    cfg = load_option("workload", name)
    if scv is not None:
        cfg["demand_scv"] = scv
    return cfg


@functools.cache
def measure(workload: str, policy: str, load: float, jobs: int = 40_000, scv: float | None = None,
            overhead: float = 0.0, period: float | None = None, control: tuple[str, ...] = CONTROLS,
            reschedule: str | None = None) -> dict:
    """One fixed-length run (``jobs`` measured after one discarded batch), seed fixed per workload/load.

    ``control``: the control variates (``stop.control_variate``) of the mean's estimate; ``()``
    for Figures 10–11 (10(b)'s arrivals are not Poisson: the twin's mean is not known).
    """
    options: dict = {"name": policy, "repartition_overhead": overhead}
    if period is not None:
        options["repartition_period"] = period
    if reschedule is not None:
        options["reschedule"] = reschedule
    point = Point(policy=options, workload=_workload(workload, scv), system={"processors": 128},
                  load=load, stop=StopRule(jobs=jobs, warmup=0, max_in_system=2000,
                                            control_variate=list(control)))
    return simulate(point, np.random.default_rng(1996)).summary


class Ratio(NamedTuple):
    """A ratio of mean response times and its 90% half-width."""

    value: float
    hw: float

    def __str__(self) -> str:
        return f"{self.value:.3f} ± {self.hw:.3f}"


def ratio(workload: str, policy: str, load: float, base: str = "eqs", base_kw: dict | None = None,
          **kw) -> Ratio:
    """``policy``'s mean response time over ``base``'s (EQS without overhead by default), same jobs.

    ``base`` runs with the run-length options of ``kw`` and its own ``base_kw``.
    """
    shared = {k: v for k, v in kw.items() if k in ("jobs", "scv", "control")}
    top = measure(workload, policy, load, **kw)
    bottom = measure(workload, base, load, **shared, **(base_kw or {}))
    value = top["mean_response"] / bottom["mean_response"]
    relative = math.hypot(top["mean_response_hw90"] / top["mean_response"],
                          bottom["mean_response_hw90"] / bottom["mean_response"])
    return Ratio(value, value * relative)


def holds_below(r: Ratio, bound: float) -> bool:
    """The claim "ratio ≤ bound" is consistent with the run: the ratio is below it or within its CI."""
    return r.value - r.hw <= bound


def holds_above(r: Ratio, bound: float) -> bool:
    """The claim "ratio ≥ bound" is consistent with the run."""
    return r.value + r.hw >= bound


def comparable(r: Ratio, tolerance: float = COMPARABLE) -> bool:
    """Within ``tolerance`` of 1, up to the ratio's CI."""
    return holds_below(r, 1 + tolerance) and holds_above(r, 1 - tolerance)


# §4.1, Figure 5 -------------------------------------------------------------------------------

def test_fig5_fb_pws_competitive_with_eqs_throughout_at_cw_5():
    """§4.1: "FB-PWS is competitive with EQS throughout the range of offered load" — C_W = 5. At
    C_W = 30 a 10^5-job run puts FB-PWS at 1.22–1.35× EQS at ρ = 0.7–0.9 where the full runs
    measure 1.02–1.18 (half of the work is in 0.06% of the jobs): ``test_claims_full.py``."""
    for load in (0.3, 0.5, 0.7, 0.9):
        r = ratio("cv96_fig5", "fb_pws", load, scv=25.0, jobs=100_000)
        assert comparable(r), f"ρ = {load}: FB-PWS / EQS = {r}"


def test_fig5_eqs_degrades_before_fb_pws_at_cw_5():
    """§4.1: "the system with the EQS policy saturates at a slightly earlier point than the FB-PWS
    system" — as a reduced run can see it: FB-PWS's ratio to EQS falls below 1 at high load
    (EQS's response time grows faster). Flags on full runs: ``test_claims_full.py``.
    """
    r8, r9 = (ratio("cv96_fig5", "fb_pws", load, scv=25.0, jobs=100_000) for load in (0.8, 0.9))
    assert r9.value < r8.value and r9.value + r9.hw < 1.0, f"0.8: {r8}, 0.9: {r9}"


def test_fig5_utilisation_92_to_99_percent_at_rho_0_9():
    """§4.1: "When ρ = 0.9, system utilization for FB-PWS or EQS is in the range of 92% - 99%"."""
    for policy in ("eqs", "fb_pws"):
        for scv in (25.0, 900.0):
            utilisation = measure("cv96_fig5", policy, 0.9, scv=scv, jobs=100_000)["utilization"]
            assert 0.92 <= utilisation <= 0.99 + 0.01, f"{policy}, C_W² = {scv}: {utilisation:.3f}"


# §4.1, Figures 6–7 ----------------------------------------------------------------------------

@pytest.mark.parametrize("workload", ["cv96_fig6a", "cv96_fig7a"])
def test_fig6a_7a_fb_pws_comparable_to_eqs_throughout(workload):
    """§4.1: 6(a), φ' = 0: "FB-PWS is comparable to the EQS policy throughout the entire range of
    offered load"; 7(a) "very similar" to 6(a)."""
    for load in (0.3, 0.5, 0.7, 0.8, 0.9):
        r = ratio(workload, "fb_pws", load, jobs=100_000)
        assert comparable(r), f"ρ = {load}: FB-PWS / EQS = {r}"


@pytest.mark.parametrize("workload", ["cv96_fig6b_cwn2", "cv96_fig7b"])
def test_fig6b_7b_fb_pws_saturates_sooner_than_eqs(workload):
    """§4.1: with φ' = 0.01 (6b) "FB-PWS saturates sooner than EQS"; 7(b) like 6(b) — as a reduced
    run sees it: FB-PWS's ratio to EQS rises with load and is above 1 at high load (it does not
    in 6(a), 7(a)). Figure 6(b) itself only on full runs (``test_claims_full.py``): at 10^5 jobs its
    ratio at ρ = 0.9 is 0.90 ± 0.36 (C_W = 36: the huge jobs that decide saturation barely
    depart); here its C_{W|n} = 2 variant, which the paper calls largely the same.
    """
    r7, r9 = (ratio(workload, "fb_pws", load, jobs=100_000) for load in (0.7, 0.9))
    assert r9.value > r7.value and r9.value - r9.hw > 1.0, f"0.7: {r7}, 0.9: {r9}"


@pytest.mark.parametrize("workload", ["cv96_fig6a", "cv96_fig6b", "cv96_fig7a", "cv96_fig7b"])
def test_eqs_pws_identical_to_eqs_on_figures_6_7(workload):
    """§4.2: "For the workloads in Figures 6-7, EQS-PWS has identical performance to EQS"."""
    for load in (0.5, 0.8):
        r = ratio(workload, "eqs_pws", load, jobs=100_000)
        assert comparable(r, IDENTICAL), f"ρ = {load}: EQS-PWS / EQS = {r}"


@pytest.mark.parametrize("variant", ["a", "b"])
def test_fig6_with_cwn_2_largely_the_same(variant):
    """§4.1: "Figure 6(a) and (b) are largely the same if the workloads are changed to have
    C_{W|n} = 2": FB-PWS's ratio to EQS within 20% of its ratio with C_{W|n} = 10 (ρ = 0.5, 0.7:
    above, a 10^5-job run of the C_{W|n} = 10 workload is too noisy; full runs in reproduction/cv96.md)."""
    for load in (0.5, 0.7):
        two = ratio(f"cv96_fig6{variant}_cwn2", "fb_pws", load, jobs=100_000)
        ten = ratio(f"cv96_fig6{variant}", "fb_pws", load, jobs=100_000)
        both = Ratio(two.value / ten.value, two.value / ten.value * math.hypot(two.hw / two.value,
                                                                                ten.hw / ten.value))
        assert comparable(both), f"ρ = {load}: C_W|n = 2: {two}, 10: {ten}"


@pytest.mark.xfail(strict=True, reason=(
    "measured (10^5 jobs): FB-ASP / EQS at ρ = 0.9 is 1.76 ± 0.14 with C_W|n = 2 against 1.29 ± 0.23 "
    "with C_W|n = 10 (FB-PWS 1.00 ± 0.05): worse at high load, not better, under either reading "
    "(against EQS or FB-PWS); not explained (FB-ASP's sizes P/J ignore pws; the paper shows no figure)"))
def test_fig6a_with_cwn_2_fb_asp_better_at_high_load():
    """§4.1: with C_{W|n} = 2, "except that the FB-ASP policy has better performance at high load in
    the case that φ' = 0": FB-ASP's ratio to EQS at ρ = 0.9 is lower than with C_{W|n} = 10."""
    two = ratio("cv96_fig6a_cwn2", "fb_asp", 0.9, jobs=100_000)
    ten = ratio("cv96_fig6a", "fb_asp", 0.9, jobs=100_000)
    assert two.value + two.hw < ten.value - ten.hw, f"C_W|n = 2: {two}, 10: {ten}"


# §4.2, EQS-PWS and EQS-AVG; Figures 8–9 --------------------------------------------------------

def test_eqs_avg_about_the_same_as_eqs():
    """§4.2: "In [4], the EQS-AVG was found to have approximately the same performance as EQS" —
    on the Figure 6(a) workload, where EQS-PWS is identical to EQS too (avg: reconstructed)."""
    for load in (0.5, 0.8):
        r = ratio("cv96_fig6a", "eqs_avg", load, jobs=100_000)
        assert comparable(r, IDENTICAL), f"ρ = {load}: EQS-AVG / EQS = {r}"


@pytest.mark.parametrize(("workload", "scv"), [
    ("cv96_fig5", 25.0),
    pytest.param("cv96_fig5", 900.0, marks=pytest.mark.xfail(strict=True, reason=(
        "measured (10^5 jobs): EQS-PWS / EQS = 1.044 ± 0.013 at ρ = 0.5 with C_W = 30 (full runs: "
        "1.01–1.05 at ρ ≤ 0.6): with few jobs present, the two-phase split gives the jobs whose "
        "pws < N_j less than EQS's equal share (phase two spreads the rest equally); cause not "
        "isolated; the paper: never worse"))),
    ("cv96_fig9a", None), ("cv96_fig9b", None)], ids=["fig8-C_W=5", "fig8-C_W=30", "fig9a", "fig9b"])
def test_eqs_pws_as_well_as_or_better_than_eqs(workload, scv):
    """§4.2, §5: "EQS-PWS always performs as well as or better than EQS" (Figures 8, 9)."""
    for load in (0.5, 0.8, 0.9):
        r = ratio(workload, "eqs_pws", load, scv=scv, jobs=100_000)
        assert holds_below(r, 1 + AS_WELL), f"ρ = {load}: EQS-PWS / EQS = {r}"


@pytest.mark.parametrize(("workload", "scv"),
                         [("cv96_fig5", 25.0), ("cv96_fig5", 900.0), ("cv96_fig9b", None)],
                         ids=["fig8-C_W=5", "fig8-C_W=30", "fig9b"])
def test_eqs_pws_as_well_as_or_better_than_fb_pws(workload, scv):
    """§4.2, §5: "For the workloads examined, EQS-PWS always performs as well as or better than EQS
    and FB-PWS" (Figures 8, 9). Figure 9(a) on full runs (``test_claims_full.py``): at 10^5 jobs
    the ratio at ρ = 0.9 is 1.19 ± 0.25, which decides nothing."""
    for load in (0.5, 0.8, 0.9):
        r = ratio(workload, "eqs_pws", load, base="fb_pws", scv=scv, jobs=100_000)
        assert holds_below(r, 1 + AS_WELL), f"ρ = {load}: EQS-PWS / FB-PWS = {r}"


def test_fig9a_eqs_degrades_before_fb_pws_and_eqs_pws_avoids_it():
    """§4.2, §5: "EQS saturates before FB-PWS (Figures 8, 9(a))"; "EQS-PWS avoids the early
    saturation of EQS" — as a reduced run sees it: FB-PWS and EQS-PWS below EQS at high load, by
    more at 0.9 than at 0.8. Flags on full runs: ``test_claims_full.py``."""
    r8, r9 = (ratio("cv96_fig9a", "fb_pws", load, jobs=100_000) for load in (0.8, 0.9))
    assert r9.value < r8.value and r9.value + r9.hw < 1.0, f"FB-PWS / EQS: 0.8: {r8}, 0.9: {r9}"
    pws = ratio("cv96_fig9a", "eqs_pws", 0.9, jobs=100_000)
    assert pws.value + pws.hw < 1.0, f"EQS-PWS / EQS at 0.9: {pws}"


# §4.3, Figures 10–11 ----------------------------------------------------------------------------

@pytest.mark.parametrize("workload", ["cv96_fig10a", "cv96_fig10b"])
def test_fig10_relative_performance_unchanged_by_the_5s_overhead(workload):
    """§4.3: relative performance "unchanged for the given workload, with or without repartitioning
    overhead" (10a; 10(b) "holds even if the coefficient of variation of interarrival times is
    increased to three"): the order of EQS, EQS-PWS and FB-PWS at 30 jobs/hour is the same with
    and without the 5 s overhead (EQS-PWS ties EQS both ways: within 3%). 10^5 jobs: at 4·10^4 the
    intervals (±13–17%) put FB-PWS / EQS on 10(b), 1.14 and 1.18, one side or the other of "tied"
    by 1% depending on the stream (issue 15); at 10^5, 1.14 ± 0.11 and 1.17 ± 0.12."""
    order = {}
    for overhead in (0.0, 5.0):
        # over EQS with the same overhead
        same = {"overhead": overhead, "base_kw": {"overhead": overhead}, "control": (), "jobs": 100_000}
        fb, pws = ratio(workload, "fb_pws", 30.0, **same), ratio(workload, "eqs_pws", 30.0, **same)
        assert comparable(pws, IDENTICAL), f"overhead {overhead}: EQS-PWS / EQS = {pws}"
        order[overhead] = "behind" if fb.value - fb.hw > 1 else "ahead" if fb.value + fb.hw < 1 else "tied"
    assert order[0.0] == order[5.0], f"FB-PWS against EQS: {order}"


@pytest.mark.parametrize("workload", ["cv96_fig10a", "cv96_fig10b"])
@pytest.mark.parametrize("policy", ["eqs", "eqs_pws"])
def test_fig10_utilisation_82_to_85_percent_at_30_jobs_per_hour(workload, policy):
    """§4.3: "The system utilization at arrival rate of 30 jobs/hour is 82%-85%" (with overhead;
    ±1 point: the paper rounds to whole percents), as a reduced run can tell: the run's 90% interval
    meets 81–86%. FB-PWS on full runs (``test_claims_full.py``): 40,000-job runs from an empty
    system put it at 0.807 (10a) and 0.803 (10b), the full runs at 0.827 and 0.820. Issue 15:
    with the redrawn streams EQS on 10(a) reads 0.860 ± 0.018 here (0.840 before: the
    interval is ±2 points), and 0.858–0.861 over 10^6 jobs, old and new streams alike."""
    result = measure(workload, policy, 30.0, overhead=5.0, control=())
    utilisation, hw = result["utilization"], result["utilization_hw90"]
    assert utilisation - hw <= 0.85 + 0.01 and utilisation + hw >= 0.82 - 0.01, \
        f"{policy}: {utilisation:.3f} ± {hw:.3f}"


def test_fig11_periodic_repartitioning_perceptibly_better_at_high_load():
    """§4.3: "the EQS and EQS-PWS policies that only perform full repartitioning at the beginning of
    every 500 sec quantum have perceptibly better performance at high load than the policies that do
    repartitioning at every job arrival or departure" (5 s overhead, 60 jobs/hour): "perceptibly"
    read as at least 5% better, and better beyond the CI, with fewer allocation changes per job.
    10^5 jobs: at 4·10^4 the interval (±12%) reached 1.001 with the streams of issue 15 (0.88 ± 0.12;
    0.89 ± 0.06 before); at 10^5, 0.88 ± 0.08 (EQS) and 0.89 ± 0.08 (EQS-PWS)."""
    for policy in ("eqs", "eqs_pws"):
        every = measure("cv96_fig11", policy, 60.0, overhead=5.0, control=(), jobs=100_000)
        periodic = ratio("cv96_fig11", policy, 60.0, base=policy, base_kw={"overhead": 5.0}, overhead=5.0,
                         period=500.0, control=(), jobs=100_000)
        assert periodic.value < 0.95 and periodic.value + periodic.hw < 1.0, \
            f"{policy}: 500 s / every event = {periodic}"
        assert measure("cv96_fig11", policy, 60.0, overhead=5.0, period=500.0, control=(), jobs=100_000)[
            "repartitions_per_job"] < every["repartitions_per_job"]
