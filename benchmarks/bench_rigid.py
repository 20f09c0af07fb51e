"""Throughput of the rigid policies on the whole KTH SP2 trace (DESIGN §7, issue 4).

Jobs per second on one core: each policy schedules all 28,475 KTH jobs (one
part, 128 processors unless ``--processors``) ``--repeat`` times after a warm-up
run that compiles (or loads) the kernel; the best and the median are printed.
Targets (issue 4): EASY >= 400,000 jobs/s, conservative >= 250,000 jobs/s.

    python benchmarks/bench_rigid.py [--processors 128] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from sweep.families.rigid import POLICIES
from sweep.families.rigid.jobs import prepare
from sweep.workloads.swf import read_swf

KTH = Path(__file__).resolve().parents[1] / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
TARGETS = {"easy": 400_000, "conservative": 250_000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processors", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    jobs = prepare(read_swf(KTH), processors=args.processors)
    columns = (jobs.submit, jobs.run, jobs.requested, jobs.procs, jobs.priority, args.processors)
    print(f"KTH SP2, {len(jobs)} jobs, {args.processors} processors, best/median of {args.repeat}")
    for name, policy in POLICIES.items():
        params = policy.make_params({})
        policy.schedule(*columns, params)  # compile or load from cache
        seconds = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            policy.schedule(*columns, params)
            seconds.append(time.perf_counter() - t0)
        best, median = len(jobs) / min(seconds), len(jobs) / statistics.median(seconds)
        target = f"  (target {TARGETS[name]:,})" if name in TARGETS else ""
        print(f"{name:>13}: {best:12,.0f} jobs/s best {median:12,.0f} median{target}")


if __name__ == "__main__":
    main()
