"""CSSE00's claims on Tables 5–7 (§2.3, §3.3), asserted on the presets' runs.

1. Concurrent Gang has lower idle time than Gang at every reported time, on
   all three workloads (Tables 5–7);
2. it completes more jobs on the computation- and synchronization-intensive
   workloads (Tables 6, 7; at the horizon, 40,000 s: Table 7 has Gang ahead
   at 5,000 s);
3. the I/O-intensive workload shows the largest idle-time gain (Gang's idle
   percentage minus Concurrent Gang's at the horizon: the paper's 59 points,
   against 7 and 37);
4. best fit and first fit differed by at most 3% (CSSE00 §3.3.3 names first
   fit; Silva & Scherson 1999): jobs completed by 40,000 s, both policies;
5. the printed values themselves: Concurrent Gang's idle time at 40,000 s
   within 5 points of the tables' (7%, 2%, 2%): a strict expected failure on
   the I/O- and synchronization-intensive workloads.

Means over replications, the two policies on common random numbers. The
``slow`` tests run the presets as they are (10 replications to 40,000 s);
the quick ones 2 replications to 10,000 s (claims 1 and 2 only: at 10,000 s
the computation-intensive workload still has the larger idle gain, in the
full runs too, so claim 3 is a statement about the horizon). Where the model disagrees the
test is a strict expected failure with the measured values.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import sweep

TABLES = {"ipg00_table5": "io", "ipg00_table6": "compute", "ipg00_table7": "sync"}
QUICK = ["replications=2", "system.times=[5000,10000]"]


@functools.cache
def _run(preset: str, quick: bool, *extra: str):
    overrides = [f"experiment={preset}", "engine.backend=serial", "progress=false", "plots=false",
                 "system.trace_slices=0", "output=null", *(QUICK if quick else []), *extra]
    ds = sweep.run(overrides)
    return {name: ds[name].mean("replication").squeeze(drop=True)
            for name in ("idle_fraction", "jobs_completed")}


def _lower_idle(preset: str, quick: bool) -> None:
    idle = _run(preset, quick)["idle_fraction"]
    gang, cg = idle.sel(policy="gang").values, idle.sel(policy="concurrent_gang").values
    assert np.all(cg < gang), f"idle Gang {gang.round(4)}, Concurrent Gang {cg.round(4)}"


def _more_jobs(preset: str, quick: bool) -> None:
    jobs = _run(preset, quick)["jobs_completed"].isel(time=-1)
    assert jobs.sel(policy="concurrent_gang") > jobs.sel(policy="gang"), jobs.values


def _largest_gain_on_io(quick: bool) -> None:
    gain = {}
    for preset, workload in TABLES.items():
        idle = _run(preset, quick)["idle_fraction"].isel(time=-1)
        gain[workload] = float(idle.sel(policy="gang") - idle.sel(policy="concurrent_gang"))
    assert gain["io"] > max(gain["compute"], gain["sync"]), gain


@pytest.mark.parametrize("preset", sorted(TABLES))
def test_concurrent_gang_idles_less_at_every_time_quick(preset):
    _lower_idle(preset, quick=True)


@pytest.mark.parametrize("preset", ["ipg00_table6", "ipg00_table7"])
def test_concurrent_gang_completes_more_jobs_quick(preset):
    _more_jobs(preset, quick=True)


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(TABLES))
def test_concurrent_gang_idles_less_at_every_time(preset):
    _lower_idle(preset, quick=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["ipg00_table6", "ipg00_table7"])
def test_concurrent_gang_completes_more_jobs(preset):
    _more_jobs(preset, quick=False)


@pytest.mark.slow
def test_io_workload_has_the_largest_idle_gain():
    _largest_gain_on_io(quick=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(TABLES))
def test_best_fit_within_three_percent_of_first_fit(preset):
    jobs = _run(preset, False, "grid.policy.packing=[first_fit,best_fit]")["jobs_completed"]
    jobs = jobs.isel(time=-1)
    first, best = jobs.sel(packing="first_fit"), jobs.sel(packing="best_fit")
    assert (abs(best - first) <= 0.03 * first).all(), (first.values, best.values)


#: Concurrent Gang's total idle time (%) at 40,000 s printed in CSSE00 Tables 5-7.
PAPER_CG_IDLE = {"ipg00_table5": 7.0, "ipg00_table6": 2.0, "ipg00_table7": 2.0}
CG_IDLE_XFAIL = pytest.mark.xfail(strict=True, reason=(
    "measured 26.4% (I/O) and 24.9% (sync) at 40,000 s against the paper's 7% and 2%: a PE's "
    "local scheduler runs only the tasks allocated to that PE (its column, CSSE00 3.3.3), and the "
    "model's columns hold 3.3 tasks on average over the run (tasks_per_pe); a PE serving N I/O "
    "tasks that wait 69% of their cycle idles 24% at N = 3 and 5% at N = 5 (machine-repairman), "
    "so the paper's 7% needs about 5 on every PE. Counting wholly idle slots instead "
    "(idle_slot_fraction: 3.8% and 17.6%) puts Gang at 14% and 27% against the paper's 66% and "
    "39%, so the tables count PE-time (docs/ipg00-gang.md)"))


@pytest.mark.slow
@pytest.mark.parametrize("preset", [pytest.param("ipg00_table5", marks=CG_IDLE_XFAIL), "ipg00_table6",
                                    pytest.param("ipg00_table7", marks=CG_IDLE_XFAIL)])
def test_concurrent_gang_idle_at_the_horizon_is_the_papers(preset):
    """The printed value within 5 points (the 90% half-widths are 3-6 points)."""
    idle = 100 * float(_run(preset, False)["idle_fraction"].sel(policy="concurrent_gang").isel(time=-1))
    assert abs(idle - PAPER_CG_IDLE[preset]) <= 5.0, idle
