"""Throughput of the malleable kernels in events per second on one core (docs/design.md §7, issue 5).

Each policy runs the Figure 6 workload (Distribution 1, W|n ~ Hyperexp2(n²/E[N²]·1000, 10),
β' = (1 − φ')/N², φ' = ``--phi``) at offered load ``--load`` on 128 processors: a
pre-drawn job stream (not timed), fed to the loop in chunks as ``simulate`` feeds it
(``MalleableHooks.stream``, no per-job record), through ``--jobs`` departures,
``--repeat`` times after a run that compiles (or loads) the kernel; best and median are printed.
Events are arrivals, departures, FB slice ends (none while every job fits) and
stall ends (none without overhead). The FB policies run twice: making their schedule at slice
boundaries (the default, CV96 §2.1) and at every event (``reschedule: every_event``).
Rates are per second of this process's CPU time (``time.process_time``): the 2-core
machines are shared, and wall time there measures the neighbours. Last, the rate of the processor-sharing twin
(``stop.control_variate: processor_sharing``) over the same stream, in jobs/s.
Target (issue 5): EQS and FB-PWS >= 2,000,000 events/s at rho = 0.8.

    python benchmarks/bench_malleable.py [--load 0.8] [--phi 0.0] [--jobs 200000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from sweep.families import load_families
from sweep.families.malleable import _core
from sweep.families.malleable._controls import processor_sharing_response
from sweep.families.malleable._workload import MalleableJobs, make_jobs

TARGET = 2_000_000


def chunks_of(jobs: MalleableJobs):
    """The pre-drawn ``jobs`` handed out ``_core.CHUNK_JOBS`` at a time (``MalleableHooks.stream``)."""
    position = 0

    def chunks() -> tuple[MalleableJobs, None, bool]:
        nonlocal position
        window = slice(position, position + _core.CHUNK_JOBS)
        position = min(window.stop, len(jobs))
        return MalleableJobs(*(column[window] for column in vars(jobs).values())), None, position < len(jobs)
    return chunks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=float, default=0.8)
    parser.add_argument("--phi", type=float, default=0.0)
    parser.add_argument("--jobs", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    workload = {"name": "fig6", "kind": "malleable", "parallelism": "dist1",
                "demand_mean": 1000.0, "demand_scv": 100.0, "demand_growth": "n2",
                "demand_normalise": True,
                "speedup": {"model": "eq5", "phi_prime": args.phi, "beta_prime": "max"}}
    cap = 10_000
    jobs = make_jobs(workload, 128, args.load, args.jobs + cap, np.random.default_rng(1))
    print(f"Fig 6 workload (phi' = {args.phi}), rho = {args.load}, 128 processors, "
          f"{args.jobs} departures, best/median of {args.repeat}")
    runs = [(name, policy, {}) for name, policy in load_families()["malleable"].policies.items()]
    runs += [(name, policy, {"reschedule": "every_event"}) for name, policy, _ in list(runs)
             if name.startswith("fb_")]
    for name, policy, options in runs:
        params = policy.make_params(options)
        stop = _core.Stop(warmup=0, target=args.jobs, cap=cap, blen=args.jobs)
        policy.hooks.stream(chunks_of(jobs), 128, params, stop)  # compile or load from cache
        rates = []
        for _ in range(args.repeat):
            chunks = chunks_of(jobs)
            t0 = time.process_time()
            end = policy.hooks.stream(chunks, 128, params, stop).scalars
            rates.append(end.events / (time.process_time() - t0))
        verdict = f"  target {TARGET:,}: {'met' if max(rates) >= TARGET else 'MISSED'}" \
            if name in ("eqs", "fb_pws") and not options else ""
        name = name + (", every event" if options else "")
        print(f"{name:20s} best {max(rates):>12,.0f}  median {statistics.median(rates):>12,.0f} "
              f"events/s  ({end.events:,} events, saturated={bool(end.saturated)})"
              f"{verdict}")
    processor_sharing_response(jobs.arrival, jobs.work / 128)  # compile or load from cache
    rates = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        processor_sharing_response(jobs.arrival, jobs.work / 128)
        rates.append(len(jobs) / (time.process_time() - t0))
    print(f"processor-sharing twin (control variate) best {max(rates):>12,.0f}  "
          f"median {statistics.median(rates):>12,.0f} jobs/s")


if __name__ == "__main__":
    main()
