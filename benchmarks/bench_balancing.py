"""Speed of the balancing family (CSSE00 Tables 2–4; target: one 32,000-task run <= 0.5 s).

``runs``: seconds of one 32,000-task run of each policy on 16 PEs, kernel alone
(the task set drawn once) and end to end through ``Family.simulate`` (drawing
the tasks and the paired no-balancing run included), best and median of
``--repeat`` after a warm-up call that compiles or loads the kernel.

``presets``: the three table presets (``ipg00_table2..4``, 4 policies × 4
topologies × 30 replications each) end to end through ``sweep.run`` on the
serial backend: seconds each and together (target: 3 minutes together).

    python benchmarks/bench_balancing.py [runs|presets ...] [--repeat 5] [--scenario symmetric]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import sweep
from sweep.config.compose import load_option
from sweep.families import Point, StopRule, load_families
from sweep.families.balancing._core import make_sim
from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._tasks import draw_tasks, workload_of

TOPOLOGIES = ("mesh", "hypercube", "fully_connected", "workstations")


def _best_median(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    call()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return min(seconds), statistics.median(seconds)


def runs(repeat: int, scenario: str) -> None:
    family = load_families()["balancing"]
    workload = load_option("workload", f"lb_{scenario}")
    print(f"| policy | {' | '.join(TOPOLOGIES)} |  (kernel s / simulate s, best of {repeat})")
    for name, policy in family.policies.items():
        cells = []
        for topology in TOPOLOGIES:
            system = load_option("system", f"lb_{topology}")
            machine = machine_of(system)
            tasks = draw_tasks(workload_of(workload), machine.pes, np.random.default_rng(0))
            params = policy.make_params({})

            def kernel(policy=policy, machine=machine, tasks=tasks, params=params) -> None:
                policy.hooks.kernel(make_sim(machine, tasks), policy.hooks.make_state(machine, tasks, params))

            point = Point(policy={"name": name}, workload=workload, system=system, load=0.7,
                          stop=StopRule(jobs=1, warmup=0))
            k, _ = _best_median(kernel, repeat)
            s, _ = _best_median(lambda point=point: family.simulate(point, np.random.default_rng(0)), repeat)
            cells.append(f"{k:.3f} / {s:.3f}")
        print(f"| {name} | {' | '.join(cells)} |")


def presets() -> None:
    total = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for table in ("ipg00_table2", "ipg00_table3", "ipg00_table4"):
            start = time.perf_counter()
            sweep.run([f"experiment={table}", "engine.backend=serial", "progress=false", "plots=false",
                       f"output={Path(folder) / table}.nc"])
            seconds = time.perf_counter() - start
            total += seconds
            print(f"{table}: {seconds:.1f} s")
    print(f"three table presets: {total:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="*", default=["runs", "presets"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scenario", default="symmetric")
    args = parser.parse_args()
    for what in args.what:
        runs(args.repeat, args.scenario) if what == "runs" else presets()


if __name__ == "__main__":
    main()
