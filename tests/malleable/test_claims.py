"""CV96's claims (§4.1–4.3) on reduced runs of the cv96_* workloads (issue 5).

Every comparison uses common random numbers (one generator seed per workload
and load, DESIGN §4) and fixed-length runs far shorter than the ±5% runs of
``reproduction/cv96.md``. Where the reconstruction disagrees with the paper,
the test asserts the measured relation and says why in its docstring;
``reproduction/cv96.md`` has the full-length numbers.

The heavy-tailed workloads (Figures 6, 7, 9: C_W = 36 or 6.6) make the mean
response time of a short run a statement about the many small jobs: the rare
huge jobs that decide where a system saturates barely depart within 10^5 jobs.
The saturation claims are therefore checked on the relative degradation
between loads, not on the ``saturated`` flag.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from sweep.engine.config import load_option
from sweep.families import Point, StopRule
from sweep.families.malleable.simulate import simulate

CONF = Path(__file__).resolve().parents[2] / "conf"


@functools.cache
def _workload(name: str, scv: float | None = None) -> dict:
    cfg = load_option("workload", name)
    if scv is not None:
        cfg["demand_scv"] = scv
    return cfg


@functools.cache
def measure(workload: str, policy: str, load: float, jobs: int = 40_000, scv: float | None = None,
            overhead: float = 0.0, period: float | None = None, control: str | bool = False) -> dict:
    """One fixed-length run (``jobs`` measured after one discarded batch), seed fixed per workload/load.

    ``control``: the control variates (``stop.control_variate``) of the mean's estimate.
    """
    options: dict = {"name": policy, "repartition_overhead": overhead}
    if period is not None:
        options["repartition_period"] = period
    point = Point(policy=options, workload=_workload(workload, scv), system={"processors": 128},
                  load=load, stop=StopRule(jobs=jobs, warmup=0, max_in_system=2000, control_variate=control))
    return simulate(point, np.random.default_rng(1996)).summary


def ratio(workload: str, policy: str, load: float, **kw) -> float:
    """``policy``'s mean response time over EQS's, same job stream."""
    base = {k: v for k, v in kw.items() if k in ("jobs", "scv", "control")}
    return measure(workload, policy, load, **kw)["mean_response"] / \
        measure(workload, "eqs", load, **base)["mean_response"]


# §4.1, Figure 5 ----------------------------------------------------------------------------

def test_fig5_fb_pws_competitive_with_eqs_and_eqs_degrades_first_at_cw_5():
    """Paper: FB-PWS competitive with EQS over the whole load range; EQS saturates slightly earlier.

    Measured (C_W = 5): FB-PWS within 10% of EQS at ρ = 0.5, and ahead of it at high load,
    by more at 0.9 than at 0.8 (EQS's response time grows faster: it saturates first).
    """
    assert 0.9 < ratio("cv96_fig5", "fb_pws", 0.5, scv=25.0) < 1.1
    r8, r9 = ratio("cv96_fig5", "fb_pws", 0.8, scv=25.0), ratio("cv96_fig5", "fb_pws", 0.9, scv=25.0)
    assert r9 < 0.95 and r8 < 0.95
    assert not measure("cv96_fig5", "eqs", 0.9, scv=25.0)["saturated"]
    # §4.1: "when ρ = 0.9, system utilization for FB-PWS or EQS is in the range of 92% - 99%"
    for policy in ("eqs", "fb_pws"):
        assert 0.92 <= measure("cv96_fig5", policy, 0.9, scv=25.0)["utilization"] <= 1.0


def test_fig5_fb_pws_competitive_with_eqs_at_cw_30_too():
    """Paper: FB-PWS competitive for C_W = 30 too. Measured with the demand as control variate:
    within 15% of EQS at ρ = 0.5 and 0.9 (full ±5% runs: 1.01–1.12, reproduction/cv96.md).

    With C_W = 30 half of the work is in 0.06% of the jobs: the plain means of runs this short
    put FB-PWS at 1.4–2.3× EQS, an artefact of which huge jobs had departed (the earlier
    reconstruction reported it as a disagreement with the paper).
    """
    for load in (0.5, 0.9):
        assert 0.85 < ratio("cv96_fig5", "fb_pws", load, jobs=200_000, scv=900.0, control="demand") < 1.15


# §4.1, Figures 6–7; §4.2, EQS-PWS = EQS there ------------------------------------------------

@pytest.mark.parametrize("workload", ["cv96_fig6a", "cv96_fig7a"])
def test_fig6a_7a_fb_pws_comparable_to_eqs(workload):
    """Paper: FB-PWS comparable to EQS throughout (6a); 7a "very similar" to 6a. Measured: within 20%."""
    for load in (0.5, 0.7, 0.8):
        assert 0.8 < ratio(workload, "fb_pws", load, jobs=100_000) < 1.2


def test_fig6b_fb_pws_still_comparable_on_reduced_runs():
    """Paper: with φ' = 0.01 (6b) FB-PWS saturates sooner than EQS, unlike 6a.

    Measured on reduced runs: up to ρ = 0.8 FB-PWS stays within 20% of EQS in 6b as in 6a; no
    consistent loss against 6a (ratio 6b − 6a: +0.04 at 0.7, −0.07 at 0.8, seed 1996). Where the
    systems saturate is decided by the rare huge jobs (C_W = 36: half the work in under 1% of the
    jobs), which barely depart in 10^5 jobs; see reproduction/cv96.md for the full runs.
    """
    for load in (0.5, 0.7, 0.8):
        assert 0.8 < ratio("cv96_fig6b", "fb_pws", load, jobs=100_000) < 1.2


def test_fig7b_fb_pws_worse_than_eqs_and_saturates_sooner():
    """Paper: 7b like 6b, FB-PWS saturating sooner. Measured: FB-PWS 20–35% worse from ρ = 0.7."""
    for load in (0.7, 0.8, 0.9):
        assert ratio("cv96_fig7b", "fb_pws", load, jobs=100_000) > 1.15


@pytest.mark.parametrize("workload", ["cv96_fig6a", "cv96_fig6b", "cv96_fig7a", "cv96_fig7b"])
def test_eqs_pws_identical_to_eqs_on_figures_6_7(workload):
    """Paper §4.2: EQS-PWS has identical performance to EQS on the Figure 6–7 workloads.

    Measured: within 3% (6a/6b: pws ≈ N_j/√3 with eq. 5 and β' = (1 − φ')/N_j², so phase one
    binds only when a job could get more than that; 7a/7b: pws = δ ≥ 100 mostly above N_j).
    """
    for load in (0.5, 0.8):
        assert ratio(workload, "eqs_pws", load, jobs=100_000) == pytest.approx(1.0, abs=0.03)


# §4.2, Figures 8–9 ------------------------------------------------------------------------------

def test_fig8_eqs_pws_never_worse_than_eqs_and_close_to_the_better():
    """Paper: EQS-PWS equal to or better than EQS and FB-PWS everywhere (Figure 8 = Figure 5's workload).

    Measured (C_W = 5): EQS-PWS never worse than EQS; it is the best at ρ = 0.8, and within
    5% of FB-PWS at 0.9.
    """
    for load in (0.5, 0.8, 0.9):
        assert ratio("cv96_fig5", "eqs_pws", load, scv=25.0) <= 1.01
    assert ratio("cv96_fig5", "eqs_pws", 0.8, scv=25.0) < ratio("cv96_fig5", "fb_pws", 0.8, scv=25.0)
    assert ratio("cv96_fig5", "eqs_pws", 0.9, scv=25.0) < 1.05 * ratio("cv96_fig5", "fb_pws", 0.9, scv=25.0)


def test_fig9a_eqs_degrades_before_fb_pws_and_eqs_pws_improves_on_eqs():
    """Paper: EQS saturates before FB-PWS in 9a; EQS-PWS no worse than either.

    Measured: FB-PWS and EQS-PWS both at least 8% ahead of EQS at ρ = 0.8 and 0.9, FB-PWS's
    lead growing with load (EQS degrades first); EQS-PWS within 10% of FB-PWS, ahead of it at
    0.8 and behind at 0.9 (FB's least-acquired-first slices favour the many small jobs that
    dominate a short run's mean).
    """
    r8, r9 = (ratio("cv96_fig9a", "fb_pws", load, jobs=100_000) for load in (0.8, 0.9))
    assert r9 < r8 < 0.92
    for load in (0.8, 0.9):
        pws = ratio("cv96_fig9a", "eqs_pws", load, jobs=100_000)
        assert pws < 0.92
        assert pws < 1.1 * ratio("cv96_fig9a", "fb_pws", load, jobs=100_000)


# §4.3, Figures 10–11 ---------------------------------------------------------------------------

@pytest.mark.parametrize("workload", ["cv96_fig10a", "cv96_fig10b"])
def test_fig10_relative_performance_unchanged_by_the_5s_overhead(workload):
    """Paper: relative performance unchanged with or without the 5 s overhead (10a; 10b with CV 3);
    utilisation 82–85% at 30 jobs/hour. Measured: EQS ahead of FB-PWS with and without it, EQS-PWS
    within 3% of EQS; utilisation 0.77–0.84 on these short runs (0.80–0.85 on the full runs; the
    overhead adds stalled, allocated processors)."""
    for overhead in (0.0, 5.0):
        eqs = ratio(workload, "eqs", 30.0, overhead=overhead)
        assert ratio(workload, "fb_pws", 30.0, overhead=overhead) > eqs
        assert ratio(workload, "eqs_pws", 30.0, overhead=overhead) == pytest.approx(eqs, rel=0.03)
    assert ratio(workload, "eqs", 30.0, overhead=5.0) > 1.0  # the overhead costs something
    for policy in ("eqs", "eqs_pws", "fb_pws"):
        for overhead in (0.0, 5.0):
            assert 0.75 <= measure(workload, policy, 30.0, overhead=overhead)["utilization"] <= 0.88
    assert measure(workload, "eqs", 30.0, overhead=5.0)["repartitions_per_job"] > \
        measure(workload, "fb_pws", 30.0, overhead=5.0)["repartitions_per_job"]


def test_fig11_periodic_repartitioning_perceptibly_better_at_high_load():
    """Paper: EQS and EQS-PWS repartitioning once per 500 s are perceptibly better at high load
    than repartitioning at every arrival and departure (5 s overhead, 60 jobs/hour).
    Measured: about 10% lower mean response time (asserted: at least 5%), fewer changes per job."""
    for policy in ("eqs", "eqs_pws"):
        every = measure("cv96_fig11", policy, 60.0, overhead=5.0)
        periodic = measure("cv96_fig11", policy, 60.0, overhead=5.0, period=500.0)
        assert periodic["mean_response"] < 0.95 * every["mean_response"]
        assert periodic["repartitions_per_job"] < every["repartitions_per_job"]
    # at low load the difference is small
    low = measure("cv96_fig11", "eqs", 20.0, overhead=5.0, period=500.0)["mean_response"]
    assert low == pytest.approx(measure("cv96_fig11", "eqs", 20.0, overhead=5.0)["mean_response"], rel=0.1)
