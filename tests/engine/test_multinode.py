"""A sweep on a Ray cluster of several nodes survives losing one (issue 18 §1-§2, docs/design.md §10).

The cluster is Ray's own ``cluster_utils.Cluster`` (a head and worker nodes as
processes on this machine), run in its own interpreter by ``scripts/multinode.py``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "scripts" / "multinode.py"


def _run(tmp_path: Path, *flags: str) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), *flags], capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.mark.ray
def test_a_node_lost_mid_sweep_costs_only_its_batches(tmp_path):
    seen, stderr = _run(tmp_path)
    assert seen["worker_had_actor"], "no actor was ever placed on the worker node: nothing to lose"
    assert seen["disturbed_identical"], "the Dataset differs from the serial run's"
    assert stderr.count("sweep: lost 1 worker ") == 1


@pytest.mark.ray
@pytest.mark.slow
def test_a_node_joining_mid_sweep_gets_work(tmp_path):
    seen, _ = _run(tmp_path, "--join")
    assert seen["disturbed_identical"] and seen["added_node_got_work"], seen


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.ray
def test_a_lost_head_ends_the_sweep_in_one_line(tmp_path):
    """The head of a joined cluster killed mid-sweep (issue 30 §3): one ``sweep: error:`` line within
    seconds, not Ray's "Failed to connect to GCS within 60 seconds" and its ending of the process.
    The finished runs stay in the checkpoint, which a rerun resumes as after any interruption
    (``test_checkpoint.py``)."""
    port, env = _free_port(), {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen(["ray", "start", "--head", f"--port={port}", "--num-cpus=1", "--block",
                             "--include-dashboard=false", "--disable-usage-stats"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    output = tmp_path / "lost.nc"
    try:
        command = ["sweep", "grid.load=[0.5,0.6,0.7]", "grid.policy=[random,lwl]", "replications=40",
                   "stop.jobs=100000", f"engine.address=127.0.0.1:{port}", f"output={output}",
                   "progress=false", "plots=false", "engine.batch_size=1", "engine.checkpoint_seconds=0"]
        sweep = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        partial = output.with_name(output.name + ".partial")
        while len(list(partial.glob("shard-*.npz"))) < 2 and sweep.poll() is None:
            time.sleep(0.05)
    finally:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        current = Path("/tmp/ray/ray_current_cluster")  # Ray's record of its last `ray start`: a killed
        if current.is_file() and current.read_text().strip().endswith(f":{port}"):  # head leaves it
            current.unlink()
    killed = time.monotonic()
    stderr = sweep.communicate(timeout=120)[1]
    assert sweep.returncode == 1 and time.monotonic() - killed < 30
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("sweep: error: the Ray cluster's head at ") and last.endswith(
        "no longer answers (stopped, or unreachable from here): no work can be sent or received; finished "
        "points are checkpointed: run the same command again to resume"), stderr[-2000:]
    assert "Failed to connect to GCS" not in stderr and len(list(partial.glob("shard-*.npz"))) >= 2
