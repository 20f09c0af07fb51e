"""recipes/slurm.sbatch, the SLURM recipe (issue 18 §5), run on this machine.

``srun`` and ``scontrol`` stand in for SLURM (scripts on ``PATH``): the allocation is two
nodes of one CPU, both this machine; ``srun`` runs its command here. Everything else is
the script as a user submits it: the Ray head and worker started by ``ray start``, the wait
for both CPUs, a real sweep joining the cluster by ``engine.address``, Ray stopped at the end.
The helper's waits are also checked on their own, against a ``ray`` that answers with a
status of Ray's format.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import xarray as xr

import sweep
from sweep.engine.dataset import reproducible

RECIPES = Path(__file__).resolve().parents[2] / "recipes"
SBATCH = RECIPES / "slurm.sbatch"
HELPER = RECIPES / "slurm-ray.sh"

#: srun standing in for SLURM: SLURM's options (all written --name=value by the recipe) are dropped.
SRUN = """#!/bin/bash
while [[ $1 == -* ]]; do shift; done
exec "$@"
"""
#: The allocation's node names; both are this machine.
SCONTROL = """#!/bin/bash
[[ "$1 $2" == "show hostnames" ]] && printf 'node1\\nnode2\\n'
"""
#: 8 runs of 20,000 jobs: a second or two of simulation, spread over the two nodes.
DESIGN = ["grid.policy=[random,lwl]", "grid.load=[0.5,0.7]", "workload=hyperexp2", "replications=2",
          "stop.jobs=20000", "stop.warmup=1000", "progress=false", "plots=false"]


def _stand_ins(folder: Path, **scripts: str) -> Path:
    """Executable scripts named after the keys, in ``folder/bin``, for the front of ``PATH``."""
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    for name, text in scripts.items():
        (bin_folder / name).write_text(text)
        (bin_folder / name).chmod(0o755)
    return bin_folder


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _processes_using(folder: Path) -> dict[int, str]:
    """Processes whose command line names ``folder`` (Linux's /proc): {process id: command}."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            command = entry.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # it ended meanwhile
            continue
        if str(folder) in command:
            found[int(entry.parent.name)] = command[:200]
    return found


def test_the_scripts_parse():
    for script in (SBATCH, HELPER):
        done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


@pytest.mark.ray
@pytest.mark.slow  # two `ray start` nodes and a sweep: 50-80 s on this shared 2-core machine
def test_the_sbatch_script_runs_a_sweep_on_two_nodes_identical_to_a_serial_run(tmp_path):
    job = f"sweeptest{os.getpid()}"
    ray_folder = Path(f"/tmp/ray-{job}")  # the recipe's default; short enough for Ray's socket paths
    stand_ins = _stand_ins(tmp_path, srun=SRUN, scontrol=SCONTROL)
    environment = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    environment.update(
        PATH=f"{stand_ins}:{Path(sys.executable).parent}:{os.environ['PATH']}",
        PYTHONPATH=os.pathsep.join([str(RECIPES.parent), os.environ.get("PYTHONPATH", "")]),
        SLURM_JOB_ID=job, SLURM_JOB_NODELIST="node[1-2]", SLURM_JOB_NUM_NODES="2",
        SLURM_CPUS_PER_TASK="1", SLURM_SUBMIT_DIR=str(tmp_path), SWEEP_RECIPES=str(RECIPES),
        SWEEP_RAY_PORT=str(_free_port()), SWEEP_RAY_WAIT_SECONDS="120",
        RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    try:
        done = subprocess.run(["bash", str(SBATCH), *DESIGN, "output=cluster.nc"], cwd=tmp_path,
                              env=environment, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        assert f"slurm-ray: the Ray cluster at 127.0.0.1:{environment['SWEEP_RAY_PORT']} has 2 CPUs" \
            in done.stderr, done.stderr[-3000:]
        for node in ("node1", "node2"):  # Ray's own output is in a file per node, not the job's log
            assert "Ray runtime started" in (tmp_path / f"ray-logs-{job}" / f"ray-{node}.log").read_text()
        assert "Ray runtime started" not in done.stderr
        deadline = time.monotonic() + 10  # stop waited for each srun; their last children may linger
        while (left := _processes_using(ray_folder)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not left, f"Ray processes left running after the script: {list(left.values())}"
    finally:
        for pid in _processes_using(ray_folder):  # only if the check above failed: ours, by their folder
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        shutil.rmtree(ray_folder, ignore_errors=True)
    serial = sweep.run([*DESIGN, "engine.backend=serial", f"output={tmp_path / 'serial.nc'}"])
    assert reproducible(xr.load_dataset(tmp_path / "cluster.nc")).identical(reproducible(serial))


# ---- the helper's waits, against a ray that answers with a fixed status ----

#: The resource lines of `ray status` (Ray 2.x) for a cluster of one CPU that waits for a second.
RAY_STATUS = """======== Autoscaler status: 2026-11-23 19:35:18.180474 ========
Node status
---------------------------------------------------------------
Active:
 1 node_4eda2e6b9160e958371f14651d6bc54ee7c5cdba7a6b0d9423914083
Pending:
 (no pending nodes)
Recent failures:
 (no failures)

Resources
---------------------------------------------------------------
Total Usage:
 1.0/1.0 CPU (1.0 used of 1.0 reserved in placement groups)
 0B/15.49GiB memory
 0B/6.64GiB object_store_memory

Total Demands:
 {'CPU': 1.0}: 2+ pending tasks/actors
"""
FAKE_RAY = f"""#!/bin/bash
case $1 in
  status) cat <<'STATUS'
{RAY_STATUS}STATUS
  ;;
  health-check) exit 0 ;;
esac
"""


def _helper(tmp_path: Path, commands: str) -> subprocess.CompletedProcess:
    stand_ins = _stand_ins(tmp_path, ray=FAKE_RAY)
    script = f"set -euo pipefail\nsource {HELPER}\n{commands}\n"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{stand_ins}:{os.environ['PATH']}",
                               "SWEEP_RAY_WAIT_SECONDS": "1"})


def test_cluster_cpus_reads_the_total_of_ray_status(tmp_path):
    done = _helper(tmp_path, "cluster_cpus head:6379")
    assert done.stdout == "1\n"


def test_waiting_for_cpus_that_never_come_ends_in_one_line(tmp_path):
    done = _helper(tmp_path, "wait_for_cpus head:6379 2")
    assert done.returncode == 1
    assert done.stderr == "slurm-ray: gave up waiting for 2 CPUs at head:6379 (it has 1) after 1 s\n"


def test_a_node_that_exits_ends_the_wait_at_once(tmp_path):
    started = time.monotonic()
    done = _helper(tmp_path, "SWEEP_RAY_WAIT_SECONDS=60\nfalse &\nSWEEP_RAY_STEPS+=($!)\nsleep 0.2\n"
                             "wait_for_cpus head:6379 2")
    assert done.returncode == 1 and time.monotonic() - started < 30
    assert done.stderr.startswith("slurm-ray: a Ray node exited while waiting for 2 CPUs")


def test_enough_cpus_end_the_wait(tmp_path):
    done = _helper(tmp_path, "wait_for_cpus head:6379 1 && wait_for_head head:6379 && echo ready")
    assert done.returncode == 0 and done.stdout == "ready\n"
