"""A sweep on a Ray cluster of several nodes survives losing one (issue 18 §1-§2, docs/design.md §10).

The cluster is Ray's own ``cluster_utils.Cluster`` (a head and worker nodes as
processes on this machine), run in its own interpreter by ``scripts/multinode.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
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
    assert seen["disturbed_identical"], "the Dataset differs from the serial run's"
    assert stderr.count("sweep: lost 1 worker ") == 1


@pytest.mark.ray
@pytest.mark.slow
def test_a_node_joining_mid_sweep_gets_work(tmp_path):
    seen, _ = _run(tmp_path, "--join")
    assert seen["disturbed_identical"] and seen["added_node_got_work"], seen
