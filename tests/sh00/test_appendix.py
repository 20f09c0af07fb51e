"""SH00 Appendices B and C (Figures 9–12): J90 and CTC give results "similar" to C90.

§2.1: "All the results for the J90 trace data are virtually identical"; for CTC
"the comparative performance of the task assignment policies ... was very
similar"; §4.4: the rule of thumb "when using the J90 data and when using the
CTC data, results were similar as well". Similar *in shape*: the same order of
the policies, the same low-load crossing of LWL and SITA-E, host 1 underloaded
under SITA-U. The factors are smaller than C90's, as the size variability is
(C² = 43 for C90, 10 for J90, 5.4 for CTC).

J90 is a reconstruction (MODEL_NOTES §3); CTC is the real trace's
8-processor jobs, bootstrapped, with SITA cutoffs fitted on the first half of
the trace as in the paper (§4.1).
"""

from __future__ import annotations

import numpy as np

from ._claims import at, mean, rel, values

ORDER = ("random", "lwl", "sita_e", "sita_u_fair")


def _ordered(ds, load):
    m = mean(ds).sel(load=load)
    return [float(m.sel(policy=p)) for p in ORDER]


def test_j90_same_order_as_c90(j90):
    """Fig. 9: Random > LWL > SITA-E > SITA-U-fair ≥ SITA-U-opt at medium and high load, LWL best of
    the balancing policies at low load. Random/SITA-E 4.6–4.9 (C90: 10)."""
    for load in (0.5, 0.8):
        assert np.all(np.diff(_ordered(j90, load)) < 0), load
        assert at(rel(j90, "sita_u_opt", "sita_u_fair"), load) < 1.05
    assert at(rel(j90, "lwl", "sita_e"), 0.2) < 1.0
    r = rel(j90, "random", "sita_e").values
    assert np.all((r > 3.5) & (r < 6.0)), r


def test_j90_host_1_underloaded_and_rule_of_thumb(j90):
    """Fig. 10: host 1 underloaded under SITA-U-opt and -fair; the ρ/2 rule near them.

    Measured rule/SITA-U-opt mean slowdown: 1.01, 1.50, 1.09 at ρ = 0.2, 0.5,
    0.8 (C90: 1.06, 1.8, 1.25): the same shape, within 10% at low and high load.
    """
    fraction = mean(j90, "host_load_fraction").sel(host=0)
    assert np.all(fraction.sel(policy=["sita_u_opt", "sita_u_fair"]).values < 0.45)
    rule = rel(j90, "sita_u_rule", "sita_u_opt")
    assert at(rule, 0.2) < 1.1 and at(rule, 0.8) < 1.15
    assert 1.2 < at(rule, 0.5) < 1.9


def test_ctc_same_order_as_c90_below_saturation(ctc):
    """Fig. 11: the C90 order holds on CTC at ρ = 0.5 for Random > LWL ≥ SITA-E > SITA-U-fair, and
    at ρ = 0.8 for Random > LWL > SITA-E; LWL beats SITA-E at low load. Random/SITA-E 3.0–4.7."""
    m = mean(ctc)
    assert np.all(np.diff(_ordered(ctc, 0.5)) < 0)
    high = m.sel(load=0.8)
    assert float(high.sel(policy="random")) > float(high.sel(policy="lwl")) > float(high.sel(policy="sita_e"))
    assert at(rel(ctc, "lwl", "sita_e"), 0.2) < 1.0
    r = rel(ctc, "random", "sita_e").values
    assert np.all((r > 2.5) & (r < 5.5)), r


def test_ctc_sita_u_saturates_at_high_load_with_half_trace_cutoffs(ctc):
    """Fig. 11–12 on the real CTC trace: a finding of this reproduction, not of the paper.

    The paper fit the SITA cutoffs on the first half of the trace (§4.1); the
    jobs are drawn from the whole trace, whose second half has more work in
    long jobs (SITA-E's host 1 gets 0.44 of the work, not 0.5). SITA-U-opt and
    -fair push host 2 close to load 1 on the first half's sizes, so on the
    whole trace host 2 is overloaded: SITA-U-opt from ρ = 0.7, SITA-U-fair and
    the ρ/2 rule at ρ = 0.8 (``saturated``). Below that, host 1 is
    underloaded and SITA-U-fair beats SITA-E by 6–7× as on C90.
    """
    saturated = ctc["saturated"].any("replication").squeeze(drop=True)
    assert bool(saturated.sel(policy="sita_u_opt", load=0.7))
    assert np.all(saturated.sel(policy=["sita_u_opt", "sita_u_fair", "sita_u_rule"], load=0.8).values)
    assert not np.any(saturated.sel(load=[0.2, 0.5]).values)
    assert not np.any(saturated.sel(policy=["random", "lwl", "sita_e"]).values)
    sita_e_host1 = mean(ctc, "host_load_fraction").sel(host=0, policy="sita_e").values
    assert np.all((sita_e_host1 > 0.40) & (sita_e_host1 < 0.47)), sita_e_host1
    gain = values(rel(ctc, "sita_e", "sita_u_fair"), (0.2, 0.5))
    assert np.all((gain > 4.0) & (gain < 10.0)), gain
