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


def _fake_distribution(site: Path, name: str, entry_points: str, modules: dict[str, str]) -> None:
    """An installed package as importlib.metadata finds it: a ``.dist-info`` folder and its modules."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    for module, text in modules.items():
        (site / f"{module}.py").write_text(text)


def test_a_broken_or_clashing_plugin_is_left_out_with_one_line_and_breaks_no_other_sweep(tmp_path):
    """Issue 31: a plugin that fails to import, or whose policy takes a built-in's name, raised in
    every sweep (the families are loaded for any policy)."""
    site = tmp_path / "site"
    _fake_distribution(site, "broken_plugin", "[sweep.policies]\nbroken = broken_plugin:POLICY\n",
                       {"broken_plugin": "raise ImportError(\"No module named 'numpy_extra'\")\n"})
    clash = ("from sweep.families.dispatch.random import POLICY as RANDOM\n"
             "import dataclasses\nPOLICY = dataclasses.replace(RANDOM)  # another object, the same name\n")
    _fake_distribution(site, "clash_plugin", "[sweep.policies]\nclash = clash_plugin:POLICY\n",
                       {"clash_plugin": clash})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    common = ["engine.backend=serial", "stop.jobs=2000", "stop.warmup=0", "replications=1", "progress=false",
              "plots=false"]
    output = f"output={tmp_path / 'lwl.nc'}"
    ran = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=lwl", *common, output],
                         env=env, capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    said = [line for line in ran.stderr.splitlines() if "left out" in line]
    assert said == ["sweep: plugin 'broken = broken_plugin:POLICY' left out: ImportError: No module named "
                    "'numpy_extra'",
                    "sweep: plugin 'clash = clash_plugin:POLICY' left out: ValueError: policy 'random' is "
                    "taken (the dispatch family has one of that name)"]
    refused = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=broken", *common], env=env,
                             capture_output=True, text=True, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1].startswith("sweep: error: unknown policy 'broken'")
    assert "broken_plugin" in refused.stderr
