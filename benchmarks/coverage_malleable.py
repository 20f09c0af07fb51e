"""Coverage of the malleable family's 90% confidence intervals against an exact value (issue 5).

EQS with real-valued shares, linear speedup and ``N_j ≥ P`` is an M/G/1 processor-sharing
queue of rate ``P``: ``E[R] = W̄ / (P (1 − ρ))`` whatever the demand distribution. For
each setting ``--runs`` independent replications estimate it, plainly and with the jobs'
demand as control variate (``stop.control_variate``), either for a fixed run of ``--jobs``
measured jobs or sequentially to ``±5%`` (``stop.ci_target = 0.05``; the interval is first
checked after ``--jobs``, at most ``--budget``). Printed per setting: the fraction of
intervals that cover the exact value (nominal 0.90), the mean and root-mean-square relative
error of the estimates, and the median jobs measured.

    python benchmarks/coverage_malleable.py [--scv 100] [--load 0.5] [--runs 40]
        [--jobs 20000,200000] [--budget 4000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sweep.families import Point, StopRule
from sweep.families.malleable.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scv", type=float, default=100.0, help="squared CV of the demand")
    parser.add_argument("--load", type=float, default=0.5)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--jobs", default="20000,200000", help="stop.jobs values to try")
    parser.add_argument("--budget", type=int, default=4_000_000, help="stop.max_jobs (sequential)")
    args = parser.parse_args()
    workload = {"name": "mg1_ps", "kind": "malleable", "parallelism": 128, "demand_mean": 1000.0,
                "demand_scv": args.scv, "demand_growth": "none", "demand_normalise": True,
                "speedup": {"model": "linear"}}
    exact = 1000.0 / (128 * (1 - args.load))
    print(f"M/G/1-PS, C^2 = {args.scv:g}, rho = {args.load}, E[R] = {exact:.4f} s, {args.runs} runs each")
    print("| stop.jobs | rule | estimator | coverage | mean error | rms error | median jobs | time |")
    print("|---|---|---|---|---|---|---|---|")
    for jobs in (int(j) for j in args.jobs.split(",")):
        for sequential in (False, True):
            for control in (False, True):
                stop = StopRule(jobs=jobs, warmup=0, ci_target=0.05 if sequential else 0.0,
                                max_jobs=args.budget if sequential else None, control_variate=control)
                point = Point(policy={"name": "eqs", "fractional": True}, workload=workload,
                              system={"processors": 128}, load=args.load, stop=stop)
                t0 = time.perf_counter()
                runs = [simulate(point, np.random.default_rng(seed)).summary for seed in range(args.runs)]
                error = np.array([s["mean_response"] / exact - 1 for s in runs])
                covered = np.mean([abs(s["mean_response"] - exact) <= s["ci_halfwidth"] for s in runs])
                print(f"| {jobs:,} | {'±5%' if sequential else 'fixed'} | "
                      f"{'control variate' if control else 'plain'} | {covered:.2f} | {error.mean():+.3f} | "
                      f"{np.sqrt((error ** 2).mean()):.3f} | {np.median([s['jobs'] for s in runs]):,.0f} | "
                      f"{time.perf_counter() - t0:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
