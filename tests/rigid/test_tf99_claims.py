"""TF99's claims on the full KTH year that the default suite does not run (slow).

Talby & Feitelson 1999 (TF99) §3.2–3.3, Tables 1–5: KTH SP2 at 128 processors,
each calendar month from an empty machine, yearly = total wait / total jobs,
slack as §3.2 (α = 1, SF = 3, AWT = 2401 s, AST) unless a test says otherwise.
Each test asserts the paper's claim; where the model disagrees it is a strict
expected failure whose reason gives the measured value and what is known of
the cause. Tolerance: :data:`FLOOR`, the noise floor of a difference between
two single replays of the log (``conf/experiment/tf99_noise.yaml``). About
40 yearly runs: 1–2 min on an idle core.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.rigid.jobs import prepare
from sweep.families.rigid.simulate import schedule
from sweep.families.rigid.slack import HEURISTICS, POLICY, SlackParams

pytestmark = pytest.mark.slow

#: Relative noise floor of a difference between two yearly waits (two single replays): twice
#: the standard deviation of such a difference, from the largest per-replay standard deviation
#: tf99_noise measures (0.30%, slack with equal priorities; ten replays, submit times ±1 s):
#: 2·√2·0.30% ≈ 0.9%. Also used for differences of gains (their SD there: 0.3 points).
FLOOR = 0.009

#: The paper's gains over its conservative 2401.44 s, and its Table 2 and Table 4 rows.
PAPER_CONSERVATIVE = 2401.44
TABLE2 = {1: 2156, 3: 2004, 5: 2027, 7: 1986, 9: 1939, 11: 1956}
TABLE4 = {0.0: 2004.46, 0.5: 2020.40, 1.0: 2044.39, 1.5: 2017.82, 2.0: 2226.17}


def _waits(jobs, policy, params):
    start = schedule(jobs, policy, params)
    wait = start - jobs.submit
    high = jobs.priority > 0
    monthly = np.array([wait[jobs.part(k)].mean() for k in range(len(jobs.labels))])
    monthly_high = np.array([wait[jobs.part(k)][high[jobs.part(k)]].mean() if high[jobs.part(k)].any()
                             else np.nan for k in range(len(jobs.labels))])
    monthly_low = np.array([wait[jobs.part(k)][~high[jobs.part(k)]].mean()
                            for k in range(len(jobs.labels))])
    return {"all": float(wait.mean()), "high": float(wait[high].mean()) if high.any() else np.nan,
            "low": float(wait[~high].mean()), "monthly": monthly, "monthly_high": monthly_high,
            "monthly_low": monthly_low}


def _per_month_awt(jobs, awt_of_month) -> float:
    """Yearly wait of slack with each month's own AWT (§3.2's "monthly AWT")."""
    start = np.empty(len(jobs))
    for k in range(len(jobs.labels)):
        s = jobs.part(k)
        start[s] = POLICY.hooks.schedule(jobs.submit[s], jobs.run[s], jobs.requested[s], jobs.procs[s],
                                         jobs.priority[s], jobs.processors,
                                         SlackParams(awt=awt_of_month[k]))
    return float((start - jobs.submit).mean())


@pytest.fixture(scope="module")
def runs(kth):
    equal = prepare(kth, split="month")
    by_gap = {g: prepare(kth, split="month", priority_every=5, priority_gap=g) for g in TABLE4 if g > 0}
    out = {"conservative": _waits(equal, "conservative", None), "easy": _waits(equal, "easy", None)}
    for sf in TABLE2:
        out[f"sf{sf}"] = _waits(equal, "slack", SlackParams(slack_factor=float(sf)))
    for g, jobs in by_gap.items():
        out[f"gap{g}"] = _waits(jobs, "slack", SlackParams())
    out["gap0.0"] = out["sf3"]
    for h in HEURISTICS:
        out[f"equal_{h}"] = _waits(equal, "slack", SlackParams(heuristic=h))
        out[f"unequal_{h}"] = _waits(by_gap[2.0], "slack", SlackParams(heuristic=h))
    conservative = out["conservative"]
    out["yearly_awt"] = _waits(equal, "slack", SlackParams(awt=conservative["all"]))["all"]
    out["monthly_awt"] = _per_month_awt(equal, np.maximum(conservative["monthly"], 1.0))
    out["running_awt"] = _waits(equal, "slack", SlackParams(awt=conservative["all"],
                                                            awt_estimate="running"))["all"]
    out["tiny_awt"] = _waits(equal, "slack", SlackParams(awt=1.0))["all"]
    out["alpha_p"] = _waits(by_gap[2.0], "slack", SlackParams(alpha_u=0.2, alpha_t=0.2, alpha_f=0.2))
    out["alpha_u_half"] = _waits(by_gap[2.0], "slack", SlackParams(alpha_u=0.5))
    out["alpha_t_half"] = _waits(by_gap[2.0], "slack", SlackParams(alpha_t=0.5))
    for name, value in out.items():
        shown = value if isinstance(value, float) else {k: v for k, v in value.items()
                                                         if not k.startswith("monthly")}
        print(name, shown)
    return out


def _gain(runs, name, row="all"):
    return 1 - runs[name][row] / runs["conservative"]["all"]


# --- Table 1 -------------------------------------------------------------------------------


def test_table1_slack_wins_in_every_month(runs):
    """§3.2: "Except for September '96 in which only 85 jobs were executed, the algorithm
    performs well on a variety of workloads": slack below conservative in every month from
    October on (the paper: 9.5–23.3%; measured 7.0–22.0%)."""
    slack, conservative = runs["sf3"]["monthly"][1:], runs["conservative"]["monthly"][1:]
    assert (slack < conservative * (1 - FLOOR)).all()


@pytest.mark.xfail(strict=True, reason="2015.2 s, 16% below the paper's 2401.44 s: the paper's "
                   "simulator, its copy of the log (2357 jobs a month against 2373) or its event "
                   "details differ in ways it does not print (reproduction/tf99.md)")
def test_conservative_baseline(runs):
    """§3.1, Table 1: conservative's yearly average wait "is 2401 seconds"."""
    assert abs(runs["conservative"]["all"] / PAPER_CONSERVATIVE - 1) < FLOOR


# --- Table 2 -------------------------------------------------------------------------------


def test_table2_sf1_is_the_worst(runs):
    """Table 2: SF = 1 has the highest wait (2156 s; the others 1939–2027 s). Measured: 1830.8 s;
    the others 1698.6–1740.1 s."""
    others = [runs[f"sf{sf}"]["all"] for sf in TABLE2 if sf != 1]
    assert runs["sf1"]["all"] > max(others) * (1 + FLOOR)


def test_table2_sf9_improves_on_sf3(runs):
    """§3.2: "larger slack factors modestly improved the results (19.25% average improvement for
    SF=9)": SF = 9 gains more than SF = 3 by more than the noise floor. Measured: 15.7% vs
    13.7% (paper 19.3% vs 16.5%)."""
    assert _gain(runs, "sf9") > _gain(runs, "sf3") + FLOOR


# --- Table 4 -------------------------------------------------------------------------------


def test_table4_hi_lo_difference_positive_and_smaller_for_smaller_gaps(runs):
    """§3.3: "Other simulations using a smaller gap exhibited a smaller, but still positive,
    difference in the average wait time between the groups"."""
    diffs = [runs[f"gap{g}"]["low"] - runs[f"gap{g}"]["high"] for g in (0.5, 1.0, 1.5, 2.0)]
    floor = FLOOR * runs["sf3"]["all"]
    assert min(diffs) > floor
    assert all(b > a - floor for a, b in zip(diffs, diffs[1:], strict=False))


@pytest.mark.xfail(strict=True, reason="gaps 0.5, 1, 1.5, 2 cost +4.6%, +1.5%, +2.1%, +5.0% over "
                   "gap 0 (paper +0.8%, +2.0%, +0.7%, +11.1%): gap 0 is the optimum, but gap 0.5 "
                   "costs about as much as gap 2. Cause not established (reproduction/tf99.md)")
def test_table4_zero_gap_optimal_and_maximal_gap_costly(runs):
    """Table 4, §3.3: "With the exception of the maximal gap, the overall AWT was very close to
    the optimum (which is obtained with zero gap)": every gap at or above gap 0, and gap 2's
    cost larger than every other gap's by more than the floor."""
    zero = runs["gap0.0"]["all"]
    costs = {g: runs[f"gap{g}"]["all"] / zero - 1 for g in (0.5, 1.0, 1.5, 2.0)}
    assert min(costs.values()) > -FLOOR
    assert costs[2.0] > max(costs[g] for g in (0.5, 1.0, 1.5)) + FLOOR


# --- §3.2: the AWT estimate ----------------------------------------------------------------


def test_tiny_awt_collapses_to_conservative(runs):
    """§3.2: "using a very small value causes the algorithm to collapse to conservative
    scheduling" (AWT = 1 s: slacks of a few seconds). Measured: 2024.0 s against 2015.2 s
    (before issue 14, with completions read as Remove(), 1804 s: 10% below)."""
    assert abs(runs["tiny_awt"] / runs["conservative"]["all"] - 1) < FLOOR


@pytest.mark.xfail(strict=True, reason="each month's own AWT (conservative's monthly wait) gives "
                   "1767.9 s against 1775.9 s with the yearly AWT (conservative's yearly 2015 s): "
                   "0.5% better, within the 0.9% floor, not worse. Cause not established")
def test_monthly_awt_slightly_worse(runs):
    """§3.2: "using a monthly instead of the yearly AWT separately for each month produced
    slightly worse results" (both AWTs from conservative's waits, as the paper's 2401 s)."""
    assert runs["monthly_awt"] > runs["yearly_awt"] * (1 + FLOOR)


@pytest.mark.xfail(strict=True, reason="a running AWT (the mean wait of the jobs started so far, "
                   "the yearly AWT counting as one job; a reconstruction, the paper gives no "
                   "formula) gives 1781.1 s against 1775.9 s with the fixed yearly AWT: +0.3%, "
                   "within the 0.9% floor, not significantly worse")
def test_running_awt_significantly_worse(runs):
    """§3.2: "using a running average method to update the AWT dynamically caused significantly
    worse performance"."""
    assert runs["running_awt"] > runs["yearly_awt"] * (1 + 3 * FLOOR)


# --- Table 3 -------------------------------------------------------------------------------


@pytest.mark.xfail(strict=True, reason="+5.0% (1740.1 -> 1827.7 s; SD of this cost over jittered "
                   "replays 0.3 points). completion=tick gives +9.8% but slack then loses to "
                   "conservative by 17.9%, against Table 1; no reading of §2 measured gives both "
                   "(reproduction/tf99.md)")
def test_table3_cost_of_priorities(runs):
    """§3.3: "the average wait time of the entire system rose by 11.1%" with every fifth job at
    UP = PP = 1: the measured cost within the floor of 11.1%, or more."""
    assert runs["unequal_ast"]["all"] / runs["equal_ast"]["all"] - 1 > 0.111 - FLOOR


@pytest.mark.xfail(strict=True, reason="high-priority jobs wait less in 9 of the 11 months from "
                   "October (not November, the paper's exception too, and February, 2382.8 vs "
                   "2364.6 s)")
def test_table3_high_priority_waits_less_in_all_months_but_one(runs):
    """Table 3: Hi-Pri below Lo-Pri in every month but one (November) of the 11 from October on
    (September, 85 jobs in the paper and 92 waiting about 1 s here, is not comparable)."""
    high, low = runs["unequal_ast"]["monthly_high"][1:], runs["unequal_ast"]["monthly_low"][1:]
    assert np.count_nonzero(high < low) >= 10


# --- Table 5 -------------------------------------------------------------------------------


def test_table5_every_heuristic_improves_conservative_with_either_priorities(runs):
    """§3.2 "Notably all heuristics improve conservative scheduling", and Table 5's unequal row:
    all five below the paper's conservative 2401 s with every fifth job prioritized too."""
    for h in HEURISTICS:
        for kind in ("equal", "unequal"):
            assert runs[f"{kind}_{h}"]["all"] < runs["conservative"]["all"] * (1 - FLOOR)


def test_table3_priorities_still_beat_conservative_and_easy(runs):
    """§3.3: with unequal priorities "This is still an improvement over conservative scheduling
    and EASY". Measured: 1827.7 s against 2015.2 and 1890.5 s."""
    assert runs["unequal_ast"]["all"] < runs["easy"]["all"] * (1 - FLOOR)


@pytest.mark.xfail(strict=True, reason="unequal priorities: AST best (1827.7 s), AAT 1879.2 s, "
                   "2.8% worse, not marginally better; the five span 3.8%, not 2.5%. Cause not "
                   "established")
def test_table5_unequal_aat_marginally_better_than_ast(runs):
    """§3.3: "Descending arrival time performed marginally better" than AST with unequal
    priorities (2223.3 vs 2226.2 s), all five within 2.5%."""
    waits = {h: runs[f"unequal_{h}"]["all"] for h in HEURISTICS}
    assert waits["aat"] < waits["ast"] * (1 + FLOOR)
    assert max(waits.values()) / min(waits.values()) - 1 < 0.025 + FLOOR


# --- §3.3: the α weights ---------------------------------------------------------------------


def test_alpha_p_emphasis_degrades_both_groups(runs):
    """§3.3: α_p = 1, α_u = α_t = α_f = 0.2 "exhibited a considerable degradation of the average
    wait time of both groups". Measured: Hi-Pri 1737.0 s, Lo-Pri 1895.5 s against 1679.2 and
    1864.8 s."""
    for row in ("high", "low"):
        assert runs["alpha_p"][row] > runs["unequal_ast"][row] * (1 + FLOOR)


@pytest.mark.xfail(strict=True, reason="the Lo-Pri − Hi-Pri gap shrinks to 158.4 s from 185.6 s "
                   "at α = 1. Cause not established")
def test_alpha_p_emphasis_widens_the_gap_slightly(runs):
    """§3.3: the same setting showed "a slight increase in the wait time gap between the
    preferred and the regular groups"."""
    emphasis, base = runs["alpha_p"], runs["unequal_ast"]
    assert emphasis["low"] - emphasis["high"] > base["low"] - base["high"]


def test_high_alpha_u_and_alpha_t_are_better(runs):
    """§3.3: "It seems that a high α_u and α_t are crucial to the effectiveness of the
    scheduler": halving either raises the yearly wait beyond the floor (unequal priorities).
    Measured: 1847.0 s (α_u = 0.5) and 1885.6 s (α_t = 0.5) against 1827.7 s."""
    base = runs["unequal_ast"]["all"]
    assert runs["alpha_u_half"]["all"] > base * (1 + FLOOR)
    assert runs["alpha_t_half"]["all"] > base * (1 + FLOOR)
