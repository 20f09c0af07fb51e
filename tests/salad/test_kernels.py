"""The salad loop is compiled once per balancer and node, then loaded from numba's disk cache
(``sweep.families.salad._kernels``): a second process compiles nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels")

RUN = """
import sys, sweep
from sweep.families.balancing import no_balancing
from sweep.families.salad._kernels import kernel_for
sweep.run(["policy=ipg_salad", "workload=salad_jobs", "system=salad_mesh64", "load=0.5",
           "policy.balancer=no_balancing", "replications=1", "stop.jobs=50", "stop.warmup=0",
           "engine.backend=serial", "progress=false", "plots=false", f"output={sys.argv[1]}",
           "overwrite=true"])
loop = kernel_for(no_balancing.POLICY)
print(loop.__module__, sum(loop.stats.cache_hits.values()), sum(loop.stats.cache_misses.values()))
"""


def _hits_and_misses(output: str) -> tuple[str, int, int]:
    done = subprocess.run([sys.executable, "-c", RUN, output], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    module, hits, misses = done.stdout.split()[-3:]
    return module, int(hits), int(misses)


def test_a_second_process_loads_the_balancers_loop_from_the_disk_cache(tmp_path):
    _hits_and_misses(str(tmp_path / "first.nc"))  # compiles the loop, or finds it compiled
    module, hits, misses = _hits_and_misses(str(tmp_path / "second.nc"))
    assert module == "_sweep_salad_kernel_no_balancing"  # the generated module, not a closure
    assert (hits, misses) == (1, 0)
