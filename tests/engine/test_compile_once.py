"""A sweep of two Ray workers from an empty cache compiles each kernel once (issue 27 item 1).

``benchmarks/compile_once.py`` runs an SH00 dispatch policy on two workers of a
fresh local Ray whose workers log every compilation (``sweep._numba.log_compilations``);
one policy, so both workers start on its tasks together, and without the per-kernel
compile lock of ``sweep._numba.jit`` each would compile it. (Of several policies,
``kernels_first`` sends each policy's first task first, one per worker: tests/engine/test_batches.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "compile_once.py"


@pytest.mark.ray
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels")
def test_two_workers_from_an_empty_cache_compile_each_kernel_once():
    design = ["grid.policy=[shortest_queue]", "workload=hyperexp2", "grid.load=[0.5,0.6,0.7,0.8]",
              "replications=2", "stop.jobs=5000", "stop.warmup=500", "engine.batch_size=1",
              "engine.in_flight=1", "progress=false", "plots=false"]
    done = subprocess.run([sys.executable, str(SCRIPT), "--workers", "2", "--json", "--", *design],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    ours = {name: count for name, count in seen["kernels"].items() if name.startswith("sweep.")}
    assert "sweep.families.dispatch.shortest_queue._run" in ours
    assert ours == dict.fromkeys(ours, 1)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels")
def test_a_sweep_says_when_it_compiles_and_not_when_it_loads(tmp_path):
    """Issue 29: a first run says that kernels compile (it looked hung); a second run, whose kernels
    are in the cache, does not."""
    command = [sys.executable, "-m", "sweep.cli", "policy=lwl", "workload=exponential", "load=0.5",
               "engine.backend=serial", "stop.jobs=2000", "stop.warmup=200", "replications=1",
               "progress=false", "plots=false", f"output={tmp_path / 'out.nc'}"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    said = "sweep: compiling the dispatch kernels"
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert first.returncode == 0 and said in first.stderr, first.stderr[-2000:]
    (tmp_path / "out.nc").unlink()
    second = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert second.returncode == 0 and "compiling" not in second.stderr, second.stderr[-2000:]
