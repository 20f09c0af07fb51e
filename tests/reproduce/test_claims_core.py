"""Claims as records (docs/design.md §9): reading printed numbers, verdicts, the claims files."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

from sweep.reproduce.claims import Claim, Expectation, decidable, judge, load_paper, papers, printed_range
from sweep.reproduce.quantities import QUANTITIES


def test_printed_factors_read_to_one_significant_figure():
    assert printed_range(3, 4, 1) == pytest.approx((2.5, 4.5))
    assert printed_range(10, 10, 1) == pytest.approx((9.5, 15))
    assert printed_range(25, 25, 2) == pytest.approx((24.5, 25.5))


def _claim(expect: dict, direction: dict | None = None) -> Claim:
    return Claim("test", "c", "§1", "words", "mean", {}, Expectation.parse(expect, "test"),
                 Expectation.parse(direction, "test") if direction else None)


def _measured(values, halfwidth) -> xr.DataArray:
    da = xr.DataArray(np.asarray(values, dtype=float), dims="load", coords={"load": [0.5, 0.8][:len(values)]})
    return da.assign_coords(low=da - halfwidth, high=da + halfwidth)


@pytest.mark.parametrize(("values", "halfwidth", "verdict"), [
    ([3.2, 4.3], 0.1, "reproduced"),     # both intervals wholly inside [2.5, 4.5]
    ([3.2, 4.6], 0.05, "deviates"),      # 4.6 [4.55, 4.65] is above 4.5, still > 1
    ([3.2, 4.6], 0.2, "undecided"),      # [4.4, 4.8] straddles 4.5: the run cannot tell
    ([3.2, 0.8], 0.1, "contradicted"),   # the order reversed at one load
    ([3.2, 1.05], 0.1, "undecided"),     # [0.95, 1.15] straddles the direction's bound 1
    ([0.8, 1.05], 0.1, "contradicted"),  # one value contradicts: decided whatever the other
    ([4.48, 6.3], 0.05, "deviates"),     # 4.48 straddles 4.5, but 6.3 is decidedly off the number
    ([4.48, 0.95], 0.1, "undecided"),    # ... and here nothing is decided
])
def test_verdicts(values, halfwidth, verdict):
    claim = _claim({"between": [3, 4], "figures": 1}, {"above": 1})
    assert judge(claim, _measured(values, halfwidth)).verdict == verdict


def test_an_interval_wider_than_the_printed_precision_is_not_reproduced():
    """The paper's 2% (one figure: [1.5, 2.5]) against 3.9 [1.0, 6.8]: the interval holds the value
    but is wider than the effect, so the run cannot tell (CSSE00 Table 6, measured in an earlier run)."""
    claim = _claim({"value": 2, "figures": 1})
    assert judge(claim, _measured([3.9], 2.9)).verdict == "undecided"
    assert judge(claim, _measured([2.1], 0.3)).verdict == "reproduced"


def test_an_interval_that_merely_touches_the_value_is_undecided():
    claim = _claim({"value": 1.0})  # printed without precision: only exactly 1.0 is inside
    assert judge(claim, _measured([1.1], 0.1)).verdict == "undecided"
    assert judge(claim, _measured([1.0], 0.0)).verdict == "reproduced"


def test_deviates_needs_the_whole_interval_on_the_claimed_side_and_off_the_number():
    claim = _claim({"value": 10, "figures": 1}, {"above": 1})  # 10 read as [9.5, 15)
    assert judge(claim, _measured([5.0], 1.0)).verdict == "deviates"
    assert judge(claim, _measured([5.0], 4.5)).verdict == "undecided"  # [0.5, 9.5]: reaches below 1
    assert judge(claim, _measured([9.0], 1.0)).verdict == "undecided"  # [8, 10]: reaches the number


def test_contradicted_needs_the_whole_interval_on_the_other_side():
    claim = _claim({"at_least": 2})
    assert judge(claim, _measured([1.0, 3.0], 0.1)).verdict == "contradicted"
    assert judge(claim, _measured([1.95, 3.0], 0.1)).verdict == "undecided"


def test_without_direction_a_miss_is_a_contradiction():
    assert judge(_claim({"at_least": 2}), _measured([1.0, 3.0], 0.1)).verdict == "contradicted"


def test_a_claim_is_decidable_only_if_narrower_intervals_would_decide_it():
    claim = _claim({"between": [3, 4], "figures": 1})  # [2.5, 4.5]
    assert decidable(claim, _measured([4.3], 0.4), 0.25)       # [4.2, 4.4] would be inside
    assert not decidable(claim, _measured([4.49], 0.4), 0.25)  # [4.39, 4.59]: still straddles


def test_a_claim_with_values_on_two_dimensions_is_decidable_too():
    """Values on (policy, load), as a ratio per policy and load gives (a 2-D interval once crashed
    the rounds' test of whether replications could decide the claim)."""
    values = np.array([[4.3, 4.49], [3.0, 3.2]])
    da = xr.DataArray(values, dims=("policy", "load"), coords={"policy": ["a", "b"], "load": [0.5, 0.8]})
    da = da.assign_coords(low=da - 0.4, high=da + 0.4)
    claim = _claim({"between": [3, 4], "figures": 1})
    assert judge(claim, da).verdict == "undecided"
    assert not decidable(claim, da, 0.25)  # 4.49 [4.39, 4.59] still straddles 4.5
    assert decidable(claim, da.where(da < 4.4, 4.3), 0.25)


@pytest.mark.parametrize(("values", "halfwidth", "verdict", "marginal"), [
    ([1.04], 0.01, "contradicted", True),    # CV96 Fig. 8: [1.03, 1.05] against <= 1.02; [1.02, 1.06] touches
    ([1.05], 0.01, "contradicted", False),   # [1.03, 1.07] still clears 1.02
    ([0.978], 0.0045, "reproduced", True),   # CV96 Fig. 6(a) ties: [0.9735, 0.9825] in 0.97-1.03, doubled not
    ([1.00], 0.0045, "reproduced", False),
    ([1.015], 0.01, "undecided", False),     # an undecided verdict is not marginal: it is not decided
    ([1.04], math.nan, "contradicted", False),  # no interval: judged on the value, never marginal
])
def test_a_decided_verdict_is_marginal_when_intervals_twice_as_wide_would_not_decide_it(
        values, halfwidth, verdict, marginal):
    claim = _claim({"between": [0.97, 1.03]}) if values[0] < 1.01 else _claim({"at_most": 1.02})
    judgement = judge(claim, _measured(values, halfwidth))
    assert (judgement.verdict, judgement.marginal) == (verdict, marginal)


def test_a_value_that_could_not_be_computed_is_undecided():
    da = _measured([3.5, math.nan], 0.1)
    assert judge(_claim({"between": [3, 4], "figures": 1}), da).verdict == "undecided"


def test_unknown_interval_judges_the_value_itself():
    da = _measured([3.5, 3.5], math.nan)
    assert judge(_claim({"between": [3, 4], "figures": 1}), da).verdict == "reproduced"


def test_a_tolerance_needs_its_reason():
    with pytest.raises(ValueError, match="tolerance needs its reason"):
        Expectation.parse({"value": 1, "tolerance": 0.05}, "test")
    read = Expectation.parse({"value": 1, "tolerance": 0.05, "reason": "read"}, "test")
    assert read.low == pytest.approx(0.95)


def test_a_record_expecting_a_deviation_needs_its_note(tmp_path, monkeypatch):
    from sweep.reproduce import claims

    entry = {"id": "c", "section": "§1", "words": "w", "quantity": "mean", "args": {},
             "expect": {"value": 1}, "verdict": "deviates"}
    with pytest.raises(ValueError, match="needs a deviation note"):
        claims._claim("test", entry, {})
    with pytest.raises(ValueError, match="is not one of"):
        claims._claim("test", {**entry, "verdict": "roughly", "deviation": "x"}, {})
    assert claims._claim("test", {**entry, "deviation": "Cause unknown."}, {}).cause_unknown


def test_every_claims_file_loads_and_names_known_quantities():
    assert papers()
    for key in papers():
        paper = load_paper(key)
        assert paper.claims, key
        for claim in paper.claims:
            assert claim.quantity in QUANTITIES
            assert set(claim.presets) <= set(paper.presets), claim.id


def test_bounds_read_to_their_figures_and_an_exact_value_meets_the_upper_end():
    assert Expectation.parse({"at_least": 4, "figures": 1}, "test").low == pytest.approx(3.5)
    assert Expectation.parse({"at_most": 10, "figures": 1}, "test").high == pytest.approx(15)
    at_most_one = _claim({"at_most": 1})
    assert judge(at_most_one, _measured([1.0, 0.5], 0.0)).verdict == "reproduced"
    assert judge(at_most_one, _measured([1.01, 0.5], 0.0)).verdict == "contradicted"


def test_presets_are_found_in_nested_quantities():
    claim = Claim("test", "c", "§1", "words", "quotient",
                  {"numerator": {"quantity": "mean", "preset": "b"},
                   "denominator": {"quantity": "mean", "preset": "a"}, "presets": ["c"]},
                  Expectation.parse({"value": 1}, "test"))
    assert claim.presets == ("c", "b", "a")


def test_the_published_pages_show_the_verdicts_the_records_expect():
    """``reproduction/<paper>.csv`` (written with the pages by ``sweep-reproduce --pages``) holds, for
    every claim of the records, the verdict its record expects at full precision: CI's
    ``sweep-reproduce --check`` against the records is then a check against the pages."""
    import csv
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "reproduction"
    for key in papers():
        with (root / f"{key}.csv").open() as rows:
            published = {row["id"]: row["verdict"] for row in csv.DictReader(rows)}
        paper = load_paper(key)
        expected = {c.id: "used to calibrate" if paper.calibrated_by(c.id) else c.verdict
                    for c in paper.claims}
        assert published == expected, key


def test_a_claims_own_budget_raises_its_presets():
    import dataclasses

    cv96 = load_paper("cv96")
    saturation = next(c for c in cv96.claims if c.quantity == "saturates_before")
    ratio = next(c for c in cv96.claims if c.quantity == "response_ratio")
    preset = saturation.presets[0]
    paper = dataclasses.replace(cv96, budgets={preset: 2})
    assert paper.budget(preset, quick=False, claim=saturation) == 8
    assert paper.budget(preset, quick=False, claim=ratio) == paper.budget(preset, quick=False) == 2
    assert paper.budget(preset, quick=True, claim=saturation) == 0  # no rounds at quick precision


def test_cv96_judges_every_claim_on_four_replications_at_full_precision_only():
    """``min_replicate: 4`` on every CV96 preset (docs/model-notes.md §1, "Run length near
    saturation"); ``--quick`` judges one run."""
    paper = load_paper("cv96")
    assert {paper.floor(preset, quick=False) for preset in paper.presets} == {4}
    assert {paper.floor(preset, quick=True) for preset in paper.presets} == {1}
    assert load_paper("sh00").floor("sh00_fig2", quick=False) == 1


def test_a_mean_of_one_run_takes_the_runs_own_batch_means_interval():
    """One replication at a point: the interval is the family's ``<variable>_hw90`` there (a value
    that straddles a printed bound is then undecided, not judged as exact); two or more: Student-t
    over the replications."""
    dims = ("load", "replication")
    ds = xr.Dataset({"utilization": (dims, [[0.855, np.nan], [0.80, 0.82]]),
                     "utilization_hw90": (dims, [[0.011, np.nan], [0.01, 0.01]])},
                    coords={"load": [30.0, 20.0], "replication": [0, 1]})
    measured = QUANTITIES["mean"]({"p": ds}, "p", "utilization")
    assert measured.sel(load=30.0)["halfwidth"].item() == pytest.approx(0.011)
    t = 6.313751514675041  # t_{1, 0.95}
    spread = np.std([0.80, 0.82], ddof=1)
    assert measured.sel(load=20.0)["halfwidth"].item() == pytest.approx(t * spread / 2**0.5)
    claim = Claim("cv96", "c", "§4.3", "words", "mean", {"preset": "p", "variable": "utilization"},
                  Expectation.parse({"between": [0.82, 0.85], "figures": 2}, "cv96"))
    assert judge(claim, measured.sel(load=30.0)).verdict == "undecided"


def test_a_printed_column_is_judged_value_by_value_at_its_own_precision():
    """``values``: Table 6's Concurrent Gang idle 10, 6, 4, 3% read to whole percents (figures 2, 1,
    1, 1): 0.058 [0.056, 0.060] is inside 6% (0.055–0.065); one value off makes the column
    contradicted; a quantity with another number of values is an error, not a verdict."""
    def _column(values: np.ndarray) -> xr.DataArray:
        da = xr.DataArray(values, dims="time", coords={"time": [5000, 10000, 20000, 30000][:len(values)]})
        return da.assign_coords(low=da - 0.002, high=da + 0.002)

    expect = Expectation.parse({"values": [0.10, 0.06, 0.04, 0.03], "figures": [2, 1, 1, 1]}, "test")
    claim = Claim("ipg00", "c", "§2.3", "words", "mean", {}, expect)
    inside = np.array([0.101, 0.058, 0.041, 0.031])
    assert judge(claim, _column(inside)).verdict == "reproduced"
    off = inside.copy()
    off[1] = 0.09
    assert judge(claim, _column(off)).verdict == "contradicted"
    with pytest.raises(ValueError, match="prints 4 values"):
        judge(claim, _column(inside[:3]))
    with pytest.raises(ValueError, match="3 values but 2 figures"):
        Expectation.parse({"values": [1, 2, 3], "figures": [1, 1]}, "test")
