"""Seed 001 Table 3's monthly priority classes and the tf99 paper figures (sweep/analysis/tf99.py)."""

from __future__ import annotations

import numpy as np

from sweep.families import Point, StopRule, family_of

KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"


def _summary(policy: str, priority_every: int) -> dict:
    workload = {"name": "kth", "kind": "swf", "path": KTH, "split": "month", "overrun": "kill",
                "priority_every": priority_every, "priority_gap": 2.0}
    point = Point(policy={"name": policy}, workload=workload, system={"processors": 128}, load=0.7,
                  stop=StopRule(jobs=1, warmup=0))
    return family_of(policy).simulate(point, np.random.default_rng(0)).summary


def test_monthly_priority_classes_equal_priorities():
    """No high-priority job: the Hi-Pri column is NaN and Lo-Pri is every job (Table 3, Equal Pri)."""
    s = _summary("easy", 0)
    assert np.isnan(s["monthly_mean_wait_high"]).all()
    np.testing.assert_array_equal(s["monthly_mean_wait_low"], s["monthly_mean_wait"])


def test_monthly_priority_classes_every_fifth_job():
    """Every fifth job high (Table 3): each month's mean lies between its two classes' means."""
    s = _summary("easy", 5)
    high, low, mean = s["monthly_mean_wait_high"], s["monthly_mean_wait_low"], s["monthly_mean_wait"]
    assert high.shape == low.shape == (12,) and not np.isnan(high).any()
    assert (np.minimum(high, low) <= mean + 1e-9).all() and (mean <= np.maximum(high, low) + 1e-9).all()
    assert (high != low).any()
