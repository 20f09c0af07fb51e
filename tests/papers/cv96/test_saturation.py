"""CV96's saturation readings: a sign test over replications decides whether a point is saturated
(sweep.papers.cv96.figures.saturation_test), a ratio at a point the test cannot call is undecided and asks
for eight replications, and rounds go to exactly those points (sweep-reproduce's _next_round)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from sweep.papers.cv96.figures import saturation_test
from sweep.reproduce.claims import Claim, Expectation, judge
from sweep.reproduce.cli import _undecided_points
from sweep.reproduce.quantities import QUANTITIES


def _points(flags: dict[str, list[bool]], response: float = 10.0) -> xr.Dataset:
    """One load, a policy per entry, one replication per flag; unflagged runs respond in
    ``response`` s (EQS) or twice that (the others)."""
    policies = list(flags)
    runs = max(len(f) for f in flags.values())
    flagged = np.array([[f + [False] * (runs - len(f)) for f in flags.values()]])
    ran = np.array([[[True] * len(f) + [False] * (runs - len(f)) for f in flags.values()]])
    mean = np.where(ran, np.where(np.array(policies) == "eqs", response, 2 * response)[None, :, None]
                    * (1 + 0.01 * np.arange(runs)), np.nan)
    coords = {"load": [0.95], "policy": policies, "replication": list(range(runs))}
    dims = ("load", "policy", "replication")
    return xr.Dataset({"mean_response": (dims, mean), "mean_response_hw90": (dims, mean * 0.02),
                       "saturated": (dims, flagged & ran)}, coords=coords)


@pytest.mark.parametrize(("flagged", "saturated", "undecided"), [
    ([True] * 7 + [False], True, False),          # P(K >= 7 | 8, 1/2) = 0.035
    ([True] * 6 + [False] * 2, False, True),      # 0.145: not beyond doubt
    ([True] * 2 + [False] * 6, False, True),
    ([True] + [False] * 7, False, False),         # P(K <= 1 | 8, 1/2) = 0.035: stable
    ([False] * 8, False, False),
    ([True], False, True),                        # one flagged run decides nothing
    ([False], False, False),                      # one run, nothing flagged: no evidence either way
])
def test_a_point_is_saturated_or_stable_by_a_sign_test(flagged, saturated, undecided):
    is_saturated, is_undecided = saturation_test(_points({"eqs": flagged}))
    assert bool(is_saturated.item()) is saturated
    assert bool(is_undecided.item()) is undecided


@pytest.mark.parametrize(("flagged", "firm"), [
    ([True] * 8, True),                           # 7 of 8 would still be saturated
    ([True] * 7 + [False], False),                # 6 of 8 would be undecided
    ([True] + [False] * 7, False),                # 2 of 8 would be undecided
    ([False] * 8, True),                          # no flag to turn: stable as in the plain test
    ([False] * 4, True),
])
def test_a_strict_call_survives_one_flag_the_other_way(flagged, firm):
    """The strict sign test (a marginal verdict's, sweep.reproduce.claims.Judgement.strict) decides
    a point only when one more replication flagged the other way would not undo the call."""
    _, undecided = saturation_test(_points({"eqs": flagged}), slack=1)
    assert bool(undecided.item()) is not firm


def test_a_verdict_on_a_call_one_flag_could_undo_is_marginal():
    """A ratio at a point saturated in 7 of 8 runs is contradicted; a strict reading leaves the point
    undecided, so the verdict is marginal (8 of 8: firm)."""
    from sweep.reproduce.claims import evaluate

    claim = _ratio_claim()
    for runs, marginal in (([True] * 7 + [False], True), ([True] * 8, False)):
        judgement = evaluate(claim, {"p": _points({"eqs": [False] * 8, "fb_pws": runs})})
        assert (judgement.verdict, judgement.marginal) == ("contradicted", marginal)


def _ratio_claim() -> Claim:
    return Claim("cv96", "c", "§5", "words", "response_ratio",
                 {"preset": "p", "policy": "fb_pws", "select": {"load": 0.95}},
                 Expectation.parse({"at_most": 1.02}, "cv96"))


def test_a_ratio_at_a_point_one_flagged_run_cannot_call_is_undecided_and_asks_for_eight():
    measured = QUANTITIES["response_ratio"]({"p": _points({"eqs": [False], "fb_pws": [True]})},
                                            "p", "fb_pws", select={"load": 0.95})
    assert np.isnan(measured.item())
    assert measured.attrs["replications_needed"] == 8
    assert judge(_ratio_claim(), measured).verdict == "undecided"


def test_a_ratio_at_a_point_saturated_beyond_doubt_counts_as_infinitely_worse():
    measured = QUANTITIES["response_ratio"]({"p": _points({"eqs": [False] * 8, "fb_pws": [True] * 8})},
                                            "p", "fb_pws", select={"load": 0.95})
    assert measured.item() == np.inf
    assert "replications_needed" not in measured.attrs
    assert judge(_ratio_claim(), measured).verdict == "contradicted"


def test_more_replications_go_only_to_the_points_a_quantity_could_not_read():
    measured = xr.DataArray([1.0, 1.1, np.nan], coords={"load": [0.8, 0.9, 0.95]}, dims="load")
    reading = {"policy": ["eqs", "fb_pws"], "load": [0.8, 0.9, 0.95]}
    assert _undecided_points(reading, measured) == {"policy": ["eqs", "fb_pws"], "load": [0.95]}
    assert _undecided_points(reading, xr.DataArray(np.nan)) == reading
