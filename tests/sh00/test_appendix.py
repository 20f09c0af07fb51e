"""SH00 Appendices B and C (Figures 9–12): J90 and CTC give results "similar" to C90.

§2.1: "All the results for the J90 trace data are virtually identical"; for CTC
"the comparative performance of the task assignment policies ... was very
similar to those for the J90 and C90 traces"; §4.4: the rule of thumb "when
using the J90 data and when using the CTC data, results were similar as well".
Claims asserted against the run's 90% CI (``_claims``); strict expected
failures where the model disagrees.

J90 is a reconstruction (reproduction/sh00.md). CTC is the real trace's
8-processor jobs without the 191 that ran past the center's 12-hour limit
(SH00 §2.1; ``workload.max_run_time``), bootstrapped, Poisson arrivals, with
the SITA cutoffs fitted on the first half of the trace as in the paper (§4.1).
"""

from __future__ import annotations

import numpy as np
import pytest

from ._claims import claim_holds, mean, rel, shown

ORDER = ("random", "lwl", "sita_e", "sita_u_fair")
TEN_PERCENT = 1.10


def _in_order(ds, load, order=ORDER):
    """Each policy of ``order`` worse than the next beyond the CIs at ``load``."""
    m = mean(ds).sel(load=load)
    low = [float(m.sel(policy=p)["low"]) for p in order[:-1]]
    high = [float(m.sel(policy=p)["high"]) for p in order[1:]]
    return all(a > b for a, b in zip(low, high, strict=True))


def test_j90_same_order_as_c90(j90):
    """Fig. 9: the order of C90's figures at medium and high load, Random > LWL > SITA-E >
    SITA-U-fair."""
    for load in (0.5, 0.8):
        assert _in_order(j90, load), load


@pytest.mark.xfail(strict=True, reason="J90 (full precision): Random/SITA-E 4.3–4.8 (C90: 10), "
                   "LWL/SITA-E 1.4 at ρ = 0.5 and 2.1 at 0.8 (C90: 3–4), SITA-E/SITA-U-fair 7.9 down to "
                   "3.4 (C90: 4–10): the same shape, smaller factors, as the size variability is "
                   "smaller (published C² 10 against C90's 43; the J90 reconstruction is fitted to it)")
def test_j90_factors_virtually_identical_to_c90(j90):
    """§2.1: "virtually identical": C90's factors (§3.2, §4.2) on J90."""
    checks = [(rel(j90, "random", "sita_e"), 10, 10, None),
              (rel(j90, "lwl", "sita_e"), 3, 4, (0.5, 0.8)),
              (rel(j90, "sita_e", "sita_u_fair"), 4, 10, (0.5, 0.8))]
    assert all(claim_holds(r, lo, hi, loads) for r, lo, hi, loads in checks), [shown(r) for r, *_ in checks]


def test_j90_host_1_underloaded(j90):
    """Fig. 10: host 1 underloaded under SITA-U-opt and -fair (below SITA-E's 1/2)."""
    fraction = mean(j90, "host_load_fraction").sel(host=0, policy=["sita_u_opt", "sita_u_fair"])
    assert np.all(fraction["high"].values < 0.5), fraction.values


@pytest.mark.xfail(strict=True, reason="J90 rule/SITA-U-opt mean slowdown 1.01 at ρ = 0.2, 1.51 at "
                   "0.5, 1.12 at 0.8 (full precision): as on C90 (1.05, 1.76, 1.23), within 10% at "
                   "low load only; SITA-U-opt unbalances further than ρ/2 at medium load")
def test_j90_rule_of_thumb_within_10_percent(j90):
    """§4.4: on J90 the rule of thumb's "results were similar as well" (within 10% of optimal)."""
    r = rel(j90, "sita_u_rule", "sita_u_opt")
    assert np.all(r["low"].values <= TEN_PERCENT), shown(r)


def test_ctc_sita_u_fair_best_random_worst(ctc):
    """Fig. 11: as on C90 and J90, SITA-U-fair has the lowest mean slowdown of the policies that are
    not SITA-U-opt, and Random the highest, at every load. Measured (full precision) SITA-U-fair 3.4–7.5×
    better than SITA-E, 3.2–5.2× better than LWL at ρ = 0.5–0.8."""
    m = mean(ctc)
    for load in m["load"].values:
        assert _in_order(ctc, load, ("random", "lwl", "sita_u_fair")), load
        assert _in_order(ctc, load, ("random", "sita_e", "sita_u_fair")), load


@pytest.mark.xfail(strict=True, reason="CTC with the 12-hour limit (full precision): LWL beats SITA-E "
                   "at every load, LWL/SITA-E 0.44 at ρ = 0.2, 0.75 at 0.5, 0.96 at 0.8, and "
                   "Random/SITA-E is 2.0–2.2 (C90: 10). The limit cuts the tail (C² 5.4, max 12 h): "
                   "little variance is left for SITA-E to isolate, and LWL's pooling of the two hosts "
                   "wins. Without the limit (191 more jobs to 19 h, C² 6.2) SITA-E won from ρ = 0.5")
def test_ctc_same_order_as_c90(ctc):
    """§2.1: CTC's "comparative performance ... very similar" to C90's: Random > LWL > SITA-E >
    SITA-U-fair at medium and high load (ρ = 0.5, 0.7, 0.8)."""
    assert all(_in_order(ctc, load) for load in (0.5, 0.7, 0.8)), shown(rel(ctc, "lwl", "sita_e"))


def test_ctc_no_policy_saturates_up_to_0_8(ctc):
    """Figs. 11–12 draw every policy up to ρ = 0.8 on CTC, the SITA-U cutoffs fitted on the first
    half of the trace (§4.1). With the 12-hour limit no host is overloaded (SITA-E's host 1 gets
    0.507 of the work of the whole trace); without it, SITA-U-opt saturated from ρ = 0.7 and
    SITA-U-fair at 0.8, because the 191 jobs past 12 hours sit mostly in the second half."""
    assert not ctc["saturated"].any(), ctc["saturated"].any("replication").squeeze(drop=True).to_pandas()
    sita_e_host1 = mean(ctc, "host_load_fraction").sel(host=0, policy="sita_e")
    assert np.all(np.abs(sita_e_host1.values - 0.5) < 0.02), sita_e_host1.values


def test_ctc_host_1_underloaded(ctc):
    """Fig. 12: host 1 underloaded under SITA-U-opt and -fair. Measured (full precision) opt
    0.07 → 0.38, fair 0.13 → 0.38 of the work (ρ = 0.1 → 0.8)."""
    fraction = mean(ctc, "host_load_fraction").sel(host=0, policy=["sita_u_opt", "sita_u_fair"])
    assert np.all(fraction["high"].values < 0.5), fraction.values


@pytest.mark.xfail(strict=True, reason="CTC rule/SITA-U-opt mean slowdown 1.06 at ρ = 0.2, 1.87 at "
                   "0.5, 1.21 at 0.7, 1.05 at 0.8 (full precision): as on C90 and J90, within 10% at "
                   "low and at the highest load, not at medium load, where SITA-U-opt gives host 1 "
                   "0.15 of the work against the rule's 0.26")
def test_ctc_rule_of_thumb_within_10_percent(ctc):
    """§4.4: on CTC the rule of thumb's "results were similar as well" (within 10% of optimal)."""
    r = rel(ctc, "sita_u_rule", "sita_u_opt")
    assert np.all(r["low"].values <= TEN_PERCENT), shown(r)


def test_optimal_unbalancing_similar_across_workloads(fig6, j90, ctc):
    """§1.4: "the optimal degree of load unbalancing seems remarkably similar across many different
    workloads": SITA-U-opt's share of the work on host 1, C90, J90 and CTC, within 0.05 of each other
    at every common load. Measured (full precision) at ρ = 0.5: 0.17, 0.17, 0.15; at 0.8: 0.38 on all."""
    shares = [mean(ds, "host_load_fraction").sel(host=0, policy="sita_u_opt", load=[0.2, 0.5, 0.8]).values
              for ds in (fig6, j90, ctc)]
    spread = np.max(shares, axis=0) - np.min(shares, axis=0)
    assert np.all(spread < 0.05), shares
