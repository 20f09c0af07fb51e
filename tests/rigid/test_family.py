"""The rigid family through the engine's contract (sweep/families/_family.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families import FAMILIES, Point, StopRule, family_of, load_families

KTH = "data/traces/KTH-SP2-1996-2.1-cln.swf.gz"


def _point(policy="easy", record_jobs=False, processors=128, **workload):
    wl = {"name": "kth", "kind": "swf", "path": KTH, "split": "month", "overrun": "kill",
          "priority_every": 0, "priority_gap": 2.0, **workload}
    return Point(policy={"name": policy}, workload=wl, system={"processors": processors},
                 load=0.7, stop=StopRule(jobs=1, warmup=0), record_jobs=record_jobs)


def test_registered():
    load_families()
    assert set(FAMILIES["rigid"].policies) >= {"fcfs", "easy", "conservative"}
    assert family_of("conservative").name == "rigid"


def test_monthly_run_summary_and_jobs():
    family = family_of("conservative")
    point = _point("conservative", record_jobs=True)
    a = family.simulate(point, np.random.default_rng(1))
    b = family.simulate(point, np.random.default_rng(2))
    assert a.summary["mean_wait"] == b.summary["mean_wait"]  # trace runs are deterministic
    s = a.summary
    declared = {v.name: v for v in family.variables}
    assert set(s) <= set(declared)
    assert s["jobs"] == 28475 and s["saturated"] is False and a.work == 28475
    months = family.extra_coords["month"](point)
    assert months[0] == "1996-09" and len(months) == 12
    for name in ("monthly_mean_wait", "monthly_jobs", "monthly_utilization"):
        assert s[name].shape == (12,) and declared[name].dims == ("month",)
    # the yearly figure is total wait over total jobs, not the mean of the monthly means
    assert s["mean_wait"] == pytest.approx(
        (s["monthly_mean_wait"] * s["monthly_jobs"]).sum() / s["monthly_jobs"].sum())
    assert 0 < s["utilization"] < 1 and s["mean_bounded_slowdown"] >= 1
    assert s["max_wait"] >= s["mean_wait"] and np.isnan(s["mean_wait_high"])
    jobs = a.jobs
    assert set(jobs) == {"job_number", "submit", "start", "end"}
    assert (jobs["start"] >= jobs["submit"]).all() and (jobs["end"] > jobs["start"]).all()
    assert np.mean(jobs["start"] - jobs["submit"]) == pytest.approx(s["mean_wait"])
    assert a.attrs["trace_dropped_no_processors"] == 1


def test_whole_trace_has_no_month_variables_and_priority_classes():
    family = family_of("easy")
    s = family.simulate(_point(split="none", priority_every=5), np.random.default_rng(0)).summary
    assert not any(name.startswith("monthly_") for name in s)
    assert s["mean_wait_high"] > 0 and s["mean_wait_low"] > 0


@pytest.mark.parametrize("point, option", [
    (_point(path="no/such/file.swf"), "workload.path"),
    (_point(kind="trace"), "workload.kind"),
    (_point(split="week"), "workload.split"),
    (_point(overrun="stretch"), "workload.overrun"),
    (_point(processors=0), "system.processors"),
    (Point(policy={"name": "easy", "depth": 2}, workload=_point().workload,
           system={"processors": 128}, load=0.7, stop=StopRule(1, 0)), "depth"),
])
def test_validate_names_the_option(point, option):
    with pytest.raises(ValueError, match=option):
        family_of("easy").validate(point)


@pytest.mark.parametrize("load", [0.4, 0.8])
def test_rescaled_load_is_the_measured_utilization(load):
    """workload.rescale_load: point.load sets the offered load, EASY then carries it all."""
    point = _point(split="none", rescale_load=True)
    point = Point(policy=point.policy, workload=point.workload, system=point.system, load=load,
                  stop=point.stop)
    summary = family_of("easy").simulate(point, np.random.default_rng(0)).summary
    assert summary["utilization"] == pytest.approx(load, rel=0.02)
