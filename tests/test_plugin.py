"""A package outside sweep adds a policy through the ``sweep.policies`` entry point (docs/adding-a-policy.md).

``tests/plugin`` is such a package (one module, one entry point, no YAML). It
is installed with pip into a temporary folder, and a sweep in a fresh
interpreter with that folder on its path finds the policy, composes it from its
schema and runs it; the sweep's own registry is left untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import xarray as xr

PLUGIN = Path(__file__).resolve().parent / "plugin"


@pytest.mark.ray
def test_installed_package_adds_a_policy_that_sweeps_run(tmp_path):
    """On a Ray pool: the workers, started with the plugin on their path, pass the probe that every
    node can load it (``RayBackend.check_loadable``) and run it."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
               str(PLUGIN)]
    subprocess.run(install, check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")]),
           "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    output = tmp_path / "idle.nc"
    sweep = [sys.executable, "-m", "sweep.cli", "grid.policy=[idle_first,round_robin]", "system.hosts=3",
             "workload=hyperexp2", "load=0.5", "stop.jobs=20000", "stop.warmup=1000",
             "engine.backend=ray", "engine.workers=1", "progress=false", f"output={output}"]
    result = subprocess.run(sweep, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    dataset = xr.load_dataset(output)
    assert list(dataset["policy"].values) == ["idle_first", "round_robin"]
    response = dataset["mean_response"].squeeze().mean("replication")
    # an idle host whenever there is one, rather than the blind cycle: far shorter waits at rho = .5
    assert float(response.sel(policy="idle_first")) < 0.8 * float(response.sel(policy="round_robin"))


EXAMPLE_PAPER = Path(__file__).resolve().parents[1] / "examples" / "kleinrock75"


def test_an_installed_package_adds_a_paper_that_sweep_reproduce_judges(tmp_path):
    """Issue 31: ``examples/kleinrock75`` (docs/adding-a-paper.md) declares a paper in the
    ``sweep.papers`` entry point group. Installed elsewhere, its preset composes, its figure is
    drawn and its claim is judged with sweep's own papers' machinery: the M/M/1 mean time in
    system at rho = 0.5 and 0.8 within the printed 2 and 5 (Kleinrock 1975 §3.2), reproduced."""
    import csv

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                    str(EXAMPLE_PAPER)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")]),
           "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    out = tmp_path / "report"
    reproduce = [sys.executable, "-m", "sweep.reproduce.cli", "--paper", "kleinrock75", "--quick",
                 "--workers", "1", "--no-progress", "--out", str(out)]
    result = subprocess.run(reproduce, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "kleinrock75: 1 claims: 1 reproduced" in result.stderr
    with (out / "claims.csv").open() as rows:
        (row,) = csv.DictReader(rows)
    assert (row["id"], row["verdict"], row["expected"]) == \
        ("mm1.mean_time_in_system", "reproduced", "reproduced")
    assert (out / "figures" / "kleinrock75_mm1.png").is_file()


def _fake_distribution(site: Path, name: str, entry_points: str, modules: dict[str, str]) -> None:
    """An installed package as importlib.metadata finds it: a ``.dist-info`` folder and its modules."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    for module, text in modules.items():
        (site / f"{module}.py").write_text(text)


def test_a_broken_or_clashing_plugin_is_left_out_with_one_line_and_breaks_no_other_sweep(tmp_path):
    """Issue 31: a plugin that fails to import, whose policy takes a built-in's name, or that was
    written for another version of the contract raised in every sweep (the families are loaded for
    any policy)."""
    site = tmp_path / "site"
    _fake_distribution(site, "broken_plugin", "[sweep.policies]\nbroken = broken_plugin:POLICY\n",
                       {"broken_plugin": "raise ImportError(\"No module named 'numpy_extra'\")\n"})
    clash = ("from sweep.families.dispatch.random import POLICY as RANDOM\n"
             "import dataclasses\nPOLICY = dataclasses.replace(RANDOM)  # another object, the same name\n")
    _fake_distribution(site, "clash_plugin", "[sweep.policies]\nclash = clash_plugin:POLICY\n",
                       {"clash_plugin": clash})
    future = ("from sweep.families.dispatch.random import POLICY as RANDOM\n"
              "import dataclasses\nSWEEP_CONTRACT = 2\nPOLICY = dataclasses.replace(RANDOM, name='future')\n")
    _fake_distribution(site, "future_plugin", "[sweep.policies]\nfuture = future_plugin:POLICY\n",
                       {"future_plugin": future})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    common = ["engine.backend=serial", "stop.jobs=2000", "stop.warmup=0", "replications=1", "progress=false",
              "plots=false"]
    output = f"output={tmp_path / 'lwl.nc'}"
    ran = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=lwl", *common, output],
                         env=env, capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    said = [line for line in ran.stderr.splitlines() if "left out" in line]
    assert sorted(said) == [
        "sweep: plugin 'broken = broken_plugin:POLICY' left out: ImportError: No module named 'numpy_extra'",
        "sweep: plugin 'clash = clash_plugin:POLICY' left out: ValueError: policy 'random' is taken (the "
        "dispatch family has one of that name)",
        "sweep: plugin 'future = future_plugin:POLICY' left out: ValueError: written for sweep's contract "
        "2; this sweep has contract 1"]
    refused = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=broken", *common], env=env,
                             capture_output=True, text=True, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1].startswith("sweep: error: unknown policy 'broken'")
    assert "broken_plugin" in refused.stderr


def test_an_installed_paper_that_cannot_be_one_is_left_out_with_one_line(tmp_path):
    """A ``sweep.papers`` entry naming no installed package, a package without claims.yaml, or
    a key sweep's own papers take is left out with one line; sweep's papers are all still found."""
    site = tmp_path / "site"
    entries = "[sweep.papers]\nmissing = no_such_package\nno_claims = empty_paper\ncv96 = other_cv96\n"
    _fake_distribution(site, "papers_plugin", entries, {})
    (site / "empty_paper").mkdir()
    (site / "empty_paper" / "__init__.py").write_text("")
    (site / "other_cv96").mkdir()
    (site / "other_cv96" / "claims.yaml").write_text("paper: cv96\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    listing = "from sweep.config.files import paper_folders; print(sorted(paper_folders()))"
    result = subprocess.run([sys.executable, "-c", listing], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['cv96', 'ipg00', 'sh00', 'tf99']"
    assert result.stderr.splitlines() == [
        "sweep: paper 'missing = no_such_package' left out: its package is not installed",
        "sweep: paper 'no_claims = empty_paper' left out: its package holds no claims.yaml",
        "sweep: paper 'cv96 = other_cv96' left out: paper 'cv96' exists already"]


DRIVER = """
import json
import sys
import ray

ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
sys.path.insert(0, sys.argv[1])  # the plugin: in this process only, not on the workers of the Ray above
from sweep.cli import main

sys.exit(main([*json.loads(sys.argv[3]), "load=0.5", "stop.jobs=2000", "stop.warmup=100",
               "engine.backend=ray", "engine.workers=1", "progress=false", f"output={sys.argv[2]}"]))
"""


def _install_policy_plugin(target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                    str(PLUGIN)], check=True, capture_output=True)


def _install_workload_plugin(target: Path) -> None:
    _fake_distribution(target, "workload_plugin", "[sweep.workloads]\nparts = workload_plugin\n",
                       {"workload_plugin": WORKLOAD_PLUGIN})


@pytest.mark.ray
@pytest.mark.parametrize(("install", "overrides", "part"), [
    (_install_policy_plugin, ["grid.policy=[idle_first,round_robin]", "system.hosts=3", "workload=hyperexp2"],
     "policy 'idle_first' (plugin 'idle_first = sweep_idle_first:POLICY')"),
    (_install_workload_plugin, ["grid.policy=[random,lwl]", "workload=scv4"],
     "workload kind 'scv4' (plugin 'parts = workload_plugin')"),
], ids=["policy", "workload kind"])
def test_a_plugin_the_ray_workers_lack_is_one_line_and_exit_2_before_any_run(tmp_path, install, overrides,
                                                                              part):
    """Issue 31: a plugin part (a policy, a distribution kind) that the driver has and a node of the
    cluster lacks is found before any batch is sent (a probe on every node), not as a failed task."""
    target = tmp_path / "site"
    install(target)
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    output = tmp_path / "out.nc"
    done = subprocess.run([sys.executable, "-c", DRIVER, str(target), str(output), json.dumps(overrides)],
                          env=env, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 2, done.stderr[-3000:]
    ours = [line for line in done.stderr.splitlines() if line.startswith("sweep:")]
    assert len(ours) == 1, ours
    assert ours[0].startswith(f"sweep: error: {part} cannot be loaded on the Ray node "), ours
    assert ours[0].endswith(": no package installed here adds it; install the plugin's package on "
                            "every node"), ours
    assert not output.exists()


def test_the_driver_knows_which_policies_a_plugin_added():
    """``plugin_of`` names only what an entry point added; sweep's own policies need no check."""
    from sweep.families import plugin_of, unloadable

    assert plugin_of("lwl") is None and plugin_of("no_such_policy") is None
    assert unloadable(["lwl", "no_such_policy"]) == {"no_such_policy": "no package installed here adds it"}


WORKLOAD_PLUGIN = '''
"""A distribution kind and a trace reader, as a package outside sweep adds them."""
from dataclasses import dataclass

import numpy as np

from sweep.workloads import DistributionKind, Hyperexp2, TraceReader, trace_from_columns


@dataclass(frozen=True)
class Scv4Options:
    mean: float = 2.0


def read_jobs_csv(path):
    """``submit,run,procs,requested`` after a header line."""
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return trace_from_columns(path, {"submit": table[:, 0], "run_time": table[:, 1],
                                     "allocated_procs": table[:, 2], "requested_time": table[:, 3]})


SCV4 = DistributionKind("scv4", Scv4Options, lambda mean: Hyperexp2(mean, 4.0))
JOBS_CSV = TraceReader("jobs_csv", (".jobs.csv",), read_jobs_csv)
'''


def test_an_installed_package_adds_a_distribution_and_a_trace_reader(tmp_path):
    """Issue 31: the ``sweep.workloads`` group. A kind without a YAML is a ``workload`` option of its
    own name (listed by ``sweep --help``, composed from its schema); a reader claims a file suffix,
    and the rigid family replays such a file as it replays an SWF log."""
    site = tmp_path / "site"
    _fake_distribution(site, "workload_plugin", "[sweep.workloads]\nparts = workload_plugin\n",
                       {"workload_plugin": WORKLOAD_PLUGIN})
    (tmp_path / "five.jobs.csv").write_text("submit,run,procs,requested\n0,10,2,20\n1,5,4,5\n2,3,1,9\n"
                                            "2,8,3,8\n30,1,4,1\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    common = ["engine.backend=serial", "replications=1", "progress=false", "plots=false"]

    def sweep(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sweep.cli", *args], env=env, capture_output=True,
                              text=True, cwd=tmp_path)

    listed = sweep("--help")
    assert listed.returncode == 0, listed.stderr
    options = listed.stdout.split("\nworkload: ")[1].split("\nworkload/")[0].replace("\n    ", " ")
    assert "scv4" in options.split(", ")
    drawn = sweep("policy=lwl", "workload=scv4", "load=0.5", "stop.jobs=20000", "stop.warmup=0",
                  "record_jobs=true", "output=scv4.nc", *common)
    assert drawn.returncode == 0, drawn.stderr
    dataset = xr.load_dataset(tmp_path / "scv4.nc")
    assert dataset["workload"].values.tolist() == ["scv4"]
    sizes = dataset["size"].values.ravel()
    assert abs(sizes.mean() / 2.0 - 1) < 0.1  # mean 2 and C2 4, not the exponential's 1
    assert 2.5 < sizes.var() / sizes.mean() ** 2 < 5.5
    refused = sweep("policy=lwl", "workload=scv4", "workload.mean=-1", *common)
    assert (refused.returncode, refused.stderr.splitlines()[-1]) == (
        2, "sweep: error: workload.mean must be > 0 and finite, got -1.0 (workload kind scv4) (at "
           "policy=lwl, workload=scv4, load=0.7)")
    replayed = sweep("policy=easy", "workload=swf", "workload.path=five.jobs.csv", "system.processors=4",
                     "output=five.nc", *common)
    assert replayed.returncode == 0, replayed.stderr
    five = xr.load_dataset(tmp_path / "five.nc")
    # EASY on 4 processors: job 1 (4 wide) starts at 10 when job 0 ends, job 3 (3 wide) when job 1
    # ends at 15; job 2 backfills at once: waits 0, 9, 0, 13, 0
    assert int(five["jobs"].squeeze()) == 5
    assert (float(five["max_wait"].squeeze()), float(five["mean_wait"].squeeze())) == (13.0, 4.4)


def test_a_broken_or_clashing_workload_plugin_is_left_out_with_one_line(tmp_path):
    """Issue 31: an import failure, a built-in kind's name, a family's workload kind's name, an SWF
    suffix or another contract version: one line each, and every other sweep runs; a sweep naming
    a kind that was left out is told why it is missing."""
    site = tmp_path / "site"
    base = ("from dataclasses import dataclass\nfrom sweep.workloads import DistributionKind, Exponential, "
            "TraceReader, read_swf\n@dataclass(frozen=True)\nclass Options:\n    mean: float = 1.0\n")
    plugins = {
        "broken_kind": "import numpy_extra\n",
        "exponential_again": base + "KIND = DistributionKind('exponential', Options, Exponential)\n",
        "swf_kind": base + "KIND = DistributionKind('swf', Options, Exponential)\n",
        "swf_suffix": base + "READER = TraceReader('swf_copy', ('.swf.gz',), read_swf)\n",
        "future_kind": base + "SWEEP_CONTRACT = 2\nKIND = DistributionKind('future', Options, Exponential)\n",
    }
    entries = "[sweep.workloads]\n" + "".join(f"{name} = {name}\n" for name in plugins)
    _fake_distribution(site, "workload_plugins", entries, plugins)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    common = ["engine.backend=serial", "stop.jobs=2000", "stop.warmup=0", "replications=1", "progress=false",
              "plots=false"]
    ran = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=lwl", "workload=hyperexp2", *common,
                          f"output={tmp_path / 'lwl.nc'}"], env=env, capture_output=True, text=True,
                         cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert sorted(line for line in ran.stderr.splitlines() if "left out" in line) == [
        "sweep: plugin 'broken_kind = broken_kind' left out: ModuleNotFoundError: No module named "
        "'numpy_extra'",
        "sweep: plugin 'exponential_again = exponential_again' left out: ValueError: workload kind "
        "'exponential' is taken (sweep's own)",
        "sweep: plugin 'future_kind = future_kind' left out: ValueError: written for sweep's contract 2; "
        "this sweep has contract 1",
        "sweep: plugin 'swf_kind = swf_kind' left out: ValueError: workload kind 'swf' is taken (the rigid "
        "family reads one of that name)",
        "sweep: plugin 'swf_suffix = swf_suffix' left out: ValueError: trace reader 'swf_copy': suffix "
        "'.swf.gz' is read by the swf reader"]
    refused = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=lwl", "workload=hyperexp2",
                              "workload.kind=future", *common], env=env, capture_output=True, text=True,
                             cwd=tmp_path)
    assert refused.returncode == 2
    last = refused.stderr.splitlines()[-1]
    assert last.startswith("sweep: error: "), last
    assert "future_kind" in last, last
