"""CV96's saturation claims (Figures 5, 6(b), 7(b), 8, 9(a); §5) on full-length runs (``slow``).

The presets' own runs: each point to a ±5% half-width of the 90% CI of the mean response time (the
control-variate estimate) or its job budget, flagged ``saturated`` when the number in system grows
across the batches or reaches 2000 (``sweep.families.malleable.simulate``). With ``CV96_RUNS``
naming the folder that ``benchmarks/run_cv96.py --out`` wrote, the tests read ``<preset>.nc`` from
it (the reproduction command); otherwise they run the policies and loads they need (serial,
minutes per test).

"X saturates before Y", as a run on the paper's load grid (ρ ≤ 0.95) can show it
(:func:`saturates_before`): X is flagged saturated at a grid load where Y is not; or, when
neither is flagged on the grid, X's response time grows faster at the top of it: X/Y above 1 at
ρ = 0.95 beyond its 90% CI, and above its value at 0.9. Where the paper's claim is contradicted,
the test is a strict expected failure stating the measured values.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.analysis import cv96

pytestmark = pytest.mark.slow

TOP, BELOW = 0.95, 0.9


def dataset(preset: str, policies: list[str], loads: list[float]) -> xr.Dataset:
    """The preset's full-length Dataset: ``$CV96_RUNS/<preset>.nc``, or run for ``policies`` × ``loads``."""
    folder = os.environ.get("CV96_RUNS")
    if folder and (Path(folder) / f"{preset}.nc").exists():
        return xr.load_dataset(Path(folder) / f"{preset}.nc")
    out = Path(tempfile.mkdtemp(prefix="cv96-")) / f"{preset}.nc"
    return sweep.run([f"experiment={preset}", f"grid.policy=[{','.join(policies)}]",
                      f"grid.load=[{','.join(map(str, loads))}]", "engine.backend=serial",
                      "progress=false", "plots=false", f"output={out}"])


def _point(ds: xr.Dataset, policy: str, **sel) -> xr.Dataset:
    point = ds.sel(policy=policy, **sel)
    for dim in ("replication", "workload"):
        if dim in point.dims:
            point = point.isel({dim: 0})
    return point


def flagged(ds: xr.Dataset, policy: str, **sel) -> np.ndarray:
    """Per load: whether ``policy``'s point is flagged saturated."""
    return _point(ds, policy, **sel)["saturated"].values.astype(bool)


def saturates_before(ds: xr.Dataset, x: str, y: str, **sel) -> tuple[bool, str]:
    """Whether ``x`` saturates before ``y`` (module docstring), and the measured values in words."""
    fx, fy = flagged(ds, x, **sel), flagged(ds, y, **sel)
    loads = ds["load"].values
    ratio, hw, _, _ = cv96.ratio_interval(ds)
    r = ratio.sel(policy=x, **sel) / ratio.sel(policy=y, **sel)
    rel = np.hypot(hw.sel(policy=x, **sel) / ratio.sel(policy=x, **sel),
                   hw.sel(policy=y, **sel) / ratio.sel(policy=y, **sel))
    for dim in ("replication", "workload"):
        if dim in r.dims:
            r, rel = r.isel({dim: 0}), rel.isel({dim: 0})
    top, below = float(r.sel(load=TOP)), float(r.sel(load=BELOW))
    words = (f"{x} flagged at {list(loads[fx])}, {y} at {list(loads[fy])}; {x}/{y} = {below:.2f} at "
             f"{BELOW}, {top:.2f} ± {top * float(rel.sel(load=TOP)):.2f} at {TOP}")
    if (fx & ~fy).any():
        return True, words
    if (fy & ~fx).any() or fx.any():
        return False, words
    return bool(top * (1 - float(rel.sel(load=TOP))) > 1.0 and top > below), words


LOADS = [0.8, 0.9, 0.95]


@pytest.mark.parametrize("scv", [25.0, 900.0], ids=["C_W=5", "C_W=30"])
def test_fig5_fb_pws_competitive_with_eqs_throughout(scv):
    """§4.1: "FB-PWS is competitive with EQS throughout the range of offered load": within 20% of
    EQS at every load, up to the CI (the reading of ``test_claims.py``). On full runs because at
    C_W = 30 a 10^5-job run puts FB-PWS at 1.22–1.35× EQS (half of the work is in 0.06% of the
    jobs) where the full runs measure 1.02–1.18."""
    ds = dataset("cv96_fig5", ["eqs", "fb_pws"], [0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95])
    ratio, hw, _, _ = cv96.ratio_interval(ds)
    for load in ds["load"].values:
        r, h = (float(x.sel(policy="fb_pws", load=load, demand_scv=scv).squeeze()) for x in (ratio, hw))
        assert r - h <= 1.2 and r + h >= 0.8, f"ρ = {load}: FB-PWS / EQS = {r:.3f} ± {h:.3f}"


@pytest.mark.parametrize("scv", [
    pytest.param(25.0, marks=pytest.mark.xfail(strict=True, reason=(
        "measured (full runs): no policy flagged on the grid; EQS / FB-PWS = 1.23 at ρ = 0.9 and "
        "1.22 ± 0.07 at 0.95 (1.11 at 0.8): EQS degrades first, but the gap stops widening at the top "
        "of the paper's grid, so no earlier saturation point is seen there"))),
    pytest.param(900.0, marks=pytest.mark.xfail(strict=True, reason=(
        "measured (full runs): no policy flagged; EQS / FB-PWS = 0.97 at ρ = 0.9, 0.93 ± 0.06 at 0.95: "
        "FB-PWS slightly behind. Figure 8's run of the same workload (other random numbers) flags EQS "
        "at 0.95 and not FB-PWS: at C_W = 30 the flags are decided by a few huge jobs")))],
    ids=["C_W=5", "C_W=30"])
def test_fig5_eqs_saturates_slightly_before_fb_pws(scv):
    """§4.1: "the system with the EQS policy saturates at a slightly earlier point than the FB-PWS system"."""
    ds = dataset("cv96_fig5", ["eqs", "fb_pws"], LOADS)
    holds, words = saturates_before(ds, "eqs", "fb_pws", demand_scv=scv)
    assert holds, words


@pytest.mark.parametrize("preset", ["cv96_fig6b", "cv96_fig7b"])
def test_fig6b_7b_fb_pws_saturates_before_eqs(preset):
    """§4.1, §5: "a system with FB-PWS scheduling saturates before a system with EQS scheduling
    (Figures 6(b), 7(b))"."""
    holds, words = saturates_before(dataset(preset, ["eqs", "fb_pws"], LOADS), "fb_pws", "eqs")
    assert holds, words


@pytest.mark.parametrize("scv", [25.0, 900.0], ids=["C_W=5", "C_W=30"])
def test_fig8_eqs_saturates_before_fb_pws(scv):
    """§5: "EQS saturates before FB-PWS (Figures 8, 9(a))" — Figure 8 (the Figure 5 workload)."""
    ds = dataset("cv96_fig8", ["eqs", "eqs_pws", "fb_pws"], LOADS)
    holds, words = saturates_before(ds, "eqs", "fb_pws", demand_scv=scv)
    assert holds, words


def test_fig9a_eqs_saturates_before_fb_pws():
    """§5: "EQS saturates before FB-PWS (Figures 8, 9(a))" — Figure 9(a)."""
    holds, words = saturates_before(dataset("cv96_fig9a", ["eqs", "eqs_pws", "fb_pws"], LOADS),
                                    "eqs", "fb_pws")
    assert holds, words


CASES = [("cv96_fig8", {"demand_scv": 25.0}), ("cv96_fig8", {"demand_scv": 900.0}), ("cv96_fig9a", {})]
IDS = ["fig8-C_W=5", "fig8-C_W=30", "fig9a"]


@pytest.mark.parametrize(("preset", "sel"), [*CASES[:1], pytest.param(*CASES[1], marks=pytest.mark.xfail(
    strict=True, reason="measured (full runs): EQS-PWS flagged saturated at ρ = 0.95 with EQS (FB-PWS not; "
                        "EQS-PWS / EQS = 0.91 ± 0.06 at 0.9); the Dataset does not record whether the "
                        "2000-job cap or the growth test set the flag")), CASES[2]], ids=IDS)
def test_eqs_pws_avoids_the_early_saturation_of_eqs(preset, sel):
    """§5: "EQS-PWS avoids the early saturation of EQS in systems with a large fraction of very
    inefficient jobs": at ρ = 0.9 and 0.95, EQS-PWS is not flagged where EQS is, and where EQS is
    not flagged EQS-PWS is below it beyond the CI."""
    ds = dataset(preset, ["eqs", "eqs_pws", "fb_pws"], LOADS)
    ratio, hw, _, _ = cv96.ratio_interval(ds)
    eqs, pws = flagged(ds, "eqs", **sel), flagged(ds, "eqs_pws", **sel)
    for k, load in enumerate(ds["load"].values):
        if load < BELOW:
            continue
        if eqs[k]:
            assert not pws[k], f"ρ = {load}: EQS-PWS flagged with EQS"
        else:
            r, h = (float(x.sel(policy="eqs_pws", load=load, **sel).squeeze()) for x in (ratio, hw))
            assert r + h < 1.0, f"ρ = {load}: EQS-PWS / EQS = {r:.3f} ± {h:.3f}"


BEHIND = {
    "fig8-C_W=5": "measured (full runs, FB-PWS at slice boundaries, 10 s quantum): EQS-PWS / FB-PWS = "
                  "1.05 at ρ = 0.9, 1.12 ± 0.07 at 0.95, neither flagged: EQS-PWS degrades faster at the "
                  "top (at every event FB-PWS is further ahead)",
    "fig8-C_W=30": "measured (full runs): EQS-PWS flagged saturated at ρ = 0.95, FB-PWS not (both "
                   "reschedule choices); EQS-PWS / FB-PWS = 0.81 at 0.9",
    "fig9a": "measured (full runs, FB-PWS at slice boundaries, 10 s quantum): EQS-PWS / FB-PWS = 1.02, "
             "1.08, 1.65 ± 0.14 at ρ = 0.8, 0.9, 0.95, neither flagged (at every event: 1.08, 1.13, "
             "1.75): FB-PWS's least-acquired-first slices favour the many small jobs when most jobs are "
             "very inefficient; with a quantum of 30 s or more FB-PWS falls behind EQS-PWS at ρ = 0.9 "
             "but not at 0.95 (reproduction/cv96.md)",
}


@pytest.mark.parametrize(("preset", "sel"), [
    pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=BEHIND[name]))
    for case, name in zip(CASES, IDS, strict=True)], ids=IDS)
def test_eqs_pws_as_well_as_or_better_than_fb_pws_at_high_load(preset, sel):
    """§5: "For the workloads examined, EQS-PWS always performs as well as or better than EQS and
    FB-PWS": at ρ = 0.8–0.95 EQS-PWS is no more than 2% behind FB-PWS beyond the CI, and does not
    saturate before it."""
    ds = dataset(preset, ["eqs", "eqs_pws", "fb_pws"], LOADS)
    holds, words = saturates_before(ds, "eqs_pws", "fb_pws", **sel)
    assert not holds, words
    ratio, hw, _, _ = cv96.ratio_interval(ds)

    def at(x, policy, load):
        return float(x.sel(policy=policy, load=load, **sel).squeeze())

    for load in LOADS:
        pws, pws_hw, fb, fb_hw = (at(x, p, load) for p in ("eqs_pws", "fb_pws") for x in (ratio, hw))
        behind, rel = pws / fb, np.hypot(pws_hw / pws, fb_hw / fb)
        assert behind * (1 - rel) <= 1.02, f"ρ = {load}: EQS-PWS / FB-PWS = {behind:.3f} ± {behind * rel:.3f}"


@pytest.mark.parametrize("preset", ["cv96_fig10a", "cv96_fig10b"])
def test_fig10_utilisation_82_to_85_percent_at_30_jobs_per_hour(preset):
    """§4.3: "The system utilization at arrival rate of 30 jobs/hour is 82%-85%" — with the 5 s
    overhead, every policy of the figure (±1 point: the paper rounds to whole percents)."""
    ds = dataset(preset, ["eqs", "eqs_pws", "fb_pws"], [30.0])
    for policy in ("eqs", "eqs_pws", "fb_pws"):
        u = float(_point(ds, policy, load=30.0, repartition_overhead=5.0)["utilization"])
        assert 0.81 <= u <= 0.86, f"{policy}: {u:.3f}"


@pytest.mark.xfail(strict=True, reason=(
    "measured (full runs): FB-ASP / EQS = 2.01 ± 0.11 at ρ = 0.9 and flagged saturated at 0.95 with "
    "C_W|n = 2, against 1.86 ± 0.13 and flagged at 0.95 with C_W|n = 10 (FB-PWS 1.01 and 0.94): worse, "
    "not better, against EQS or FB-PWS; not explained (FB-ASP's sizes P/J ignore pws)"))
def test_fig6a_cwn2_fb_asp_better_at_high_load():
    """§4.1: with C_{W|n} = 2 Figure 6 is largely the same "except that the FB-ASP policy has better
    performance at high load in the case that φ' = 0": FB-ASP's ratio to EQS at ρ = 0.9 lower than
    with C_{W|n} = 10, beyond both CIs."""
    def at_0_9(preset):
        ratio, hw, _, _ = cv96.ratio_interval(dataset(preset, ["eqs", "fb_asp"], LOADS))
        return (float(x.sel(policy="fb_asp", load=BELOW).squeeze()) for x in (ratio, hw))

    (r2, h2), (r10, h10) = at_0_9("cv96_fig6a_cwn2"), at_0_9("cv96_fig6a")
    assert r2 + h2 < r10 - h10, f"C_W|n = 2: {r2:.2f} ± {h2:.2f}; 10: {r10:.2f} ± {h10:.2f}"


def test_eqs_avg_about_the_same_as_eqs():
    """§4.2: "In [4], the EQS-AVG was found to have approximately the same performance as EQS" — on
    the Figure 6(a) workload, within 3% at every load up to the CI (avg: reconstructed)."""
    ds = dataset("cv96_eqs_avg", ["eqs", "eqs_avg"], [0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95])
    ratio, hw, _, _ = cv96.ratio_interval(ds.sel(workload=["cv96_fig6a"]))
    for load in ds["load"].values:
        r, h = (float(x.sel(policy="eqs_avg", load=load).squeeze()) for x in (ratio, hw))
        assert r - h <= 1.03 and r + h >= 0.97, f"ρ = {load}: EQS-AVG / EQS = {r:.3f} ± {h:.3f}"
