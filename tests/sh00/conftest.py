"""Reduced-precision runs of SH00's experiments, shared by the claim tests (module docstrings).

Each fixture runs one ``conf/experiment/sh00_*.yaml`` preset on a few of its
loads with fewer jobs and replications than the full preset (the overrides are
the only difference), serial backend, once per test session.
"""

from __future__ import annotations

import pytest
import xarray as xr

import sweep

#: Reduced precision: measured jobs and warm-up per replication, replications.
JOBS, WARMUP, REPLICATIONS = 1_000_000, 100_000, 3


def reduced(tmp_path_factory: pytest.TempPathFactory, experiment: str, *overrides: str,
            jobs: int = JOBS, replications: int = REPLICATIONS) -> xr.Dataset:
    """``sweep experiment=<experiment>`` at reduced precision, serial, no figures."""
    output = tmp_path_factory.mktemp(experiment) / "results.nc"
    return sweep.run([f"experiment={experiment}", *overrides, f"stop.jobs={jobs}",
                      f"stop.warmup={jobs // 10}", f"replications={replications}",
                      "engine.backend=serial", "progress=false", "plots=false", f"output={output}"])


@pytest.fixture(scope="session")
def fig2(tmp_path_factory):
    """Random, LWL, SITA-E on 2 hosts, C90 (Figure 2)."""
    return reduced(tmp_path_factory, "sh00_fig2", "grid.load=[0.1,0.2,0.5,0.6,0.7,0.8]")


@pytest.fixture(scope="session")
def fig3(tmp_path_factory):
    """Random, LWL, SITA-E on 4 hosts, C90 (Figure 3)."""
    return reduced(tmp_path_factory, "sh00_fig3", "grid.load=[0.1,0.2,0.5,0.6,0.7,0.8]")


@pytest.fixture(scope="session")
def fig4(tmp_path_factory):
    """SITA-E, SITA-U-opt, SITA-U-fair on 2 hosts, C90 (Figure 4)."""
    return reduced(tmp_path_factory, "sh00_fig4", "grid.load=[0.5,0.6,0.7,0.8]")


@pytest.fixture(scope="session")
def fig6(tmp_path_factory):
    """SITA-U-opt, SITA-U-fair, the ρ/2 rule on 2 hosts, C90 (Figures 5 and 6)."""
    return reduced(tmp_path_factory, "sh00_fig6", "grid.load=[0.2,0.5,0.8]")


@pytest.fixture(scope="session")
def analytic_c90(tmp_path_factory):
    """Every policy with a closed form, by analysis, 2 hosts, C90 (Figures 7 and 8)."""
    output = tmp_path_factory.mktemp("analytic") / "results.nc"
    return sweep.run(["experiment=sh00_fig7", "grid.policy=[random,lwl,sita_e,sita_u_opt,sita_u_fair]",
                      "engine.backend=serial", "progress=false", "plots=false", f"output={output}"])


@pytest.fixture(scope="session")
def fairness(tmp_path_factory):
    """SITA-E and SITA-U-fair at ρ = 0.5 with per-job arrays (§4.1's fairness)."""
    return reduced(tmp_path_factory, "sh00_fig4", "grid.policy=[sita_e,sita_u_fair]", "grid.load=[0.5]",
                   "record_jobs=true", jobs=200_000)


@pytest.fixture(scope="session")
def j90(tmp_path_factory):
    """Every policy of Figures 9 and 10 (J90, 2 hosts)."""
    return reduced(tmp_path_factory, "sh00_fig9", "grid.load=[0.2,0.5,0.8]",
                   "grid.policy=[random,lwl,sita_e,sita_u_opt,sita_u_fair,sita_u_rule]")


@pytest.fixture(scope="session")
def ctc(tmp_path_factory):
    """Every policy of Figures 11 and 12 (CTC 8-processor jobs, 2 hosts)."""
    return reduced(tmp_path_factory, "sh00_fig11", "grid.load=[0.2,0.5,0.7,0.8]",
                   "grid.policy=[random,lwl,sita_e,sita_u_opt,sita_u_fair,sita_u_rule]")


@pytest.fixture(scope="session")
def all_policies(tmp_path_factory):
    """All nine policies, 2 hosts, C90 (§3.1's omitted curves)."""
    return reduced(tmp_path_factory, "sh00_all_policies", "grid.load=[0.1,0.2,0.5,0.8]", jobs=500_000)
