"""A package outside sweep adds a policy through the ``sweep.policies`` entry point (docs/adding-a-policy.md).

``tests/plugin`` is such a package (one module, one entry point, no YAML). It
is installed with pip into a temporary folder, and a sweep in a fresh
interpreter with that folder on its path finds the policy, composes it from its
schema and runs it; the sweep's own registry is left untouched.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import xarray as xr

PLUGIN = Path(__file__).resolve().parent / "plugin"


def test_installed_package_adds_a_policy_that_sweeps_run(tmp_path):
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
               str(PLUGIN)]
    subprocess.run(install, check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])}
    output = tmp_path / "idle.nc"
    sweep = [sys.executable, "-m", "sweep.cli", "grid.policy=[idle_first,round_robin]", "system.hosts=3",
             "workload=hyperexp2", "load=0.5", "stop.jobs=20000", "stop.warmup=1000",
             "engine.backend=serial", "progress=false", f"output={output}"]
    result = subprocess.run(sweep, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    dataset = xr.load_dataset(output)
    assert list(dataset["policy"].values) == ["idle_first", "round_robin"]
    response = dataset["mean_response"].squeeze().mean("replication")
    # an idle host whenever there is one, rather than the blind cycle: far shorter waits at rho = .5
    assert float(response.sel(policy="idle_first")) < 0.8 * float(response.sel(policy="round_robin"))
