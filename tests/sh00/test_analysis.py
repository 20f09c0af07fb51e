"""SH00 §3.3, §4.3, Appendix A (Figures 7, 8): the analysis, and its agreement with simulation.

``model=analytic`` on the C90 reconstruction (reproduction/sh00.md):
Pollaczek–Khinchine per host for Random and SITA-*, the M/G/h approximation
with the ½ factor for LWL (sweep/families/dispatch/_analytic.py). Slowdown
includes the +1. The analysis has no CI; a printed factor is read to its one
significant figure (``_claims``).
"""

from __future__ import annotations

import numpy as np
import pytest

from ._claims import claim_holds, mean, rel, shown

#: "Very close agreement" of analysis and simulation, read as within 5% beyond the run's CI.
VERY_CLOSE = 0.05


def test_fig7_random_10x_sita_e(analytic_c90):
    """Fig. 7 shows Fig. 2's comparison by analysis: Random ≈ 10× SITA-E. Analysis: 9.95–10.34."""
    r = rel(analytic_c90, "random", "sita_e")
    assert claim_holds(r, 10), shown(r)


def test_fig7_lwl_2_to_10x_random(analytic_c90):
    """Fig. 7: Random and LWL differ by 2–10 (§1.4). Analysis: 10.5 at ρ = 0.1 down to 2.25 at 0.8."""
    r = rel(analytic_c90, "random", "lwl")
    assert claim_holds(r, 2, 10), shown(r)


@pytest.mark.xfail(strict=True, reason="LWL/SITA-E by analysis 3.4 at ρ = 0.5 but 4.6 at 0.8: above "
                   "3–4 at the highest load. The M/G/h approximation of LWL overestimates LWL's mean "
                   "slowdown (+7% at ρ = 0.8 against the simulation's 4.3)")
def test_fig7_sita_e_3_to_4x_better_than_lwl(analytic_c90):
    """Fig. 7: SITA-E 3–4× better than LWL at medium and high load (ρ = 0.5–0.8)."""
    r = rel(analytic_c90, "lwl", "sita_e")
    assert claim_holds(r, 3, 4, (0.5, 0.6, 0.7, 0.8)), shown(r)


def test_fig8_sita_u_by_analysis(analytic_c90):
    """Fig. 8 shows Fig. 4's comparison by analysis: SITA-U-fair 4–10× better than SITA-E over
    ρ = 0.5–0.8 (analysis: 11.7, 9.8, 7.1, 4.5), SITA-U-opt the lowest (it minimises the P-K mean
    slowdown: an invariant of the model)."""
    r = rel(analytic_c90, "sita_e", "sita_u_fair")
    assert claim_holds(r, 4, 10, (0.5, 0.6, 0.7, 0.8)), shown(r)
    assert np.all(rel(analytic_c90, "sita_u_fair", "sita_u_opt").values >= 1.0)


def _agreement(sim_ds, analysis, policy, loads):
    sim = mean(sim_ds).sel(policy=policy, load=loads)
    model = analysis.sel(policy=policy, load=loads)
    return np.abs(model - sim).values <= sim.halfwidth.values + VERY_CLOSE * model.values, sim, model


def test_simulation_and_analysis_in_close_agreement(fig2, fig4, analytic_c90):
    """§3.3 and §4.3: the analytic results "are in very close agreement with the simulation results":
    P-K (Random, SITA-E, SITA-U-opt, SITA-U-fair) within the simulation's 90% CI plus 5% at
    ρ = 0.5 and 0.8. Measured within 0.6% at full precision."""
    analysis = mean(analytic_c90)
    for ds, policy in [(fig2, "random"), (fig2, "sita_e"), (fig4, "sita_u_opt"), (fig4, "sita_u_fair")]:
        ok, sim, model = _agreement(ds, analysis, policy, [0.5, 0.8])
        assert np.all(ok), (policy, sim.values, model.values)


@pytest.mark.xfail(strict=True, reason="LWL's M/G/h approximation (the only inexact formula) "
                   "overestimates the simulated mean slowdown by 34% at ρ = 0.5 (698 vs 522 at full "
                   "precision) and 7% at 0.8 (3719 vs 3468): close at high load, loose at medium")
def test_lwl_analysis_in_close_agreement(fig2, analytic_c90):
    ok, sim, model = _agreement(fig2, mean(analytic_c90), "lwl", [0.5, 0.8])
    assert np.all(ok), (sim.values, model.values)
