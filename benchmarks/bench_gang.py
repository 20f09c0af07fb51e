"""Speed of the gang family's kernels: one 40,000 s run on 128 PEs per policy and workload.

Each of the three CSSE00 workloads of the presets (``conf/workload/gang_{io,compute,sync}.yaml``,
load 2, 10 ticks a 1 s slice: 400,000 ticks, 51 million PE-ticks) is run once
(``first``: compiling the kernel, or loading it from numba's disk cache), then
``--repeat`` times on distinct replications' random streams; best and median
seconds per run are printed with the PE-ticks per second, and the median CPU
seconds of the process (less sensitive than wall time to other work on a
shared machine). Target (the issue): <= 1 s a run.

    python benchmarks/bench_gang.py [--repeat 3] [--load 2.0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from sweep.config.compose import load_option
from sweep.families import Point, StopRule, load_families


def _point(policy: str, workload: str, load: float) -> Point:
    system = load_option("system", "gang128")
    return Point(policy={"name": policy}, workload=load_option("workload", f"{workload}"),
                 system=system, load=load, stop=StopRule(jobs=1, warmup=0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--load", type=float, default=2.0)
    args = parser.parse_args()
    family = load_families()["gang"]
    for workload in ("gang_compute", "gang_io", "gang_sync"):
        for policy in family.policies:
            point = _point(policy, workload, args.load)
            start = time.perf_counter()
            family.simulate(point, np.random.default_rng(0))  # compile, or load from the cache
            first = time.perf_counter() - start
            seconds, cpu = [], []
            for r in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                family.simulate(point, np.random.default_rng(r + 1))
                seconds.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            pe_ticks = 128 * 40_000 * int(point.system["ticks"])
            best, median = min(seconds), statistics.median(seconds)
            print(f"{workload:13s} {policy:16s} first {first:6.2f} s  best {best:6.2f} s  "
                  f"median {median:6.2f} s (CPU {statistics.median(cpu):5.2f} s)  "
                  f"{pe_ticks / median / 1e6:6.1f} M PE-ticks/s")


if __name__ == "__main__":
    main()
