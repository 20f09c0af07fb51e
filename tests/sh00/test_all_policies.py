"""SH00 §1.4, §3.1, §3.3, §5: the policies the paper's figures omit (``sh00_all_policies``, C90, 2 hosts).

"We also evaluated the other policies mentioned e.g. Round-Robin, but their
performance is not notable and we omitted it"; "LWL is equivalent to the
Central-Queue policy for any sequence of job requests". Claims asserted
against the run's 90% CI (``_claims``).
"""

from __future__ import annotations

import numpy as np
import pytest

from ._claims import mean, rel, shown

BALANCING = ["random", "round_robin", "shortest_queue", "lwl", "central_queue"]


def test_round_robin_close_to_random(all_policies):
    """§3.3: Round-Robin "has performance close to the Random policy since it still sees high
    variability in service times" and "slightly less variability in interarrival times than does
    Random" (§1.2): no worse than Random, and within 10% of it. Measured 1–7% below Random."""
    r = rel(all_policies, "round_robin", "random")
    assert np.all(r["low"].values <= 1.0) and np.all(r["high"].values >= 0.9), shown(r)


def test_central_queue_equals_lwl(all_policies):
    """§3.1: LWL = Central-Queue for any job sequence: identical slowdowns (common random numbers)."""
    m = mean(all_policies)
    np.testing.assert_allclose(m.sel(policy="central_queue"), m.sel(policy="lwl"), rtol=1e-9)


def test_omitted_policies_not_notable(all_policies):
    """§3.1: Round-Robin, Shortest-Queue and Central-Queue are "not notable": at no load better than
    the best of the policies the figures show (LWL, SITA-E) beyond the CIs. Measured: Shortest-Queue
    between LWL and Random (2.3× LWL at ρ = 0.2, 1.07× at 0.8)."""
    m = mean(all_policies)
    shown_best = m.sel(policy=["lwl", "sita_e"]).min("policy")
    for policy in ("round_robin", "shortest_queue", "central_queue"):
        assert np.all(m.sel(policy=policy)["high"].values >= shown_best.values), policy


def _unbalancing_gain(ds, var):
    m = mean(ds, var)
    return m.sel(policy=BALANCING).min("policy") / m.sel(policy="sita_u_fair")


def test_unbalancing_an_order_of_magnitude_better_from_0_2(all_policies):
    """§1.4: "The performance of the load unbalancing policy improves upon the best of those policies
    which balance load by more than an order of magnitude with respect to mean slowdown and variance
    in slowdown" (also §5: policies "differ ... by an order of magnitude or more"). SITA-U-fair
    against the best balancing policy, ρ = 0.2–0.8: measured 18–48× in mean slowdown."""
    for var in ("mean_slowdown", "var_slowdown"):
        gain = _unbalancing_gain(all_policies, var).sel(load=[0.2, 0.5, 0.8])
        assert np.all(gain.values > 10), (var, gain.values)


@pytest.mark.xfail(strict=True, reason="SITA-U-fair is 6.7× better than the best balancing policy "
                   "(LWL) at ρ = 0.1 in mean slowdown (full precision), not 10×: LWL's low-load "
                   "advantage on the C90 reconstruction (see test_fig2_fig3's ρ = 0.1 tests)")
def test_unbalancing_an_order_of_magnitude_better_at_0_1(all_policies):
    gain = _unbalancing_gain(all_policies, "mean_slowdown").sel(load=0.1)
    assert float(gain) > 10, float(gain)
