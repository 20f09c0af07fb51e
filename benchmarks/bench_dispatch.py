"""Throughput of the dispatch family, end to end (docs/design.md §7; figures go into BENCHMARKS.md).

For each policy: one replication of ``--jobs`` jobs (Hyperexp2, mean 1, C² = 8;
ρ = 0.7; h = 2 by default) through ``Family.simulate``, random-number
generation included, after a small run that compiles (or loads) the kernels.
Prints jobs/s per core (one process, one thread), and first the rate of the
job stream alone (Poisson arrivals + the workload's ``sample``), which bounds
every policy's rate; ``--memory`` instead runs one long point (default 10^8
jobs) per policy and reports the peak RSS, which must stay flat (< 1 GiB).

    python benchmarks/bench_dispatch.py                  # all policies, 10^7 jobs
    python benchmarks/bench_dispatch.py --workload exponential
    python benchmarks/bench_dispatch.py --memory --jobs 100000000 --policy shortest_queue

Targets (the issue): >= 30 M jobs/s for random, round_robin and SITA-*;
>= 20 M for lwl and central_queue; >= 10 M for shortest_queue.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from sweep.families import Point, StopRule, load_families
from sweep.families.dispatch._simulate import CHUNK_JOBS
from sweep.families.dispatch._workload import JobStream, workload_of

FAMILY = load_families()["dispatch"]

WORKLOADS = {
    "hyperexp2": {"name": "hyperexp2", "kind": "hyperexp2", "mean": 1.0, "scv": 8.0},
    "exponential": {"name": "exponential", "kind": "exponential", "mean": 1.0},
    "c90": {"name": "c90", "kind": "c90"},
    "bounded_pareto": {"name": "bounded_pareto", "kind": "bounded_pareto", "k": 332.1, "p": 1.0e10,
                       "alpha": 1.1},
}
#: Workloads whose E[1/X] is infinite (exponential phases): SITA-U-opt/fair are undefined there.
INFINITE_SLOWDOWN = ("exponential", "hyperexp2")
#: SITA-U-opt and -fair need a finite E[1/X]: on the workloads above they run on C90 instead.
FINITE_SLOWDOWN = ("sita_u_opt", "sita_u_fair")
TARGETS = {"random": 30e6, "round_robin": 30e6, "sita_e": 30e6, "sita_u_opt": 30e6,
           "sita_u_fair": 30e6, "sita_u_rule": 30e6, "lwl": 20e6, "central_queue": 20e6,
           "shortest_queue": 10e6}


def point(policy: str, workload: str, jobs: int, load: float, hosts: int) -> Point:
    workload = "c90" if policy in FINITE_SLOWDOWN and workload in INFINITE_SLOWDOWN else workload
    return Point({"name": policy}, WORKLOADS[workload], {"hosts": hosts}, load,
                 StopRule(jobs=jobs, warmup=jobs // 100, max_in_system=10**7))


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run(policy: str, workload: str, jobs: int, load: float, hosts: int, repeats: int) -> float:
    """Best of ``repeats`` timings, in jobs/s (the machine is shared: the best is the least noisy)."""
    FAMILY.simulate(point(policy, workload, 10_000, load, hosts), np.random.default_rng(0))
    best = 0.0
    for repeat in range(repeats):
        started = time.perf_counter()
        result = FAMILY.simulate(point(policy, workload, jobs, load, hosts),
                                 np.random.default_rng(repeat))
        best = max(best, result.work / (time.perf_counter() - started))
    return best


def stream_rate(workload: str, jobs: int, load: float, hosts: int, repeats: int) -> float:
    """Jobs/s of the job stream alone, drawn in the simulation's chunks."""
    model = workload_of(WORKLOADS[workload])
    best = 0.0
    for repeat in range(repeats):
        started = time.perf_counter()
        stream = JobStream(model, model.rate(load, hosts), *np.random.default_rng(repeat).spawn(2))
        for _ in range(0, jobs, CHUNK_JOBS):
            stream.take(CHUNK_JOBS)
        best = max(best, jobs / (time.perf_counter() - started))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10**7)
    parser.add_argument("--load", type=float, default=0.7)
    parser.add_argument("--hosts", type=int, default=2)
    parser.add_argument("--workload", choices=tuple(WORKLOADS), default="hyperexp2")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policy", action="append", choices=FAMILY.policies)
    parser.add_argument("--memory", action="store_true",
                        help="one long run per policy; report peak RSS")
    args = parser.parse_args()
    policies = args.policy or list(FAMILY.policies)
    print(f"dispatch: {args.jobs:.3g} jobs, rho={args.load}, h={args.hosts}, {args.workload} "
          "(sita_u_opt/fair: c90)")
    if not args.memory:
        for workload in sorted({args.workload, "c90"}):
            rate = stream_rate(workload, args.jobs, args.load, args.hosts, args.repeats)
            print(f"{'job stream':15s} {rate / 1e6:7.1f} M jobs/s per core  ({workload}: "
                  "arrivals + sizes only)")
    for policy in policies:
        if args.memory:
            started = time.perf_counter()
            result = FAMILY.simulate(point(policy, args.workload, args.jobs, args.load, args.hosts),
                                     np.random.default_rng(0))
            seconds = time.perf_counter() - started
            print(f"{policy:15s} {result.work / seconds / 1e6:7.1f} M jobs/s  "
                  f"peak RSS {peak_rss_mib():7.0f} MiB  ({seconds:.1f} s)")
            continue
        rate = run(policy, args.workload, args.jobs, args.load, args.hosts, args.repeats)
        target = TARGETS.get(policy)
        verdict = ("no target" if target is None else "ok" if rate >= target
                   else f"below {target / 1e6:.0f} M")
        print(f"{policy:15s} {rate / 1e6:7.1f} M jobs/s per core  ({verdict})")
    print(f"peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
