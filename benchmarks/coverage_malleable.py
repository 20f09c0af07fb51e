"""Coverage of the malleable family's 90% confidence intervals against an exact value (issue 5).

EQS with real-valued shares and linear speedup, every job able to use ``N = P/c`` processors
(``c`` an integer), is a symmetric queue: the ``n`` jobs present share a total rate of
``min(n, c)·N`` processors equally. Such a queue is insensitive (Kelly, *Reversibility and
Stochastic Networks*, 1979, §3.3): its mean number in system is that of M/M/c whatever the
demand distribution, so ``E[R] = E[N]/λ`` with Erlang's C formula; ``c = 1`` is M/G/1-PS,
``E[R] = W̄/(P(1 − ρ))``, ``c = 2`` gives ``E[R] = W̄/(N(1 − ρ²))``. For each setting ``--runs``
independent replications estimate it with each set of control variates
(``stop.control_variate``: none, ``demand``, ``demand`` and ``processor_sharing``), either for a
fixed run of ``--jobs`` measured jobs or sequentially to ``±5%`` (``stop.ci_target = 0.05``; the
interval is first checked after ``--jobs``, at most ``--budget``). With ``c = 1`` the
processor-sharing twin *is* the system, so that estimator is exact; ``c = 2`` (the default)
tests it where it is only correlated. Printed per setting: the fraction of intervals that cover
the exact value (nominal 0.90), the mean and root-mean-square relative error of the estimates,
and the median jobs measured.

    python benchmarks/coverage_malleable.py [--servers 2] [--scv 100] [--load 0.5] [--runs 40]
        [--jobs 20000,200000] [--budget 4000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sweep.families import Point, StopRule
from sweep.families.dispatch._analytic import erlang_c
from sweep.families.malleable._simulate import simulate


def mmc_response(servers: int, load: float, mean_service: float) -> float:
    """M/M/c mean response time, ``c = servers`` each of utilisation ``load``: ``E[S](1 + C/(c(1 − ρ)))``."""
    return mean_service * (1.0 + erlang_c(servers, servers * load) / (servers * (1.0 - load)))


CONTROLS = ((), ("demand",), ("demand", "processor_sharing"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=2, help="c: every job uses at most P/c processors")
    parser.add_argument("--scv", type=float, default=100.0, help="squared CV of the demand")
    parser.add_argument("--load", type=float, default=0.5)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--jobs", default="20000,200000", help="stop.jobs values to try")
    parser.add_argument("--budget", type=int, default=4_000_000, help="stop.max_jobs (sequential)")
    args = parser.parse_args()
    processors, demand = 128, 1000.0
    workload = {"name": "insensitive", "kind": "malleable", "parallelism": processors // args.servers,
                "demand_mean": demand, "demand_scv": args.scv, "demand_growth": "none",
                "demand_normalise": True, "speedup": {"model": "linear"}}
    exact = mmc_response(args.servers, args.load, demand / (processors // args.servers))
    print(f"EQS, N = P/{args.servers}, C^2 = {args.scv:g}, rho = {args.load}, E[R] = {exact:.4f} s, "
          f"{args.runs} runs each")
    print("| stop.jobs | rule | control variates | coverage | mean error | rms error | median jobs | time |")
    print("|---|---|---|---|---|---|---|---|")
    for jobs in (int(j) for j in args.jobs.split(",")):
        for sequential in (False, True):
            for controls in CONTROLS:
                stop = StopRule(jobs=jobs, warmup=0, ci_target=0.05 if sequential else 0.0,
                                max_jobs=args.budget if sequential else None, control_variate=list(controls))
                point = Point(policy={"name": "eqs", "fractional": True}, workload=workload,
                              system={"processors": processors}, load=args.load, stop=stop)
                t0 = time.perf_counter()
                runs = [simulate(point, np.random.default_rng(seed)).summary for seed in range(args.runs)]
                error = np.array([s["mean_response"] / exact - 1 for s in runs])
                covered = np.mean([abs(s["mean_response"] - exact) <= s["mean_response_hw90"] for s in runs])
                print(f"| {jobs:,} | {'±5%' if sequential else 'fixed'} | {' + '.join(controls) or 'none'} | "
                      f"{covered:.2f} | {error.mean():+.3f} | {np.sqrt((error ** 2).mean()):.3f} | "
                      f"{np.median([s['jobs'] for s in runs]):,.0f} | {time.perf_counter() - t0:.0f} s |",
                      flush=True)


if __name__ == "__main__":
    main()
