"""SH00 §3.2, Figures 2 and 3: Random, Least-Work-Left and SITA-E on 2 and 4 hosts (C90).

Reduced runs (tests/sh00/conftest.py). Each test asserts the paper's sentence
against the run's 90% CI, a printed factor read to its one significant figure
(``_claims``); where the model disagrees the test is a strict expected failure
that states the measured value and the cause. The C90 sizes are a
reconstruction fitted to the published statistics (reproduction/sh00.md): its
E[1/X], which weighs the smallest jobs' slowdowns, and the tail beyond the
SITA-E cutoff, which drives the variance, are pinned by no published number,
so the low-load comparisons and the variance factors are the least certain.
"""

from __future__ import annotations

import numpy as np
import pytest

from ._claims import SIMILAR, claim_holds, mean, rel, shown, values, within

MEDIUM_HIGH = (0.5, 0.6, 0.7, 0.8)
LOW = (0.1, 0.2)


def test_random_about_10x_sita_e(fig2):
    """"The slowdown under Random exceeds that of SITA-E by a factor of 10" (§3.2); "Random and
    SITA-E differ by a factor of 6–10 with respect to mean slowdown" (§1.4). Measured 9.9–10.4."""
    r = rel(fig2, "random", "sita_e")
    assert claim_holds(r, 10), shown(r)
    assert claim_holds(r, 6, 10), shown(r)


def test_sita_e_beats_lwl_3_to_4x_at_medium_and_high_load(fig2):
    """"For medium and high loads SITA-E outperforms LWL by a factor of 3–4."

    Measured (full precision): 2.6 at ρ = 0.5, 3.2, 3.7, 4.3 at 0.6–0.8: each
    rounds into 3–4.
    """
    r = rel(fig2, "lwl", "sita_e")
    assert claim_holds(r, 3, 4, MEDIUM_HIGH), shown(r, MEDIUM_HIGH)


def test_sita_e_and_lwl_similar_at_low_load_0_2(fig2):
    """"The slowdowns under SITA-E and LWL are quite similar for low loads": at ρ = 0.2, LWL/SITA-E
    1.02 (full precision), "similar" read as a ratio that rounds to 1 both ways (``_claims``)."""
    r = rel(fig2, "lwl", "sita_e").sel(load=[0.2])
    assert within(r, *SIMILAR), shown(r)


@pytest.mark.xfail(strict=True, reason="LWL/SITA-E 0.52 at ρ = 0.1 (12.3 vs 23.5 at full precision): "
                   "with hosts mostly idle LWL gives every job an idle host, while SITA-E queues the "
                   "many short jobs behind each other on host 1; how much that costs depends on the "
                   "smallest jobs' slowdowns, i.e. on E[1/X], which the C90 reconstruction does not pin")
def test_sita_e_and_lwl_similar_at_low_load_0_1(fig2):
    r = rel(fig2, "lwl", "sita_e").sel(load=[0.1])
    assert within(r, *SIMILAR), shown(r)


def test_lwl_beats_random_by_2_to_10x(fig2):
    """"Random and LWL differ by a factor of 2–10 (depending on load)" (§1.4), ρ = 0.2–0.8.

    Measured (full precision): 10.0 at ρ = 0.2 down to 2.4 at 0.8.
    """
    r = rel(fig2, "random", "lwl")
    loads = (0.2, 0.5, 0.6, 0.7, 0.8)
    assert claim_holds(r, 2, 10, loads), shown(r, loads)


@pytest.mark.xfail(strict=True, reason="Random/LWL 18.9 at ρ = 0.1 (full precision): LWL's low-load "
                   "advantage (see the ρ = 0.1 test above) is larger than the paper's on the C90 "
                   "reconstruction, whose E[1/X] is not pinned")
def test_lwl_beats_random_by_2_to_10x_at_0_1(fig2):
    r = rel(fig2, "random", "lwl")
    assert claim_holds(r, 2, 10, [0.1]), shown(r, [0.1])


@pytest.mark.xfail(strict=True, reason="Random/LWL variance of slowdown 64 at ρ = 0.1, 5–10 at ρ ≥ 0.5 "
                   "(full precision): 'up to 10' holds from ρ = 0.5 only; at low load the variance "
                   "under LWL is that of the smallest jobs, set by the unpinned E[1/X] and E[1/X²]")
def test_lwl_improves_variance_on_random_up_to_10x(fig2):
    """"LWL improves upon the variance under Random by up to a factor of 10", over the figure."""
    r = rel(fig2, "random", "lwl", "var_slowdown")
    assert float(r.max()) < 15 and claim_holds(r, 1, 10), shown(r)


@pytest.mark.xfail(strict=True, reason="Random/LWL variance of slowdown 64 at ρ = 0.1 falling to 4.5 "
                   "at 0.8 (full precision): about 30 only near ρ = 0.2. The paper itself says 'up to "
                   "a factor of 10' for the same comparison in §3.2")
def test_random_and_lwl_variance_30x_apart(fig2):
    """§1.4: "Random and Least-Work-Left differ ... by a factor of 30 with respect to variance in
    slowdown"."""
    r = rel(fig2, "random", "lwl", "var_slowdown")
    assert claim_holds(r, 30, 30), shown(r)


@pytest.mark.xfail(strict=True, reason="LWL/SITA-E variance of slowdown 18–28 at ρ = 0.5–0.8 (full "
                   "precision), not 'up to 10': the reconstructed tail beyond 69,190 s (a bounded "
                   "Pareto, alpha = 1.52, to 2.2e6 s) sets the third moment of the sizes that drives "
                   "the variance under LWL, and no published statistic pins it")
def test_sita_e_improves_variance_on_lwl_up_to_10x(fig2):
    """"SITA-E in turn improves upon the variance under LWL by up to a factor of 10"."""
    r = rel(fig2, "lwl", "sita_e", "var_slowdown")
    assert float(r.max()) < 15 and claim_holds(r, 1, 10), shown(r)


def test_random_and_sita_e_variance_orders_of_magnitude_apart(fig2):
    """§1.4: Random and SITA-E differ "by several orders of magnitude with respect to variance in
    slowdown": at least 100 at every load. Measured 140–180 at ρ = 0.5–0.8."""
    r = rel(fig2, "random", "sita_e", "var_slowdown")
    assert np.all(r["high"].values >= 100), shown(r)


def test_mean_response_sita_e_beats_lwl_2_to_3x_above_half_load(fig2):
    """"For system loads greater than 0.5, SITA-E outperforms LWL by factors of 2–3" (response time).

    Measured (full precision): LWL/SITA-E mean response 2.2, 2.7, 3.2 at ρ = 0.6, 0.7, 0.8.
    """
    r = rel(fig2, "lwl", "sita_e", "mean_response")
    assert claim_holds(r, 2, 3, (0.6, 0.7, 0.8)), shown(r, (0.6, 0.7, 0.8))


def test_four_hosts_lwl_better_at_low_load(fig3):
    """Fig. 3: "For low loads LWL leads to lower slowdowns than SITA-E". Measured LWL/SITA-E 0.17
    (ρ = 0.1), 0.23 (0.2)."""
    r = rel(fig3, "lwl", "sita_e")
    assert np.all(r.sel(load=list(LOW))["high"].values < 1.0), shown(r, LOW)


def test_four_hosts_sita_e_2x_better_than_lwl_at_half_load(fig3):
    """Fig. 3: "for system load 0.5 SITA-E improves upon LWL by a factor of 2". Measured 1.89."""
    r = rel(fig3, "lwl", "sita_e")
    assert claim_holds(r, 2, 2, [0.5]), shown(r, [0.5])


@pytest.mark.xfail(strict=True, reason="LWL/SITA-E on 4 hosts 4.4 at ρ = 0.7 but 6.3 at 0.8 (full "
                   "precision): the gap keeps widening past the paper's 4; SITA-E's hosts 1–3 get "
                   "the body of the reconstructed C90 distribution, whose shape is a fit")
def test_four_hosts_sita_e_4x_better_than_lwl_at_high_load(fig3):
    """"... and for high loads, SITA-E improves upon LWL by a factor of 4" (ρ = 0.7, 0.8)."""
    r = rel(fig3, "lwl", "sita_e")
    assert claim_holds(r, 4, 4, (0.7, 0.8)), shown(r, (0.7, 0.8))


@pytest.mark.xfail(strict=True, reason="LWL/SITA-E variance of slowdown on 4 hosts 21 at ρ = 0.5, 36, "
                   "55, 78 at 0.6–0.8 (full precision): 25 only near ρ = 0.5; the variance gap is "
                   "driven by the reconstructed tail's third moment, as on 2 hosts")
def test_four_hosts_variance_sita_e_25x_lower_than_lwl(fig3):
    """Fig. 3 right: "SITA-E's variance in slowdown is 25 times lower than that of LWL"."""
    r = rel(fig3, "lwl", "sita_e", "var_slowdown")
    assert claim_holds(r, 25, 25, MEDIUM_HIGH), shown(r, MEDIUM_HIGH)


def test_four_hosts_random_same_lwl_and_sita_e_improve(fig2, fig3):
    """"The results for Random are the same as in the 2 host system": equal within the two runs'
    CIs. LWL and SITA-E "improve significantly when switching from 2 hosts to 4 hosts": the
    2-host mean slowdown's CI lies above the 4-host one's at every load of ρ = 0.5–0.8."""
    two, four = mean(fig2), mean(fig3)
    random2, random4 = two.sel(policy="random"), four.sel(policy="random")
    assert np.all(np.abs(random4 - random2).values <= (random2.halfwidth + random4.halfwidth).values)
    for policy in ("lwl", "sita_e"):
        better = values(two.sel(policy=policy)["low"], MEDIUM_HIGH) > values(four.sel(policy=policy)["high"],
                                                                             MEDIUM_HIGH)
        assert np.all(better), policy


def test_more_hosts_more_dramatic_differences(fig2, fig3):
    """§1.4: "Increasing the number of host machines above 2 creates even more dramatic differences":
    LWL/SITA-E on 4 hosts above its 2-host value beyond both CIs at high load. Measured (full
    precision) 4.4 vs 3.7 at ρ = 0.7, 6.3 vs 4.3 at 0.8."""
    two, four = rel(fig2, "lwl", "sita_e"), rel(fig3, "lwl", "sita_e")
    for load in (0.7, 0.8):
        assert float(four.sel(load=load)["low"]) > float(two.sel(load=load)["high"]), load
