"""Throughput of the rigid policies on the KTH SP2 trace (issue 4; Talby & Feitelson 1999 §3).

``policies``: jobs per second on one core. Each policy schedules all 28,475
KTH jobs (one part, 128 processors unless ``--processors``) ``--repeat`` times
after a warm-up run that compiles (or loads) the kernel; the best and the
median are printed. Targets (issue 4): EASY >= 400,000 jobs/s, conservative >=
250,000 jobs/s, slack < 10 s a configuration.

``slack``: slack-based backfilling per configuration of Talby & Feitelson 1999 Table 5 (the
five heuristics, equal priorities and every fifth job at UP = PP = 1), whole
trace, best of ``--repeat``: seconds a configuration (wall and process CPU) and jobs/s.
With ``--baseline DIR`` (a checkout of an earlier commit, e.g. ``git worktree add
../base main --detach``) the same configurations run first on that code, in a
subprocess with ``PYTHONPATH=DIR``, then on this one: both timings, their ratio,
the load average around each, and whether every start time of every
configuration is the same (issue 17).

``runtime``: calls into numba's runtime (reference counts, allocation) in the optimised LLVM
of the slack kernel and of every compiled function of its pass and of the shared profile code,
compiled afresh in a subprocess with an empty cache (numba cannot show cached code); issue 17
asks for none in the loop.

``sweep``: a ``--levels``³-point α/SF sweep (default 10³ = 1,000 points:
slack_factor 1..10 × α_u × α_t in 0.1..1.0; AST, AWT = 2401 s, the paper's
monthly runs) timed end to end through ``sweep.run`` on the Ray backend (a
local Ray started and stopped by the sweep, as the command line does):
total seconds and points/s.

    python benchmarks/bench_rigid.py [policies|slack|runtime|sweep ...] [--processors 128] [--repeat 20]
        [--levels 10] [--workers N] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import numpy as np  # noqa: E402

import sweep  # noqa: E402
from sweep.families import load_families  # noqa: E402
from sweep.families.rigid._jobs import RigidJobs, prepare  # noqa: E402
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


def _slack_runs(processors: int, repeat: int) -> dict[str, tuple[float, float, np.ndarray]]:
    """Per Table 5 configuration: best wall and best CPU seconds of ``repeat`` runs after a
    warm-up, and the start times."""
    trace = read_swf(KTH)
    out = {}
    for every in (0, 5):
        jobs = prepare(trace, processors=processors, priority_every=every)
        for heuristic in HEURISTICS:
            call = _schedule(jobs, "slack", {"heuristic": heuristic})
            start = call()
            wall, cpu = [], []
            for _ in range(repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                call()
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            out[f"{heuristic}/{every}"] = (min(wall), min(cpu), start)
    return out


def _dump_slack(processors: int, repeat: int, path: str) -> None:
    """:func:`_slack_runs` into an ``.npz`` (what ``--baseline`` runs on the other code)."""
    runs = _slack_runs(processors, repeat)
    np.savez(path, **{f"start:{k}": v[2] for k, v in runs.items()},
             **{f"seconds:{k}": np.array(v[:2]) for k, v in runs.items()})


def _load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def slack(processors: int, repeat: int, baseline: str | None = None) -> None:
    """Seconds a slack configuration: TF99 Table 5's heuristics × equal / unequal priorities;
    with ``baseline``, the same on that code first, and the start times compared."""
    print(f"slack (SF 3, AWT 2401 s, α = 1), KTH whole trace, {processors} processors, "
          f"best of {repeat}; target < 10 s a configuration")
    before = None
    if baseline:
        print(f"  before: {baseline} ({_load()})")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "before.npz")
            env = dict(os.environ, PYTHONPATH=os.path.abspath(baseline))
            subprocess.run([sys.executable, __file__, "slack", "--processors", str(processors),
                            "--repeat", str(repeat), "--dump", path], env=env, check=True)
            with np.load(path) as data:
                before = {k: data[k] for k in data.files}
    print(f"  after: {Path(sweep.__file__).parents[1]} ({_load()})")
    after = _slack_runs(processors, repeat)
    print(f"  done ({_load()})")
    n = len(prepare(read_swf(KTH), processors=processors))
    equal = compared = 0
    for key, (wall, cpu, start) in after.items():
        heuristic, every = key.split("/")
        label = "equal" if every == "0" else "every 5th UP=PP=1"
        line = (f"  {heuristic:>3} {label:>17}: {wall:6.3f} s wall {cpu:6.3f} s CPU "
                f"({n / wall:9,.0f} jobs/s wall, {n / cpu:9,.0f} CPU)")
        if before is not None:
            old_wall, old_cpu = before[f"seconds:{key}"]
            line += f"; before {old_wall:6.3f} s wall {old_cpu:6.3f} s CPU: x{old_cpu / cpu:.2f} CPU"
            same = np.array_equal(before[f"start:{key}"], start)
            equal += same
            compared += start.size
            line += "" if same else "  START TIMES DIFFER"
        print(line)
    if before is not None:
        print(f"  start times compared: {compared:,} in {len(after)} configurations; "
              f"{equal} of {len(after)} configurations identical")


RUNTIME_CALLS = re.compile(r"call [^\n]*@(NRT_incref|NRT_decref|NRT_MemInfo_alloc\w*)\(")


def runtime_calls() -> None:
    """:func:`_runtime_report` in a subprocess whose numba cache is empty."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        subprocess.run([sys.executable, __file__, "runtime", "--runtime-report"], env=env, check=True)


def _runtime_report() -> None:
    """Calls into numba's runtime in the compiled slack kernel and the functions it calls."""
    from numba.core.dispatcher import Dispatcher

    from sweep.families.rigid import _core, _slack
    from sweep.families.rigid import slack as slack_policy

    jobs = prepare(read_swf(KTH), processors=128, priority_every=5)
    _schedule(jobs, "slack", {})()
    compiled = {"slack kernel": slack_policy._run}
    for module in (_slack, _core):
        compiled |= {f"{module.__name__.rsplit('.', 1)[1]}.{name}": f for name, f in vars(module).items()
                     if isinstance(f, Dispatcher) and f.signatures}
    total = 0
    for name, function in compiled.items():
        calls = RUNTIME_CALLS.findall("".join(function.inspect_llvm().values()))
        total += len(calls)
        print(f"  {name:>28}: {len(calls)} runtime calls{'' if not calls else ' ' + str(sorted(set(calls)))}")
    print(f"calls into numba's runtime in {len(compiled)} compiled functions of the slack pass: {total}")


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
    parser.add_argument("parts", nargs="*", choices=["policies", "slack", "runtime", "sweep"],
                        default=["policies", "slack", "sweep"])
    parser.add_argument("--processors", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--levels", type=int, default=10)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--baseline", default=None,
                        help="slack: a checkout of earlier code to measure first, in a subprocess")
    parser.add_argument("--dump", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--runtime-report", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        _dump_slack(args.processors, args.repeat, args.dump)
        return
    if args.runtime_report:
        _runtime_report()
        return
    if "policies" in args.parts:
        policies(args.processors, args.repeat)
    if "slack" in args.parts:
        slack(args.processors, max(1, args.repeat // 4), args.baseline)
    if "runtime" in args.parts:
        runtime_calls()
    if "sweep" in args.parts:
        alpha_sf_sweep(args.levels, args.workers)


if __name__ == "__main__":
    main()
