"""How CV96's mean response times move with the run length near saturation (the figures that
``sweep/papers/cv96/claims.yaml`` and ``docs/model-notes.md`` §1 quote).

    python benchmarks/cv96_run_length.py [--preset cv96_fig9b] [--load 0.8]
        [--runs 100000:16,1000000:16,4000000:8] [--out cv96_run_length]

For each ``jobs:replications`` pair it runs the preset's EQS and FB-PWS at one load as
fixed-length runs (``stop.ci_target=0``: ``jobs`` measured jobs each, the preset's controls and
warm-up otherwise), ``replications`` independent replications paired across the two policies
(common random numbers), then once more as the preset runs it: one sequential run to its ±5%
target. It prints each policy's mean over the replications with its 90% Student-t half-width
and the ratio FB-PWS / EQS (its per-replication ratios' mean and 90% half-width).

What it showed (2026-11-28, 2-core AMD EPYC, the defaults): the means grow with the run length
long past the 200,000 jobs after which the presets' sequential runs may stop, so that independent
short replications, each from an empty machine, are not a substitute for one long run; and one
sequential run's batch-means interval does not cover the spread between runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import xarray as xr

import sweep
from sweep.stats.batch_means import ci_halfwidth

POLICIES = ("eqs", "fb_pws")


def _row(label: str, path: Path, seconds: float) -> str:
    with xr.open_dataset(path) as data:
        response = data["mean_response"].squeeze(drop=True)
        jobs = int(data["jobs"].max())
        own = data["mean_response_hw90"].squeeze(drop=True)
    eqs, fb = (response.sel(policy=p).values.ravel() for p in POLICIES)
    ratios = fb / eqs
    cells = [f"{values.mean():.1f} ± {ci_halfwidth(values):.1f}" for values in (eqs, fb)]
    ratio_half = ci_halfwidth(ratios)
    if eqs.size == 1:  # one run: its own batch-means half-widths, combined as if independent (no
        # spread over one replication)
        halves = [float(own.sel(policy=p)) for p in POLICIES]
        cells = [f"{m[0]:.1f} ± {h:.1f} (one run)" for m, h in zip((eqs, fb), halves, strict=True)]
        ratio_half = float(ratios[0] * np.hypot(halves[0] / eqs[0], halves[1] / fb[0]))
    return (f"| {label} | {eqs.size} | {jobs:,} | {cells[0]} | {cells[1]} | "
            f"{ratios.mean():.3f} ± {ratio_half:.3f} | {seconds:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="cv96_fig9b")
    parser.add_argument("--load", type=float, default=0.8)
    parser.add_argument("--runs", default="100000:16,1000000:16,4000000:8",
                        help="jobs:replications pairs, comma-separated")
    parser.add_argument("--out", default="cv96_run_length")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    common = [f"experiment={args.preset}", f"grid.load=[{args.load}]", f"grid.policy=[{','.join(POLICIES)}]",
              "progress=false", "overwrite=true"]
    print(f"{args.preset} at load {args.load}: mean response time (90% interval over replications)\n")
    print("| runs | replications | jobs per run (max) | EQS | FB-PWS | FB-PWS / EQS | wall |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for pair in args.runs.split(","):
        jobs, replications = (int(x) for x in pair.split(":"))
        path = out / f"fixed_{jobs}.nc"
        started = time.perf_counter()
        sweep.run([*common, "stop.ci_target=0", f"stop.jobs={jobs}", f"replications={replications}",
                   f"output={path}"])
        print(_row(f"fixed {jobs:,} jobs", path, time.perf_counter() - started), flush=True)
    path = out / "sequential.nc"
    started = time.perf_counter()
    sweep.run([*common, "replications=1", f"output={path}"])
    print(_row("the preset's sequential ±5% run", path, time.perf_counter() - started), flush=True)


if __name__ == "__main__":
    main()
