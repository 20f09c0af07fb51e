"""End-to-end engine figures for BENCHMARKS.md (issue 2).

    python benchmarks/bench_engine.py            # all three
    python benchmarks/bench_engine.py overhead   # or: scaling, memory

overhead  a 1,000-point sweep whose tasks are analytic (microseconds each): the wall
          time per point is the engine's cost (compose, grid, dispatch to actors,
          records, Dataset, netCDF). Ray's own start (ray.init, 2–8 s) is excluded;
          the actors' start-up is included in "cold".
scaling   a 100-point sweep on 1 and on 2 workers (same Ray session): the speed-up.
memory    one 10^8-job point in a fresh process (serial backend): peak resident memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from sweep.engine.config import compose  # noqa: E402
from sweep.engine.runner import run_config  # noqa: E402


def _timed_sweep(overrides: list[str]) -> float:
    started = time.perf_counter()
    run_config(compose(overrides), overrides)
    return time.perf_counter() - started


def overhead(points: int = 1000) -> None:
    """Per-point cost of everything but simulation: ``model=analytic`` tasks take microseconds."""
    import ray

    ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
    loads = ",".join(f"{0.05 + 0.9 * i / points:.6f}" for i in range(points))
    with tempfile.TemporaryDirectory() as folder:
        overrides = [f"grid.load=[{loads}]", "policy=sita_e", "workload=c90", "model=analytic",
                     "replications=1", "progress=false", f"output={folder}/o.nc"]
        cold = _timed_sweep(overrides)  # actors start, import the families, load compiled kernels
        warm = _timed_sweep(overrides)  # the same sweep on the warm actors of this process
        serial = _timed_sweep([*overrides, "engine.backend=serial"])
    print(f"overhead: {points}-point sweep (analytic tasks), per point: "
          f"Ray cold {1000 * cold / points:.2f} ms "
          f"(actor start-up included), Ray warm {1000 * warm / points:.2f} ms, "
          f"serial {1000 * serial / points:.2f} ms")
    ray.shutdown()


def scaling(points: int = 100, jobs: int = 4_000_000) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    loads = ",".join(f"{0.3 + 0.6 * i / (points // 2):.4f}" for i in range(points // 2))
    with tempfile.TemporaryDirectory() as folder:
        base = [f"grid.load=[{loads}]", "grid.policy=[lwl,sita_e]", "workload=hyperexp2", "replications=1",
                f"stop.jobs={jobs}", "stop.warmup=0", "progress=false"]
        _timed_sweep([*base[1:], "grid.load=[0.5]", f"output={folder}/warm.nc", "engine.workers=2"])
        one = _timed_sweep([*base, "engine.workers=1", f"output={folder}/one.nc"])
        two = _timed_sweep([*base, "engine.workers=2", f"output={folder}/two.nc"])
    print(f"scaling: {points} points x {jobs:,} jobs: 1 worker {one:.2f} s, 2 workers {two:.2f} s, "
          f"speed-up {one / two:.2f}x")
    ray.shutdown()


def memory(jobs: int = 100_000_000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        code = ("import resource, sweep; sweep.run(['policy=lwl', 'workload=hyperexp2', 'load=0.8', "
                f"'replications=1', 'stop.jobs={jobs}', 'stop.warmup=0', 'progress=false', "
                f"'engine.backend=serial', 'output={folder}/m.nc']); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - started
    peak_mib = int(result.stdout.split()[-1]) / 1024
    print(f"memory: one {jobs:,}-job point (lwl, serial, whole process): peak RSS {peak_mib:.0f} MiB, "
          f"{seconds:.1f} s")


if __name__ == "__main__":
    chosen = sys.argv[1:] or ["overhead", "scaling", "memory"]
    for name in chosen:
        {"overhead": overhead, "scaling": scaling, "memory": memory}[name]()
