"""End-to-end engine figures for BENCHMARKS.md (issues 2 and 18).

    python benchmarks/bench_engine.py            # the first three
    python benchmarks/bench_engine.py overhead   # or: scaling, memory, repeat
    python benchmarks/bench_engine.py scaling --workers 1 2 4 8 [--seconds 20] [--address auto]
    python benchmarks/bench_engine.py big [--points 1000000] [--backends serial ray]

overhead  a 1,000-point sweep whose tasks are analytic (microseconds each): the wall
          time per point is the engine's cost (compose, grid, dispatch to actors,
          records, Dataset, netCDF). Ray's own start (ray.init, 2–8 s) is excluded;
          the actors' start-up is included in "cold".
scaling   one simulated design of fixed total work (SH00's dispatch policies on Hyperexp2
          sizes, sized so that the largest worker count still runs about --seconds) on
          each number of workers in turn, in one Ray session: points/s, simulated jobs/s,
          speed-up and efficiency relative to the fewest workers; beside it the hardware
          baseline, the same tasks' simulations in as many plain processes (no Ray, no
          engine), and the engine's speed-up as a share of theirs. A local Ray of
          max(--workers) CPUs, or the cluster at --address (the counts are then capped
          at its CPUs).
memory    one 10^8-job point in a fresh process (serial backend): peak resident memory.
repeat    sweep.run of one closed-form point called again and again, as a notebook's loop does:
          the time per call with composed configs kept in the process, and composing each time.
big       a design of ~10^6 points of closed forms (issue 18 part 4), each backend in a fresh
          process: the driver's seconds per point, split into expand (the grid, every point
          checked), tasks, execution overhead (serial: wall time of the run less the tasks' own
          compute; Ray: the driver's CPU time while the workers compute), Dataset build and
          netCDF write; the driver's peak resident memory (getrusage maxrss).
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

import numpy as np  # noqa: E402

from sweep.config.compose import compose  # noqa: E402
from sweep.engine.runner import run_config  # noqa: E402


def _timed_sweep(overrides: list[str]) -> float:
    """Seconds of one sweep (``overwrite=true``: the timed sweeps of one benchmark reuse an output
    name with other settings, which the one-output check refuses otherwise)."""
    overrides = [*overrides, "overwrite=true"]
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


def repeat(calls: int = 20) -> None:
    """``sweep.run`` of one closed-form point, again and again (a notebook's loop): the first call,
    then the median of ``calls`` calls with composed configs kept (:func:`sweep.config.compose.compose`),
    of as many without ``output=`` (the Dataset returned, nothing written), and of as many with the
    cache emptied before each call."""
    import statistics

    import sweep
    from sweep.config import compose as config

    with tempfile.TemporaryDirectory() as folder:
        overrides = ["policy=lwl", "workload=c90", "load=0.5", "model=analytic", "replications=1",
                     "engine.backend=serial", "progress=false", "plots=false", f"output={folder}/o.nc",
                     "overwrite=true"]

        def timed(clear: bool, written: bool = True) -> float:
            if clear:
                config._COMPOSED.clear()
            started = time.perf_counter()
            sweep.run(overrides if written else overrides[:-2])  # quiet: as a notebook's loop calls it
            return time.perf_counter() - started

        first = timed(clear=True)
        kept = statistics.median(timed(clear=False) for _ in range(calls))
        unwritten = statistics.median(timed(clear=False, written=False) for _ in range(calls))
        composed = statistics.median(timed(clear=True) for _ in range(calls))
    print(f"repeat: sweep.run of one closed-form point: first call {first:.2f} s; then, median of {calls}: "
          f"{1000 * kept:.0f} ms with the composed config kept and the file written, "
          f"{1000 * unwritten:.0f} ms without output= (nothing written), "
          f"{1000 * composed:.0f} ms composing each time")


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


def _simulated_jobs(task) -> int:  # noqa: ANN001 (a Task)
    """One task in a plain process: the family's simulation alone, no engine."""
    from sweep.config.seeding import replication_rng
    from sweep.families import family_of

    family = family_of(task.point.policy["name"])
    rng = replication_rng(task.seed, task.stream, task.stream_replication)
    return int(family.simulate(task.point, rng).summary["jobs"])


def _plain_processes(overrides: list[str], processes: int) -> float:
    """Simulated jobs/s of the design's tasks in ``processes`` plain processes (multiprocessing, no
    Ray, no engine: the machine's own scaling of the same compiled loop, the hardware baseline).
    Each process first runs one task of every policy (loading the kernels), untimed."""
    import multiprocessing

    from sweep.config.grid import expand
    from sweep.engine.runner import make_tasks

    cfg = compose(overrides)
    tasks = list(make_tasks(expand(cfg, overrides), cfg.replications, cfg.seed))
    leaders = list({task.point.policy["name"]: task for task in reversed(tasks)}.values())
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        pool.map(_simulated_jobs, leaders * processes, chunksize=1)
        started = time.perf_counter()
        jobs = sum(pool.imap_unordered(_simulated_jobs, tasks, chunksize=1))
        return jobs / (time.perf_counter() - started)


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
              "| plain processes: jobs/s, speed-up | engine / plain | load average before → after |")
        print("|---|---|---|---|---|---|---|---|---|")
        first: tuple[int, float] | None = None
        plain_first: float | None = None
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
            plain = _plain_processes(overrides, used) if not address else math.nan
            plain_first = plain_first or plain
            plain_speed_up = plain / plain_first
            print(f"| {used} | {wall:.1f} | {loads * len(SCALING_POLICIES) / wall:.2f} | "
                  f"{jobs_per_second / 1e6:.1f} M | {speed_up:.2f}x | {speed_up * first[0] / used:.0%} | "
                  f"{plain / 1e6:.1f} M, {plain_speed_up:.2f}x | {speed_up / plain_speed_up:.0%} | "
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


def big_overrides(points: int, folder: str) -> list[str]:
    """~``points`` closed-form points: 3 policies x 4 host counts x loads x Pareto tail indices.

    Random (Pollaczek-Khinchine per host), Least-Work-Left and Central-Queue (the M/G/h
    approximation) on the bounded Pareto workload (SH00 §3.3), whose tail index alpha
    sets the sizes' C^2: an offered-load x variability map for each number of hosts.
    """
    per_plane = points / 12
    loads = max(1, int(per_plane**0.5))
    alphas = math.ceil(per_plane / loads)
    load_values = ",".join(f"{0.05 + 0.9 * i / loads:.6f}" for i in range(loads))
    alpha_values = ",".join(f"{1.05 + 0.9 * i / alphas:.6f}" for i in range(alphas))
    return ["workload=bounded_pareto", "model=analytic", "grid.policy=[random,lwl,central_queue]",
            f"grid.load=[{load_values}]", f"grid.workload.alpha=[{alpha_values}]",
            "grid.system.hosts=[2,4,8,16]", "replications=1", "progress=false", "plots=false",
            f"output={folder}/big.nc"]


def _big_run(points: int, backend: str) -> None:
    """One big sweep in this process; prints one line of JSON (run by :func:`big` in a fresh one)."""
    import json
    import resource

    import sweep.engine.runner as runner

    phases = dict.fromkeys(("expand", "tasks", "dataset", "write"), 0.0)

    def timed(phase, function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                phases[phase] += time.perf_counter() - started
        return wrapper

    runner.expand = timed("expand", runner.expand)
    runner.make_tasks = timed("tasks", runner.make_tasks)
    runner.write_atomic = timed("write", runner.write_atomic)
    if hasattr(runner, "ResultArrays"):
        runner.ResultArrays.dataset = timed("dataset", runner.ResultArrays.dataset)
    else:  # the engine before issue 18 part 4 built the Dataset from a list of records
        runner.build_dataset = timed("dataset", runner.build_dataset)
    if backend == "ray":
        import ray

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    with tempfile.TemporaryDirectory() as folder:
        overrides = [*big_overrides(points, folder), f"engine.backend={backend}", "engine.workers=2"]
        cfg = compose(overrides)
        wall, cpu = time.perf_counter(), time.process_time()
        prepared = runner.prepare(cfg, overrides)
        [finished] = runner.run_many([prepared])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = os.path.getsize(finished.output)
        count = int(np.prod([len(a.values) for a in prepared.grid.axes]))
    rest = phases["dataset"] + phases["write"]
    execute = wall - phases["expand"] - phases["tasks"] - rest
    print(json.dumps({"points": count, "backend": backend, "wall": wall, "driver_cpu": cpu, **phases,
                      "execute": execute, "compute": finished.compute_seconds, "file_bytes": size,
                      "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def big(points: int = 1_000_000, backends: tuple[str, ...] = ("serial", "ray")) -> None:
    """The driver's cost per point and its peak memory on a ~10^6-point closed-form design."""
    import json

    for backend in backends:
        result = subprocess.run([sys.executable, __file__, "_big_run", str(points), backend],
                                capture_output=True, text=True)
        if result.returncode:
            print(result.stderr[-3000:], file=sys.stderr)
            continue
        r = json.loads(result.stdout.strip().splitlines()[-1])
        n = r["points"]
        # serial: the tasks run in the driver, their own compute is not overhead; Ray: the driver
        # waits while the workers compute, so its CPU time is the overhead
        overhead = r["execute"] - r["compute"] if backend == "serial" else None
        per = {k: 1e6 * r[k] / n for k in ("expand", "tasks", "dataset", "write")}
        driver = (r["wall"] - r["compute"]) if backend == "serial" else r["driver_cpu"]
        head = (f"big: {n:,} points ({backend}): wall {r['wall']:.1f} s, tasks' own compute "
                f"{r['compute']:.1f} s; peak RSS {r['maxrss_mib']:.0f} MiB; "
                f"file {r['file_bytes'] / 2**20:.0f} MiB")
        phases = f"expand {per['expand']:.1f} us, tasks {per['tasks']:.1f} us"
        ending = f"dataset {per['dataset']:.1f} us, write {per['write']:.1f} us"
        if backend == "serial":
            print(f"{head}\n  driver (wall less the tasks' compute) {1e3 * driver / n:.3f} ms/point: "
                  f"{phases}, "
                  f"execution overhead {1e6 * overhead / n:.1f} us, {ending}")
        else:
            print(f"{head}\n  driver CPU {1e3 * driver / n:.3f} ms/point (while the workers compute); "
                  f"wall in the driver's own phases: {phases}, {ending}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["_big_run"]:  # a fresh process of big()
        _big_run(int(sys.argv[2]), sys.argv[3])
        sys.exit()
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modes", nargs="*",
                        help="overhead, scaling, memory, big, repeat (default: the first three)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="scaling: worker counts")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="scaling: the wall time of the largest count if perfectly efficient")
    parser.add_argument("--address", default=None, help="scaling: a Ray cluster to join (auto, host:port)")
    parser.add_argument("--points", type=int, default=1_000_000, help="big: points of the design")
    parser.add_argument("--backends", nargs="+", default=["serial", "ray"], help="big: backends to time")
    arguments = parser.parse_args()
    modes = arguments.modes or ["overhead", "scaling", "memory"]
    if unknown := set(modes) - {"overhead", "scaling", "memory", "big", "repeat"}:
        parser.error(f"unknown mode {sorted(unknown)[0]!r}: "
                     "expected overhead, scaling, memory, big or repeat")
    for mode in modes:
        if mode == "scaling":
            scaling(arguments.workers, arguments.seconds, arguments.address)
        elif mode == "big":
            big(arguments.points, tuple(arguments.backends))
        else:
            {"overhead": overhead, "memory": memory, "repeat": repeat}[mode]()
