"""SH00 §2.1: the table of the traces' characteristics, for the one public trace (CTC).

"Characteristics of all the jobs used in this paper": CTC IBM-SP2, July 1996 –
May 1997, 5729 jobs, mean service requirement 2903.6 s, min 1, max 43138,
squared coefficient of variation 5.42. The jobs are those that used 8
processors (footnote 2), and "users are told jobs will be killed after 12
hours": the workload ``ctc`` leaves out the 191 jobs of the log that ran
longer (``max_run_time: 43200``). The C90 and J90 rows are the targets of the
reconstructions (tests/workloads/test_named.py).
"""

from __future__ import annotations

import time

import pytest

from sweep.config.compose import load_option
from sweep.families.dispatch._workload import workload_of
from sweep.workloads.named import PACKAGE_ROOT, trace_sizes
from sweep.workloads.swf import read_swf


@pytest.fixture(scope="module")
def ctc():
    cfg = load_option("workload", "ctc")
    return cfg, trace_sizes(cfg["path"], cfg["processors"], cfg["max_run_time"])


def test_ctc_runtime_limit_is_the_papers(ctc):
    """§2.1: "jobs will be killed after 12 hours" — 43,200 s, the workload's default."""
    cfg, _ = ctc
    assert cfg["max_run_time"] == 12 * 3600


def test_ctc_row_of_the_table(ctc):
    """5729 jobs, mean 2903.6 s, max 43138 s, C² 5.42: all four as printed (C² 5.426 here)."""
    _, (sizes, dropped, over_limit) = ctc
    assert (len(sizes), dropped, over_limit) == (5729, 0, 191)
    assert round(float(sizes.mean()), 1) == 2903.6
    assert sizes.max() == 43_138
    assert sizes.var() / sizes.mean() ** 2 == pytest.approx(5.42, abs=0.01)


@pytest.mark.xfail(strict=True, reason="min 2 s here, the paper's table prints 1 s: one job's run "
                   "time in the log's cleaned version 3.1 (every other statistic of the row matches)")
def test_ctc_min_of_the_table(ctc):
    _, (sizes, _, _) = ctc
    assert sizes.min() == 1


def test_ctc_duration_of_the_table(ctc):
    """"July 1996 – May 1997": the first and last kept job's submit month (the log's time zone)."""
    cfg, _ = ctc
    trace = read_swf(PACKAGE_ROOT / cfg["path"])
    kept = ((trace.allocated_procs == cfg["processors"]) & (trace.run_time > 0)
            & (trace.run_time <= cfg["max_run_time"]))
    first, last = (time.gmtime(trace.unix_start_time + t - 5 * 3600) for t in trace.submit[kept][[0, -1]])
    assert (first.tm_year, first.tm_mon, last.tm_year, last.tm_mon) == (1996, 7, 1997, 5)


def test_the_family_draws_from_the_papers_jobs(ctc):
    """The dispatch family's CTC sizes: the table's mean; cutoffs fitted on its first half."""
    cfg, (sizes, _, _) = ctc
    workload = workload_of(cfg)
    assert workload.mean == pytest.approx(2903.63, rel=1e-5)
    assert len(workload.cutoffs.values) == len(sizes) // 2
