"""SH00 §4, Figures 4–6: load unbalancing (SITA-U-opt, SITA-U-fair, the ρ/2 rule), 2 hosts, C90.

Reduced runs (tests/sh00/conftest.py); claims asserted against the run's 90%
CI (``_claims``), strict expected failures where the model disagrees. The C90
sizes are a reconstruction (reproduction/sh00.md); SITA-U's cutoffs come from
the P-K analysis of that distribution (``cutoff_fit: analytic``,
sweep/families/dispatch/sita_u_opt.py, sita_u_fair.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.analysis import confidence_interval, size_class_means

from ._claims import claim_holds, mean, rel, shown

RANGE = (0.5, 0.6, 0.7, 0.8)
#: "Within 10%", and the reading of "only a slight bit worse" (SH00 §4.2, §4.4).
TEN_PERCENT = 1.10


def test_sita_u_fair_4_to_10x_better_than_sita_e_in_mean_slowdown(fig4):
    """"In the range of load 0.5–0.8, the improvement of SITA-U-fair over SITA-E ranges from 4–10
    with respect to mean slowdown." Measured (full precision) 11.7, 9.8, 7.1, 4.4."""
    r = rel(fig4, "sita_e", "sita_u_fair")
    assert claim_holds(r, 4, 10, RANGE), shown(r, RANGE)


def test_sita_u_fair_10_to_100x_better_than_sita_e_in_variance(fig4):
    """"... and from 10–100 with respect to variance in slowdown." Measured 93, 65, 36, 16."""
    r = rel(fig4, "sita_e", "sita_u_fair", "var_slowdown")
    assert claim_holds(r, 10, 100, RANGE), shown(r, RANGE)


def test_sita_u_fair_worse_than_sita_u_opt(fig4):
    """"SITA-U-fair is only a slight bit worse than SITA-U-opt": worse, i.e. the ratio's CI above 1
    at every load but the highest, where the two cutoffs nearly coincide."""
    r = rel(fig4, "sita_u_fair", "sita_u_opt")
    assert np.all(r.sel(load=[0.5, 0.6, 0.7])["low"].values > 1.0), shown(r)


@pytest.mark.xfail(strict=True, reason="SITA-U-fair/SITA-U-opt mean slowdown 1.60, 1.40, 1.15, 1.02 "
                   "at ρ = 0.5–0.8 (full precision): a slight bit only at ρ = 0.8. On the C90 "
                   "reconstruction SITA-U-opt unbalances further at medium load (host 1 gets 17% of "
                   "the work at ρ = 0.5, SITA-U-fair 24%) and the gain goes to the smallest jobs, "
                   "whose weight E[1/X] the published statistics leave open")
def test_sita_u_fair_only_slightly_worse_than_sita_u_opt(fig4):
    """"Only a slight bit worse", read as within 10% (the paper's own tolerance in §4.4)."""
    r = rel(fig4, "sita_u_fair", "sita_u_opt")
    assert np.all(r.sel(load=list(RANGE))["low"].values <= TEN_PERCENT), shown(r, RANGE)


def test_both_sita_u_greatly_improve_on_sita_e(fig4):
    """"Both SITA-U-fair and SITA-U-opt improve greatly upon the performance of SITA-E, both with
    respect to mean slowdown and especially with respect to variance in slowdown": the mean gain
    as great as §4.2's 4–10 or more, the variance gain larger still, at every load of 0.5–0.8."""
    for policy in ("sita_u_opt", "sita_u_fair"):
        mean_gain = rel(fig4, "sita_e", policy).sel(load=list(RANGE))
        var_gain = rel(fig4, "sita_e", policy, "var_slowdown").sel(load=list(RANGE))
        assert claim_holds(mean_gain, 4), (policy, shown(mean_gain))
        assert np.all(var_gain["low"].values > mean_gain["high"].values), (policy, shown(var_gain))


def test_host_1_underloaded_and_opt_near_fair(fig6):
    """Fig. 5: "for both SITA-U-opt and SITA-U-fair we are underloading Host 1" (SITA-E: 1/2);
    "SITA-U-opt is not far from SITA-U-fair" (read: host 1's shares within 0.1 of each other).
    Measured: opt 0.12, 0.17, 0.38; fair 0.20, 0.24, 0.38 at ρ = 0.2, 0.5, 0.8."""
    fraction = confidence_interval(fig6["host_load_fraction"].sel(host=0)).squeeze(drop=True)
    opt, fair = fraction.sel(policy="sita_u_opt"), fraction.sel(policy="sita_u_fair")
    assert np.all(opt["high"].values < 0.5) and np.all(fair["high"].values < 0.5)
    assert np.all(np.abs(opt - fair).values < 0.1)


def test_rule_of_thumb_fits_the_optimal_shares(fig6):
    """§4.4, Fig. 6: "a rough rule of thumb which says simply that if the system load is ρ, then the
    fraction of the load which is assigned to Host 1 should be ρ/2", read off Fig. 5's curves: ρ/2
    within 0.1 (rough) of both SITA-U-opt's and SITA-U-fair's simulated host-1 share at every load.
    Measured: opt 0.12, 0.17, 0.38 and fair 0.20, 0.24, 0.38 against 0.10, 0.25, 0.40 (ρ = 0.2, 0.5,
    0.8). (That the rule's policy gives host 1 ρ/2 is its definition: tests/dispatch/test_sita.py.)"""
    fraction = mean(fig6, "host_load_fraction").sel(host=0)
    half_load = fraction["load"].values / 2
    for policy in ("sita_u_opt", "sita_u_fair"):
        gap = np.abs(fraction.sel(policy=policy).values - half_load)
        assert np.all(gap < 0.1), (policy, gap)


@pytest.mark.xfail(strict=True, reason="rule/SITA-U-opt mean slowdown 1.05 at ρ = 0.2, 1.76 at 0.5, "
                   "1.23 at 0.8 (full precision): within 10% at low load only. The rule tracks "
                   "SITA-U-fair's split (within 10% of SITA-U-fair at ρ = 0.5) while SITA-U-opt on "
                   "the C90 reconstruction unbalances further (host 1: 17% of the work at ρ = 0.5 "
                   "against ρ/2 = 25%), through the unpinned weight of the smallest jobs")
def test_rule_of_thumb_within_10_percent_of_optimal(fig6):
    """§4.4: "We redid the simulations using our rule-of-thumb cutoffs, rather than the optimal
    cutoffs, and the results were within 10%." """
    r = rel(fig6, "sita_u_rule", "sita_u_opt")
    assert np.all(r["low"].values <= TEN_PERCENT), shown(r)


def test_sita_u_fair_is_fair(fairness):
    """§4.1: under SITA-U-fair "the mean slowdown of short jobs is equal to the mean slowdown of long
    jobs": equal within the two classes' 90% CIs; SITA-E, which balances load, is not fair (its
    short jobs' CI far above the long jobs').

    From per-job arrays, jobs split at each policy's cutoff (the largest size
    sent to host 1). Measured at ρ = 0.5 (full precision): SITA-U-fair short
    17.2, long 17.0; SITA-E short 204, long 2.7.
    """
    classes = {}
    for policy in ("sita_e", "sita_u_fair"):
        ds = fairness.sel(policy=policy).squeeze(drop=True)
        cutoff = float(ds["size"].where(ds["job_host"] == 0).max())
        classes[policy] = confidence_interval(size_class_means(ds, [cutoff]))
    short, long = classes["sita_u_fair"]
    assert abs(float(short) - float(long)) <= float(short.halfwidth + long.halfwidth), (short, long)
    short, long = classes["sita_e"]
    assert float(short["low"]) > 10 * float(long["high"]), (short, long)
