"""Rate of Change's Where phase (CSSE00 §3.2.2, issue 25 §2): how often a request finds load at its first hop,
and how often it could have.

For each of Tables 2-4's scenarios (presets ``ipg00_table2`` … ``ipg00_table4``, their calibrated
message costs) on the mesh and the network of workstations, ``--replications`` task sets (drawn
from seeds 1000, 1001, …; each set shared by every reading, so the differences are paired) run
under Rate of Change's default reading and its two Where-phase options (``source_rule``,
``load_in_messages``), and print per reading: NP and its paired difference from the default (90%
Student-t half-width), the first-hop hit rate, and ``reachable``, the share of requests made while
some other PE had a load above HT, i.e. could serve at all: no table can make a first-hop hit of
a request with nothing to find, so ``reachable`` bounds the first-hop hit rate.

    python benchmarks/roc_where.py [--replications 10]
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

from sweep.config.compose import compose
from sweep.config.grid import expand
from sweep.families import load_families
from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._simulate import run_policy, summarise
from sweep.families.balancing._tasks import draw_tasks, workload_of

READINGS = {"default": {}, "above": {"source_rule": "above"}, "carry": {"load_in_messages": True},
            "carry+above": {"load_in_messages": True, "source_rule": "above"}}


def rows(table: int, replications: int) -> None:
    """Print one line per (network, reading) of Table ``table``'s preset."""
    overrides = [f"experiment=ipg00_table{table}", "grid.policy=[rate_of_change]",
                 "grid.system.topology=[mesh,workstations]"]
    family = load_families()["balancing"]
    baseline = family.policies["no_balancing"]
    for grid_point in expand(compose(overrides), overrides).points:
        point = grid_point.point
        machine = machine_of(point.system)
        measured: dict[str, list[tuple[float, ...]]] = {name: [] for name in READINGS}
        for replication in range(replications):
            rng = np.random.default_rng(1000 + replication)
            tasks = draw_tasks(workload_of(point.workload), machine.pes, rng)
            span = int(run_policy(baseline, baseline.make_params({}), machine, tasks)[0].makespan[0])
            for name, options in READINGS.items():
                section = {**point.policy, **options}
                policy = family.policies["rate_of_change"]
                sim, state = run_policy(policy, policy.make_params(section), machine, tasks)
                summary = summarise(policy, sim, state, span, machine, tasks)
                measured[name].append((summary["normalized_performance"], summary["first_hop_hit_rate"],
                                       state.reachable[0] / max(summary["requests"], 1), summary["requests"]))
        default = np.array(measured["default"])
        for name in READINGS:
            values = np.array(measured[name])
            difference = values[:, 0] - default[:, 0]
            half = (stats.t.ppf(0.95, replications - 1) * difference.std(ddof=1) / np.sqrt(replications)
                    if replications > 1 else float("nan"))
            print(f"table {table} {point.system['topology']:12s} {name:12s} NP {values[:, 0].mean():.3f} "
                  f"(vs default {difference.mean():+.4f} ± {half:.4f})  first-hop hits "
                  f"{values[:, 1].mean():.3f}  reachable {values[:, 2].mean():.3f}  requests "
                  f"{values[:, 3].mean():,.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=10)
    args = parser.parse_args()
    for table in (2, 3, 4):
        rows(table, args.replications)


if __name__ == "__main__":
    main()
