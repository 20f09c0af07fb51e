"""Claims as records (docs/design.md §9): reading printed numbers, verdicts, the claims files."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

from sweep.reproduce.claims import Claim, Expectation, judge, load_paper, papers, printed_range
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
    ([3.2, 4.3], 0.1, "reproduced"),     # both round into 3–4
    ([3.2, 4.6], 0.05, "deviates"),      # 4.6 [4.55, 4.65] is above 4.5, still > 1
    ([3.2, 4.6], 0.2, "reproduced"),     # the interval reaches back into the range
    ([3.2, 0.8], 0.1, "contradicted"),   # the order reversed at one load
])
def test_verdicts(values, halfwidth, verdict):
    claim = _claim({"between": [3, 4], "figures": 1}, {"above": 1})
    assert judge(claim, _measured(values, halfwidth)).verdict == verdict


def test_without_direction_a_miss_is_a_contradiction():
    assert judge(_claim({"at_least": 2}), _measured([1.0, 3.0], 0.1)).verdict == "contradicted"


def test_unknown_interval_judges_the_value_itself():
    da = _measured([3.5, 3.5], math.nan)
    assert judge(_claim({"between": [3, 4], "figures": 1}), da).verdict == "reproduced"


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
