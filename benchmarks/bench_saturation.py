"""Saturation search: every bisection in rounds on one pool, against the one-point-after-another
search it replaced (issue 17 part 4), on the same points, in one run.

    python benchmarks/bench_saturation.py [--old-rev REV] [--workers 2] [--full]

``rounds``: ``sweep experiment=sh00_saturation`` restricted to 12 points (Random, LWL, SITA-E ×
alpha 1.1, 1.9 × 2 and 8 hosts), all bisections advancing together, Ray pool of ``--workers``.
``one after another``: the search as it was at ``--old-rev`` (read from git, run in this
process): for each point in turn, bisection with one serial ``sweep.run`` per step. Same loads,
jobs, replications and tolerance; the stability test differs in one detail (the old one cut the
per-job response times into 20 batches, the new one reads the family's 32 batch means), so the
brackets may differ by a step. ``--full`` also times the whole 108-point preset on the pool.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import tempfile
import time
from pathlib import Path

os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import numpy as np  # noqa: E402

import sweep  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
POLICIES, ALPHAS, HOSTS = ["random", "lwl", "sita_e"], [1.1, 1.9], [2, 8]
SUBSET = [f"grid.policy=[{','.join(POLICIES)}]", f"grid.workload.alpha=[{','.join(map(str, ALPHAS))}]",
          f"grid.system.hosts=[{','.join(map(str, HOSTS))}]"]


def rounds(workers: int, extra: list[str]) -> tuple[float, np.ndarray]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        ds = sweep.run(["experiment=sh00_saturation", *extra, f"engine.workers={workers}", "progress=false",
                        "plots=false", f"output={folder}/s.nc"])
        seconds = time.perf_counter() - started
    found = ds["saturation_load"].squeeze("workload", drop=True)
    return seconds, found.transpose("policy", "alpha", "hosts").values


def one_after_another(old_rev: str) -> tuple[float, np.ndarray]:
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{old_rev}:sweep/analysis/saturation.py"],
                            check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "old_saturation.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location("old_saturation", path)
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
        started = time.perf_counter()
        out = old.saturation_search(
            ["workload=bounded_pareto", "system=distributed"],
            {"policy": POLICIES, "workload.alpha": ALPHAS, "system.hosts": HOSTS},
            lo=0.3, hi=1.3, tol=0.02, jobs=100_000, replications=3)
        return time.perf_counter() - started, out.values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-rev", default="9a1b60d", help="a commit with the one-point-at-a-time search")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="also the whole 108-point preset")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    new_seconds, new = rounds(args.workers, SUBSET)
    print(f"rounds on the pool, {args.workers} workers, 12 points: {new_seconds:.1f} s")
    old_seconds, old = one_after_another(args.old_rev)
    print(f"one after another, serial, 12 points ({args.old_rev}): {old_seconds:.1f} s")
    print(f"speed-up: {old_seconds / new_seconds:.1f}x")
    print(f"largest difference of the saturation loads: {np.nanmax(np.abs(new - old)):.3f}")
    print("saturation loads (rounds | one after another), policy x alpha x hosts:")
    for n, policy in enumerate(POLICIES):
        print(f"  {policy:>8}: {np.round(new[n], 3).tolist()} | {np.round(old[n], 3).tolist()}")
    if args.full:
        seconds, _ = rounds(args.workers, [])
        print(f"rounds on the pool, {args.workers} workers, the whole preset (108 points): {seconds:.1f} s")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
