"""Speed of the salad family: one run of 10,000 jobs on 64 PEs per combination of stages.

The tool's default workload and machine (``conf/workload/salad_jobs.yaml``: 20-task graphs;
``conf/system/salad_mesh64.yaml``: an 8x8 mesh) at ``--load``; each combination is run once
(``first``: compiling the loop with the balancer's hooks, once per process, and mapping the
50 applications), then ``--repeat`` times on distinct replications' random streams. Best and
median seconds per run are printed, with the median CPU seconds of the process. Target
(issue 26): <= 10 s a run. ``--features`` turns on the workload's options beyond the defaults: the
KTH trace's submit times as arrivals, spawned tasks (``spawn: 0.5``) and a third of the jobs in each
task class (compute, I/O, sync).

    python benchmarks/bench_salad.py [--repeat 3] [--load 0.7] [--jobs 10000] [--features]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from sweep.config.compose import load_option
from sweep.families import Point, StopRule, load_families

#: The workload options ``--features`` adds to the default workload.
FEATURES = {"trace": "data/traces/KTH-SP2-1996-2.1-cln.swf.gz", "spawn": 0.5,
            "mix": {"compute": 1, "io": 1, "sync": 1}}

COMBINATIONS = (("cluster_m", "rate_of_change", "concurrent_gang"),
                ("cluster_m", "no_balancing", "concurrent_gang"),
                ("mh", "rate_of_change", "concurrent_gang"), ("map_random", "rate_of_change", "gang"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--load", type=float, default=0.7)
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--features", action="store_true", help="trace arrivals, spawning, task classes")
    args = parser.parse_args()
    workload = {**load_option("workload", "salad_jobs"), **(FEATURES if args.features else {})}
    family = load_families()["salad"]
    for mapper, balancer, scheduler in COMBINATIONS:
        policy = {**load_option("policy", "ipg_salad"), "mapper": mapper, "balancer": balancer,
                  "scheduler": scheduler}
        point = Point(policy=policy, workload=workload,
                      system=load_option("system", "salad_mesh64"), load=args.load,
                      stop=StopRule(jobs=args.jobs, warmup=0, max_in_system=args.jobs))
        start = time.perf_counter()
        family.simulate(point, np.random.default_rng(0))
        first = time.perf_counter() - start
        seconds, cpu = [], []
        for r in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = family.simulate(point, np.random.default_rng(r + 1))
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        state = "saturated" if result.summary["saturated"] else "finished"
        print(f"{mapper:10s} {balancer:15s} {scheduler:16s} first {first:6.2f} s  "
              f"best {min(seconds):6.2f} s  median {statistics.median(seconds):6.2f} s "
              f"(CPU {statistics.median(cpu):5.2f} s)  {state}")


if __name__ == "__main__":
    main()
