"""Throughput of the rigid policies on the KTH SP2 trace (issue 4; Talby & Feitelson 1999 §3).

``policies``: jobs per second on one core. Each policy schedules all 28,475
KTH jobs (one part, 128 processors unless ``--processors``) ``--repeat`` times
after a warm-up run that compiles (or loads) the kernel; the best and the
median are printed. Targets (issue 4): EASY >= 400,000 jobs/s, conservative >=
250,000 jobs/s, slack < 10 s a configuration.

``slack``: slack-based backfilling per configuration of Talby & Feitelson 1999 Table 5 (the
five heuristics, equal priorities and every fifth job at UP = PP = 1), whole
trace, best and median of ``--repeat``: seconds a configuration and jobs/s.

``sweep``: a ``--levels``³-point α/SF sweep (default 10³ = 1,000 points:
slack_factor 1..10 × α_u × α_t in 0.1..1.0; AST, AWT = 2401 s, the paper's
monthly runs) timed end to end through ``sweep.run`` on the Ray backend (a
local Ray started and stopped by the sweep, as the command line does):
total seconds and points/s.

    python benchmarks/bench_rigid.py [policies|slack|sweep ...] [--processors 128] [--repeat 20]
        [--levels 10] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import sweep  # noqa: E402
from sweep.families import load_families  # noqa: E402
from sweep.families.rigid.jobs import RigidJobs, prepare  # noqa: E402
from sweep.families.rigid.slack import HEURISTICS  # noqa: E402
from sweep.workloads.swf import read_swf  # noqa: E402

KTH = Path(__file__).resolve().parents[1] / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
TARGETS = {"easy": 400_000, "conservative": 250_000}
POLICIES = load_families()["rigid"].policies


def _best_median(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best and median seconds of ``repeat`` calls after one warm-up call (compiles or loads)."""
    call()
    seconds = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - t0)
    return min(seconds), statistics.median(seconds)


def _schedule(jobs: RigidJobs, policy: str, config: dict) -> Callable[[], object]:
    """One whole-trace run of ``policy`` with parameters ``config``, as a call."""
    params = POLICIES[policy].make_params(config)
    return lambda: POLICIES[policy].hooks.schedule(jobs.submit, jobs.run, jobs.requested,
                                                   jobs.procs, jobs.priority, jobs.processors, params)


def policies(processors: int, repeat: int) -> None:
    """Jobs/s of every registered policy with its default parameters."""
    jobs = prepare(read_swf(KTH), processors=processors)
    print(f"KTH SP2, {len(jobs)} jobs, {processors} processors, best/median of {repeat}")
    for name in POLICIES:
        best, median = _best_median(_schedule(jobs, name, {}), repeat)
        target = f"  (target {TARGETS[name]:,})" if name in TARGETS else ""
        print(f"{name:>13}: {len(jobs) / best:12,.0f} jobs/s best {len(jobs) / median:12,.0f} median"
              f"{target}")


def slack(processors: int, repeat: int) -> None:
    """Seconds a slack configuration: TF99 Table 5's heuristics × equal / unequal priorities."""
    trace = read_swf(KTH)
    print(f"slack (SF 3, AWT 2401 s, α = 1), KTH whole trace, {processors} processors, "
          f"best/median of {repeat}; target < 10 s a configuration")
    for every, label in ((0, "equal"), (5, "every 5th UP=PP=1")):
        jobs = prepare(trace, processors=processors, priority_every=every)
        for heuristic in HEURISTICS:
            best, median = _best_median(_schedule(jobs, "slack", {"heuristic": heuristic}), repeat)
            print(f"  {heuristic:>3} {label:>17}: {best:6.3f} s best {median:6.3f} s median "
                  f"({len(jobs) / best:9,.0f} jobs/s)")


def alpha_sf_sweep(levels: int, workers: int | None) -> None:
    """A levels³-point sweep over slack_factor × α_u × α_t through ``sweep.run`` on Ray."""
    factors = ",".join(str(k + 1) for k in range(levels))
    alphas = ",".join(f"{(k + 1) / levels:.4g}" for k in range(levels))
    with tempfile.TemporaryDirectory() as folder:
        overrides = ["policy=slack", "workload=kth", "system=sp2_128", "replications=1",
                     f"grid.policy.slack_factor=[{factors}]", f"grid.policy.alpha_u=[{alphas}]",
                     f"grid.policy.alpha_t=[{alphas}]", "engine.backend=ray", "progress=false",
                     "plots=false", f"output={folder}/alpha_sf.nc"]
        if workers:
            overrides.append(f"engine.workers={workers}")
        t0 = time.perf_counter()
        ds = sweep.run(overrides)
        seconds = time.perf_counter() - t0
    points = ds["mean_wait"].size
    print(f"alpha/SF sweep: {points} points (slack_factor x alpha_u x alpha_t, KTH monthly, 128 "
          f"processors) on Ray, {workers or os.cpu_count()} workers: {seconds:.1f} s end to end "
          f"(Ray start included), {points / seconds:.2f} points/s, {seconds / points:.3f} s a point; "
          f"mean_wait {float(ds['mean_wait'].min()):.0f}..{float(ds['mean_wait'].max()):.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", choices=["policies", "slack", "sweep"],
                        default=["policies", "slack", "sweep"])
    parser.add_argument("--processors", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--levels", type=int, default=10)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    if "policies" in args.parts:
        policies(args.processors, args.repeat)
    if "slack" in args.parts:
        slack(args.processors, max(1, args.repeat // 4))
    if "sweep" in args.parts:
        alpha_sf_sweep(args.levels, args.workers)


if __name__ == "__main__":
    main()
