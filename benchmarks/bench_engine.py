"""End-to-end engine figures for BENCHMARKS.md (issue 2).

    python benchmarks/bench_engine.py            # all three
    python benchmarks/bench_engine.py overhead   # or: scaling, memory

overhead  a 1,000-point sweep of near-empty points on the Ray backend: wall time
          minus the time the tasks themselves report, per point (Ray start-up
          excluded: it is paid once per sweep, 2–8 s here).
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
    import ray

    from sweep.engine import tasks

    ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
    loads = ",".join(f"{0.05 + 0.9 * i / points:.6f}" for i in range(points))
    with tempfile.TemporaryDirectory() as folder:
        overrides = [f"grid.load=[{loads}]", "policy=random", "workload=exponential", "replications=1",
                     "stop.jobs=100", "stop.warmup=0", "progress=false", f"output={folder}/o.nc"]
        _timed_sweep([*overrides[:-1], "grid.load=[0.5]", f"output={folder}/warm.nc"])  # JIT, actors
        compute = []
        original = tasks.run_task

        def timed(task):  # serial reference of the compute part
            record = original(task)
            compute.append(record.seconds)
            return record

        wall = _timed_sweep(overrides)
        tasks.run_task = timed
        serial_wall = _timed_sweep([*overrides, "engine.backend=serial"])
        tasks.run_task = original
    per_point_ms = 1000 * (wall - sum(compute) / ray.cluster_resources()["CPU"]) / points
    print(f"overhead: {points} points on Ray in {wall:.2f} s; compute {sum(compute):.2f} s in all; "
          f"engine overhead {per_point_ms:.2f} ms/point (serial backend: {serial_wall:.2f} s in all, "
          f"{1000 * (serial_wall - sum(compute)) / points:.2f} ms/point)")
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
