"""SH00 §4.1: SITA-U's cutoffs "determined both analytically and experimentally using half of the
trace data. Both methods yielded about the same result."

On CTC (the one public trace), 2 hosts: cutoffs fitted on the first half of the
trace by P-K analysis (``cutoff_fit: analytic``, what every figure uses) and by
simulation (``cutoff_fit: simulation``: a search on simulated runs of the first
half's sizes, 2·10⁵ jobs per candidate here, 10⁶ in the presets;
sweep/families/dispatch/_sita_fit.py), each then evaluated by the P-K analysis on
the whole trace (``model=analytic``, exact for size-interval splits). "About the
same" read as: host 1's share of the work within 0.02, mean slowdown within 10%.
The simulated evaluation of both, also on the trace's second half only, is the
``sh00_cutoffs`` preset (reproduction/sh00.md).
"""

from __future__ import annotations

import numpy as np
import pytest

import sweep


@pytest.fixture(scope="module")
def fits(tmp_path_factory):
    output = tmp_path_factory.mktemp("cutoffs") / "results.nc"
    return sweep.run(["experiment=sh00_cutoffs", "model=analytic", "grid.load=[0.2,0.5,0.8]",
                      "grid.workload.sizes_from=[whole]", "grid.policy.fit_jobs=[200000]", "replications=1",
                      "engine.backend=serial", "progress=false", "plots=false", f"output={output}"]
                     ).squeeze(drop=True)


def test_analytic_and_simulated_cutoffs_about_the_same(fits):
    share = fits["host_load_fraction"].sel(host=0)
    gap = np.abs(share.sel(cutoff_fit="simulation") - share.sel(cutoff_fit="analytic"))
    assert np.all(gap.values < 0.02), gap.to_pandas()
    slowdown = fits["mean_slowdown"]
    r = slowdown.sel(cutoff_fit="simulation") / slowdown.sel(cutoff_fit="analytic")
    assert np.all(np.abs(r.values - 1) < 0.10), r.to_pandas()
