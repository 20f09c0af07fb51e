"""SH00 §3.2, Figures 2 and 3: Random, Least-Work-Left and SITA-E on 2 and 4 hosts (C90).

Reduced runs (tests/sh00/conftest.py). Each test states the paper's sentence;
where the reconstruction's measured value differs, the test asserts the
measured relation and says why. C90 sizes are a reconstruction (MODEL_NOTES §3):
its E[1/X] is not pinned by any published number, so absolute slowdowns, and
LWL's gain at low load (where slowdown is dominated by the smallest jobs),
are the least certain part.
"""

from __future__ import annotations

import numpy as np

from ._claims import at, mean, rel, values

MEDIUM_HIGH = (0.5, 0.6, 0.7, 0.8)


def test_random_about_10x_sita_e(fig2):
    """"The slowdown under Random exceeds that of SITA-E by a factor of 10." Measured 9.9–10.5."""
    r = rel(fig2, "random", "sita_e")
    assert np.all((r.values > 8.5) & (r.values < 12.0)), r.values


def test_sita_e_beats_lwl_3_to_4x_at_medium_and_high_load(fig2):
    """"For medium and high loads SITA-E outperforms LWL by a factor of 3–4."

    Measured (full precision): 2.6 at ρ = 0.5, 3.2, 3.7, 4.3 at 0.6–0.8: the
    factor reaches 3–4 from ρ = 0.6 and a bit above 4 at 0.8; at 0.5 it is 2.6
    (the M/G/2 sim's LWL gains more from idle hosts than the paper's).
    """
    r = values(rel(fig2, "lwl", "sita_e"), MEDIUM_HIGH)
    assert 2.2 < r[0] < 3.0, r
    assert np.all((r[1:] > 2.8) & (r[1:] < 4.8)), r
    assert np.all(np.diff(r) > 0), r  # the gap widens with load


def test_sita_e_and_lwl_similar_at_low_load(fig2):
    """"The slowdowns under SITA-E and LWL are quite similar for low loads."

    Measured: equal at ρ = 0.2 (ratio 1.0); at ρ = 0.1 LWL is 2× better
    (12.6 vs 23.4): with hosts mostly idle LWL gives every job an idle host,
    SITA-E makes short jobs queue behind short jobs on host 1.
    """
    r = rel(fig2, "lwl", "sita_e")
    assert 0.8 < at(r, 0.2) < 1.25
    assert 0.4 < at(r, 0.1) < 0.7


def test_lwl_beats_random_by_2_to_10x(fig2):
    """"Random and LWL differ by a factor of 2–10 (depending on load)" (§1.4).

    Measured: 9.6–10 at ρ = 0.2 down to 2.4 at 0.8; at ρ = 0.1 it is 18
    (LWL's low-load advantage above, larger than the paper's).
    """
    r = rel(fig2, "random", "lwl")
    assert np.all((values(r, (0.2, 0.5, 0.8)) > 2.0) & (values(r, (0.2, 0.5, 0.8)) < 11.0)), r.values
    assert at(r, 0.1) > at(r, 0.2) > at(r, 0.5) > at(r, 0.8)


def test_variance_of_slowdown_gaps(fig2):
    """"LWL improves upon the variance under Random by up to a factor of 10 and SITA-E in turn
    improves upon the variance under LWL by up to a factor of 10"; §1.4: Random vs SITA-E
    "several orders of magnitude".

    Measured over ρ = 0.5–0.8: Random/LWL 5–10, LWL/SITA-E 16–28 (more than the
    paper's 10: the reconstructed tail beyond 69,190 s is a bounded Pareto with
    α = 1.52, whose third moment drives the variance), Random/SITA-E 140–180,
    over two orders of magnitude.
    """
    random_lwl = values(rel(fig2, "random", "lwl", "var_slowdown"), MEDIUM_HIGH)
    lwl_sita = values(rel(fig2, "lwl", "sita_e", "var_slowdown"), MEDIUM_HIGH)
    random_sita = values(rel(fig2, "random", "sita_e", "var_slowdown"), MEDIUM_HIGH)
    assert np.all((random_lwl > 3) & (random_lwl < 15)), random_lwl
    assert np.all((lwl_sita > 10) & (lwl_sita < 40)), lwl_sita
    assert np.all(random_sita > 100), random_sita


def test_mean_response_sita_e_beats_lwl_2_to_3x_above_half_load(fig2):
    """"For system loads greater than 0.5, SITA-E outperforms LWL by factors of 2–3" (response time).

    Measured (full precision): LWL/SITA-E mean response 2.2, 2.7, 3.2 at
    ρ = 0.6, 0.7, 0.8 (1.8 at 0.5, below 1 at ρ ≤ 0.2).
    """
    r = values(rel(fig2, "lwl", "sita_e", "mean_response"), (0.6, 0.7, 0.8))
    assert np.all((r > 1.8) & (r < 3.6)), r
    assert at(rel(fig2, "lwl", "sita_e", "mean_response"), 0.1) < 1.0


def test_four_hosts_sita_e_2x_better_than_lwl_at_half_load_4x_at_high(fig3):
    """Fig. 3: "for system load 0.5 SITA-E improves upon LWL by a factor of 2, and for high loads
    by a factor of 4"; "for low loads LWL leads to lower slowdowns than SITA-E".

    Measured (full precision): 1.9 at ρ = 0.5, 4.4 at 0.7, 6.3 at 0.8 (the gap
    keeps widening past the paper's 4), LWL 6× better at ρ = 0.1.
    """
    r = rel(fig3, "lwl", "sita_e")
    assert 1.4 < at(r, 0.5) < 2.5
    assert 3.5 < at(r, 0.7) < 5.5
    assert at(r, 0.8) > 4.0
    assert at(r, 0.1) < 0.3


def test_four_hosts_variance_sita_e_25x_lower_than_lwl(fig3):
    """Fig. 3 right: "SITA-E's variance in slowdown is 25 times lower than that of LWL".

    Measured (full precision): 21 at ρ = 0.5, 36 at 0.6, growing to 55–78 at 0.7–0.8.
    """
    r = values(rel(fig3, "lwl", "sita_e", "var_slowdown"), MEDIUM_HIGH)
    assert 12 < r[0] < 40, r
    assert np.all(r > 12), r


def test_four_hosts_random_same_lwl_and_sita_e_improve(fig2, fig3):
    """"The results for Random are the same as in the 2 host system"; LWL and SITA-E "improve
    significantly when switching from 2 hosts to 4 hosts"."""
    two, four = mean(fig2), mean(fig3)
    random2, random4 = two.sel(policy="random"), four.sel(policy="random")
    assert np.all(np.abs(random4 - random2) <= 1.5 * (random2.halfwidth + random4.halfwidth) + 0.05 * random2)
    for policy in ("lwl", "sita_e"):
        gain = values(two.sel(policy=policy) / four.sel(policy=policy), MEDIUM_HIGH)
        assert np.all(gain > 1.8), (policy, gain)
