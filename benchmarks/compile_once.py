"""Compilations per kernel in a sweep of several workers from an empty cache (issue 27 item 1).

    python benchmarks/compile_once.py [--workers 2] [--json] [-- sweep overrides...]
    python benchmarks/compile_once.py --reproduce [--workers 2]   # sweep-reproduce --quick

Starts a local Ray of ``--workers`` CPUs whose workers log every kernel they
compile (``sweep._numba.log_compilations``) with an empty numba cache
(``NUMBA_CACHE_DIR`` a fresh folder), runs the sweep (the default: SH00's
dispatch policies on four loads, two replications each) or the quick
reproduction of the four papers, and prints, per kernel, how many times the
node compiled it and the seconds it took, then the wall time. ``--json``
prints one JSON line ``{"kernels": {name: compilations}, ...}`` instead.
Numba's own helpers (``numba.*``, overloads it compiles for a kernel and never
caches) are counted apart.
The driver compiles nothing here: it logs nothing, and every kernel a
worker needs is compiled in some worker.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path

DESIGN = ["grid.policy=[random,lwl,shortest_queue,sita_e]", "workload=hyperexp2",
          "grid.load=[0.5,0.6,0.7,0.8]", "replications=2", "stop.jobs=20000", "stop.warmup=2000",
          "engine.batch_size=1", "engine.in_flight=1", "engine.checkpoint_seconds=0", "progress=false",
          "plots=false"]


def _counts(folder: Path) -> tuple[dict[str, int], dict[str, float], int]:
    """Compilations and seconds per kernel over every worker's log; the number of logs."""
    compilations: dict[str, int] = collections.Counter()
    seconds: dict[str, float] = collections.defaultdict(float)
    logs = list(folder.iterdir())
    for log in logs:
        for line in log.read_text().splitlines():
            name, spent = line.rsplit(" ", 1)
            compilations[name] += 1
            seconds[name] += float(spent)
    return dict(compilations), dict(seconds), len(logs)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reproduce", action="store_true", help="sweep-reproduce --quick instead of a sweep")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("overrides", nargs="*", help="the sweep's overrides (default: a dispatch design)")
    arguments = parser.parse_args(argv)
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    from sweep._numba import COMPILE_LOG_ENV

    with tempfile.TemporaryDirectory() as scratch:
        cache, log, out = (Path(scratch) / name for name in ("cache", "log", "out"))
        log.mkdir()
        env = {"NUMBA_CACHE_DIR": str(cache), COMPILE_LOG_ENV: str(log), "RAY_AUTH_MODE": "disabled"}
        ray.init(num_cpus=arguments.workers, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": env, "worker_process_setup_hook": "sweep._numba.log_compilations"})
        started = time.perf_counter()
        if arguments.reproduce:
            from sweep.reproduce.cli import main as reproduce

            reproduce(["--quick", "--out", str(out), "--workers", str(arguments.workers), "--no-progress"])
        else:
            from sweep.engine.runner import run

            run([*(arguments.overrides or DESIGN), f"engine.workers={arguments.workers}",
                 "engine.backend=ray", f"output={out / 'sweep.nc'}"])
        wall = time.perf_counter() - started
        ray.shutdown()
        compilations, seconds, workers = _counts(log)
    if arguments.json:
        print(json.dumps({"kernels": compilations, "seconds": seconds, "workers_logged": workers,
                          "wall": wall}))
        return
    ours = [name for name in compilations if name.startswith("sweep.")]
    print(f"{'kernel':<64} {'compiled':>8} {'seconds':>8}")
    for name in sorted(ours, key=lambda n: -seconds[n]):
        print(f"{name:<64} {compilations[name]:>8} {seconds[name]:>8.1f}")
    numba_own = sum(compilations[name] for name in compilations if name not in ours)
    print(f"{len(ours)} kernels of sweep, {sum(compilations[n] for n in ours)} compilations in {workers} "
          f"workers, {sum(seconds[n] for n in ours):.1f} s (a kernel's time includes its callees'); "
          f"{numba_own} compilations of numba's own uncached helpers; wall time {wall:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
