"""Speed of the mapping family (issue 11 targets; figures go into BENCHMARKS.md).

For each mapper: best of ``--repeats`` runs on one random DAG of ``--tasks``
tasks (the ``random_dag`` workload) on the ``ipg00_random100`` system, after a
warm-up that loads the compiled kernels: the mapping time T_c, the clustering
time (Cluster-M's CNDG + CNUG) and the executor's time; then T_c against M
for M = 100 ... 1000 and the fitted growth exponent of T_c and of the
operation counts. Then, in the same run, ratios against what was replaced:
the compiled Cluster-M against its plain-Python reading
(``tests/naive/cluster_m.py``, the implementation before it was compiled) and
MH's default (``contention: tables``) against its first reconstruction
(``contention: exact, priority: upward_rank``).

    PYTHONPATH=$PWD python benchmarks/bench_mapping.py
    PYTHONPATH=$PWD python benchmarks/bench_mapping.py --tasks 1000 --repeats 5

Targets (the issue): HEFT of a 1,000-task DAG on 100 processors <= 0.2 s;
Cluster-M's mapping <= 0.05 s after clustering.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from sweep.config.compose import load_option
from sweep.families import load_families
from sweep.families.mapping._instance import build
from sweep.families.mapping._simulate import execute, run
from sweep.families.mapping.mh import FIRST_RECONSTRUCTION

ROOT = Path(__file__).resolve().parents[1]
MAPPERS = ("cluster_m", "mh", "heft", "cpop", "etf", "map_random")


def _config(group: str, name: str) -> dict:
    return load_option(group, name)


def instance_of(tasks: int, seed: int = 0):
    rng = np.random.default_rng([tasks, seed])
    return build({**_config("workload", "random_dag"), "size": tasks}, _config("system", "ipg00_random100"),
                 rng, rng)


def best(name: str, inst, repeats: int, options: dict | None = None) -> dict[str, float]:
    policy = load_families()["mapping"].policies[name]
    params = policy.make_params(options or {})
    rows = []
    for _ in range(repeats):
        plan, summary, _, _ = run(inst, policy, params, np.random.default_rng(0))
        begin = time.perf_counter()
        execute(inst, plan)
        rows.append((summary["mapping_seconds"], summary["clustering_seconds"], time.perf_counter() - begin,
                     summary["mapping_operations"], summary["speedup"]))
    return {"map": min(r[0] for r in rows), "cluster": min(r[1] for r in rows),
            "execute": min(r[2] for r in rows), "ops": rows[0][3], "speedup": rows[0][4]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    inst = instance_of(args.tasks)
    print(f"M = {args.tasks}, N = {inst.processors}, edges = {inst.graph.edges}")
    print(f"{'mapper':>10} {'T_c (s)':>10} {'cluster (s)':>12} {'execute (s)':>12} {'ops':>10} {'S_m':>6}")
    for name in MAPPERS:
        r = best(name, inst, args.repeats)
        print(f"{name:>10} {r['map']:10.4f} {r['cluster']:12.4f} {r['execute']:12.4f} {r['ops']:10d} "
              f"{r['speedup']:6.2f}")
    sizes = np.arange(100, 1001, 100)
    print("\nT_c (s) against M, best of 3; growth exponents b of T_c and of the operations (T ~ M^b)")
    for name in MAPPERS[:5]:
        rows = [best(name, instance_of(int(m)), 3) for m in sizes]
        times = np.array([r["map"] for r in rows])
        ops = np.array([r["ops"] for r in rows], dtype=float)
        b_time = np.polyfit(np.log(sizes), np.log(times), 1)[0]
        b_ops = np.polyfit(np.log(sizes), np.log(ops), 1)[0]
        print(f"{name:>10} " + " ".join(f"{t:.4f}" for t in times) + f"  b(T_c) = {b_time:.2f}, "
              f"b(ops) = {b_ops:.2f}")
    versus(inst, args.repeats)


def _least(function, repeats: int, *args) -> float:
    times = []
    for _ in range(repeats):
        begin = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - begin)
    return min(times)


def versus(inst, repeats: int) -> None:
    """Ratios in one run: compiled Cluster-M against plain Python, MH's default against its first
    reconstruction."""
    from tests.naive import cluster_m as naive

    policy = load_families()["mapping"].policies["cluster_m"]
    params = policy.make_params({})
    clusters = policy.hooks.cluster(inst, params)[0]
    compiled_cluster = _least(policy.hooks.cluster, repeats, inst, params)
    compiled_map = _least(policy.hooks.map, repeats, inst, params, None, clusters)
    python_cluster = _least(lambda: (naive.cndg(inst, params.chains), naive.cnug(inst)), repeats)
    spec, rep = naive.cndg(inst, params.chains)[0], naive.cnug(inst)[0]
    python_map = _least(naive.map_layers, repeats, inst, params, spec, rep)
    print(f"\nCluster-M, M = {inst.tasks}: clustering {python_cluster * 1e3:.1f} ms (Python) -> "
          f"{compiled_cluster * 1e3:.2f} ms (compiled), x{python_cluster / compiled_cluster:.0f}; mapping "
          f"{python_map * 1e3:.1f} ms -> {compiled_map * 1e3:.2f} ms, x{python_map / compiled_map:.0f}")
    tables = best("mh", inst, repeats)
    exact = best("mh", inst, repeats, FIRST_RECONSTRUCTION)
    print(f"MH, M = {inst.tasks}: T_c {exact['map']:.3f} s (exact contention, upward rank) -> "
          f"{tables['map']:.3f} s (routing tables, static level), x{exact['map'] / tables['map']:.1f}; "
          f"S_m {exact['speedup']:.2f} -> {tables['speedup']:.2f}")


if __name__ == "__main__":
    main()
