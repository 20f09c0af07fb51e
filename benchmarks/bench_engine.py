"""End-to-end engine figures for BENCHMARKS.md (issues 2 and 18).

    python benchmarks/bench_engine.py            # all three
    python benchmarks/bench_engine.py overhead   # or: scaling, memory
    python benchmarks/bench_engine.py scaling --workers 1 2 4 8 [--seconds 20] [--address auto]

overhead  a 1,000-point sweep whose tasks are analytic (microseconds each): the wall
          time per point is the engine's cost (compose, grid, dispatch to actors,
          records, Dataset, netCDF). Ray's own start (ray.init, 2–8 s) is excluded;
          the actors' start-up is included in "cold".
scaling   one simulated design of fixed total work (SH00's dispatch policies on Hyperexp2
          sizes, sized so that the largest worker count still runs about --seconds) on
          each number of workers in turn, in one Ray session: points/s, simulated jobs/s,
          speed-up and efficiency relative to the fewest workers. A local Ray of
          max(--workers) CPUs, or the cluster at --address (the counts are then capped
          at its CPUs).
memory    one 10^8-job point in a fresh process (serial backend): peak resident memory.
"""

from __future__ import annotations

import argparse
import math
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


#: The scaling design: SH00's dispatch policies (h = 2 hosts, Hyperexp2 sizes, C^2 = 8) over a
#: range of loads, no warm-up, so every task simulates exactly JOBS_PER_TASK jobs.
SCALING_POLICIES = ["lwl", "sita_e", "random", "round_robin"]
SCALING_REPLICATIONS = 2
JOBS_PER_TASK = 2_000_000


def _scaling_design(loads: int, folder: str, name: str) -> list[str]:
    values = ",".join(f"{0.3 + 0.6 * i / max(1, loads - 1):.6f}" for i in range(loads))
    return [f"grid.load=[{values}]", f"grid.policy=[{','.join(SCALING_POLICIES)}]", "workload=hyperexp2",
            f"replications={SCALING_REPLICATIONS}", f"stop.jobs={JOBS_PER_TASK}", "stop.warmup=0",
            "progress=false", "plots=false", f"output={folder}/{name}.nc"]


def scaling(workers: list[int], seconds: float = 20.0, address: str | None = None) -> None:
    """Points/s and simulated jobs/s against the number of workers, on one design of fixed work.

    The design is sized from the serial speed of the simulation measured here (two serial
    sweeps of two runs, 10^5 and 10^7 jobs each: their difference leaves out the engine's
    fixed costs and the compilation): enough tasks that max(workers) workers, if perfectly
    efficient, take ``seconds``, and at least 8 tasks per worker so the last batches do not
    leave workers idle. Each count first runs a small sweep to start its actors (their
    start-up is the engine's, not the design's, and is left out), then the timed sweep. The
    load average beside each line is the machine's (1-minute) before and after it: on a
    shared machine it says how noisy the line is.
    """
    import ray

    with tempfile.TemporaryDirectory() as folder:
        short, long = 100_000, 10_000_000
        calibration = ["grid.load=[0.6]", "grid.policy=[lwl,sita_e]", "replications=1", "workload=hyperexp2",
                       "stop.warmup=0", "progress=false", "plots=false", f"output={folder}/calibrate.nc",
                       "engine.backend=serial"]
        _timed_sweep([*calibration, f"stop.jobs={short}"])  # compiles the kernels
        seconds_per_job = (_timed_sweep([*calibration, f"stop.jobs={long}"])
                           - _timed_sweep([*calibration, f"stop.jobs={short}"])) / (2 * (long - short))
        task_seconds = seconds_per_job * JOBS_PER_TASK
        most = max(workers)
        tasks = max(8 * most, math.ceil(seconds * most / task_seconds))
        loads = math.ceil(tasks / (len(SCALING_POLICIES) * SCALING_REPLICATIONS))
        if address:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        else:
            ray.init(num_cpus=most, include_dashboard=False, log_to_driver=False, configure_logging=False)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        runs = loads * len(SCALING_POLICIES) * SCALING_REPLICATIONS
        print(f"scaling: {loads * len(SCALING_POLICIES)} points x {SCALING_REPLICATIONS} replications = "
              f"{runs} runs of {JOBS_PER_TASK:,} jobs (serially {1e-6 / seconds_per_job:.1f} M jobs/s); "
              f"Ray with {cpus} CPUs ({address or 'local'}), {os.cpu_count()} CPUs here")
        print("| workers | wall (s) | points/s | simulated jobs/s | speed-up | efficiency "
              "| load average before → after |")
        print("|---|---|---|---|---|---|---|")
        first: tuple[int, float] | None = None
        for count in workers:
            pool = [f"engine.workers={count}", "engine.backend=ray"]
            _timed_sweep([*_scaling_design(1, folder, "warm"), *pool])  # starts the pool of `count` actors
            overrides = [*_scaling_design(loads, folder, f"w{count}"), *pool]
            before = os.getloadavg()[0]
            started = time.perf_counter()
            dataset, _ = run_config(compose(overrides), overrides)
            wall = time.perf_counter() - started
            jobs_per_second = float(dataset["jobs"].sum()) / wall
            used = min(count, cpus)
            first = first or (used, jobs_per_second)
            speed_up = jobs_per_second / first[1]
            print(f"| {used} | {wall:.1f} | {loads * len(SCALING_POLICIES) / wall:.2f} | "
                  f"{jobs_per_second / 1e6:.1f} M | {speed_up:.2f}x | {speed_up * first[0] / used:.0%} | "
                  f"{before:.2f} → {os.getloadavg()[0]:.2f} |", flush=True)
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
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modes", nargs="*", help="overhead, scaling, memory (default: all three)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="scaling: worker counts")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="scaling: the wall time of the largest count if perfectly efficient")
    parser.add_argument("--address", default=None, help="scaling: a Ray cluster to join (auto, host:port)")
    arguments = parser.parse_args()
    modes = arguments.modes or ["overhead", "scaling", "memory"]
    if unknown := set(modes) - {"overhead", "scaling", "memory"}:
        parser.error(f"unknown mode {sorted(unknown)[0]!r}: expected overhead, scaling or memory")
    for mode in modes:
        if mode == "scaling":
            scaling(arguments.workers, arguments.seconds, arguments.address)
        else:
            {"overhead": overhead, "memory": memory}[mode]()
