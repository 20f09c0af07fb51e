"""The named workloads of SH00 against the statistics the paper prints (docs/model-notes.md §3)."""

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize

from sweep.workloads.distributions import Distribution
from sweep.workloads.named import (
    J90_PARAMETERS,
    PACKAGE_ROOT,
    c90,
    j90,
    j90_refitted,
    resolve_trace_path,
    trace_sizes,
)

CTC = "data/traces/CTC-SP2-1996-3.1-cln.swf.gz"


def sita_e_cutoff(distribution: Distribution) -> float:
    """The 2-host SITA-E cutoff: the size below which jobs carry half the load."""
    lo, hi = distribution.support
    half = distribution.mean / 2
    return optimize.brentq(
        lambda x: distribution.partial_moment(1, -math.inf, x) - half, lo, hi, xtol=1e-9
    )


def test_c90_reproduces_the_published_statistics():
    """Published: mean 4562.6, C² 43.16, 98.7% below x*, E[X²|h1] 4.5e7, |h2 6.5e10, 9.2e8.

    Measured: mean 4562.7, C² 43.161, x* = 69190.7, 98.654% below, 4.500e7, 6.501e10, 9.19e8.
    """
    distribution = c90()
    assert distribution.mean == pytest.approx(4562.6, rel=0.02)
    assert distribution.scv == pytest.approx(43.16, rel=0.05)
    lo, hi = distribution.support
    assert lo >= 1 and hi <= 2_222_749
    cutoff = sita_e_cutoff(distribution)
    below = distribution.cdf(cutoff)
    assert below == pytest.approx(0.987, abs=0.002)
    host1 = distribution.partial_moment(2, -math.inf, cutoff) / below
    host2 = distribution.partial_moment(2, cutoff, math.inf) / (1 - below)
    assert host1 == pytest.approx(4.5e7, rel=0.1)
    assert host2 == pytest.approx(6.5e10, rel=0.1)
    assert distribution.moment(2) == pytest.approx(9.2e8, rel=0.1)
    assert distribution.moment(-1) == pytest.approx(0.0208, rel=0.01)  # docs/model-notes.md §3


def test_j90_fit_matches_the_published_statistics_and_its_own_assumption():
    """Published: mean 9448.6, C² 10.02, min 4, max 618532. Measured: 9448.5, 10.020."""
    distribution = j90()
    assert distribution.mean == pytest.approx(9448.6, rel=0.02)
    assert distribution.scv == pytest.approx(10.02, rel=0.05)
    lo, hi = distribution.support
    assert lo >= 4 and hi <= 618_532
    # the fit's assumption: the body/tail junction is the 2-host SITA-E cutoff
    assert sita_e_cutoff(distribution) == pytest.approx(57_519, rel=1e-3)


def test_j90_refitted_is_j90_at_the_borrowed_shapes():
    """Fitted again at the borrowed σ and α, the J90 has j90's parameters to their printed digits."""
    refitted = j90_refitted()
    body, tail = refitted.components
    assert refitted.weights[1] == pytest.approx(J90_PARAMETERS["tail_weight"], abs=5e-7)
    assert body.mu == pytest.approx(J90_PARAMETERS["mu"], abs=5e-5)
    assert tail.k == pytest.approx(J90_PARAMETERS["k"], abs=0.5)


@pytest.mark.parametrize(("sigma", "alpha"), [(1.8, 1.3), (2.5, 1.8), (1.8, 1.8), (2.5, 1.3)])
def test_j90_refitted_keeps_what_sh00_prints_and_moves_what_it_does_not(sigma, alpha):
    """Other borrowed shapes (the sensitivity design's corners): SH00's mean, C², min and max hold
    exactly, the tail still carries half the load, and E[1/X] (printed nowhere) moves."""
    refitted = j90_refitted(sigma, alpha)
    assert refitted.mean == pytest.approx(9448.6, rel=1e-9)
    assert refitted.scv == pytest.approx(10.02, rel=1e-9)
    assert refitted.support == (4.0, 618_532.0)
    assert sita_e_cutoff(refitted) == pytest.approx(refitted.components[1].k, rel=1e-6)
    assert abs(refitted.moment(-1) / j90().moment(-1) - 1) > 0.05


def test_ctc_trace_sizes():
    """Without a runtime limit, the archive's cleaned v3.1 log has 5920 8-processor jobs, mean
    4584.9 s, C² 6.23, max 68868 s: 191 of them ran past CTC's 12-hour limit (SH00 §2.1)."""
    sizes, dropped, over_limit = trace_sizes(CTC, processors=8)
    assert (len(sizes), dropped, over_limit) == (5920, 0, 0)
    assert sizes.mean() == pytest.approx(4584.87, rel=1e-4)
    assert sizes.var() / sizes.mean() ** 2 == pytest.approx(6.227, rel=1e-3)
    assert sizes.min() > 0


def test_trace_sizes_drops_and_counts_non_positive_run_times(tmp_path):
    lines = [
        " 1 0 0  10 8 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1",
        " 2 1 0   0 8 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1",
        " 3 2 0  -1 8 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1",
        " 4 3 0  30 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1",
        " 5 4 0  50 8 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1",
    ]
    path = tmp_path / "small.swf"
    path.write_text("\n".join(lines) + "\n")
    sizes, dropped, over_limit = trace_sizes(path)
    np.testing.assert_array_equal(sizes, [10.0, 50.0])
    assert (dropped, over_limit) == (2, 0)
    sizes, dropped, over_limit = trace_sizes(path, max_run_time=40)  # a runtime limit of 40 s
    np.testing.assert_array_equal(sizes, [10.0])
    assert (dropped, over_limit) == (2, 1)


def test_relative_trace_paths_fall_back_to_the_shipped_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resolve_trace_path(CTC) == PACKAGE_ROOT / CTC
    (tmp_path / "data").mkdir()
    local = tmp_path / "data" / "mine.swf"
    local.write_text("")
    assert resolve_trace_path(Path("data/mine.swf")) == local.resolve()
