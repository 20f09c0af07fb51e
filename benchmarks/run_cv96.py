"""Wall time and precision of every ``cv96_*`` experiment preset, run as users run them (issue 5).

Target: all of them at ±5% precision in under 30 minutes on a 2-core machine. The presets run
one after another in one process (Ray started once, kernels compiled by the first), each
writing ``<out>/<name>.nc`` and its figure; the table gives per preset the points, the wall
time, the points whose 90% CI met ±5% of the mean (the control-variate mean where the preset
says so) among those not marked saturated, their median relative half-width, and the most jobs
one point measured.

    python benchmarks/run_cv96.py [--out cv96_runs] [--only cv96_fig6a,cv96_fig9a] \
        [--set engine.backend=serial ...]

``--set`` adds a command-line override to every preset (the full-precision runs of
``reproduction/cv96.md`` use ``engine.backend=serial``, one point at a time, under ``nice``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import xarray as xr

import sweep

PRESETS = ["cv96_fig5", "cv96_fig6a", "cv96_fig6b", "cv96_fig7a", "cv96_fig7b", "cv96_fig8",
           "cv96_fig9a", "cv96_fig9b", "cv96_fig10a", "cv96_fig10b", "cv96_fig11",
           "cv96_fig6a_cwn2", "cv96_fig6b_cwn2", "cv96_eqs_avg"]


def precision(path: Path) -> tuple[int, int, int, float, int]:
    """Points, points that met ±5%, points not saturated, median relative half-width, most jobs."""
    with xr.open_dataset(path) as data:
        relative = (data["mean_response_hw90"] / data["mean_response"]).values.ravel()
        stable = ~data["saturated"].values.ravel().astype(bool)
        jobs = int(data["jobs"].max())
    met = int(((relative <= 0.05) & stable).sum())
    return relative.size, met, int(stable.sum()), float(np.nanmedian(relative[stable])), jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="cv96_runs")
    parser.add_argument("--only", default=",".join(PRESETS))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="an override added to every preset (repeatable)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    print("| experiment | points | wall time | ±5% met / stable | median ± | jobs per point (max) |")
    print("|---|---|---|---|---|---|", flush=True)
    start = time.perf_counter()
    for name in args.only.split(","):
        t0 = time.perf_counter()
        sweep.run([f"experiment={name}", f"output={out / name}.nc", "progress=false", *args.set])
        points, met, stable, median, jobs = precision(out / f"{name}.nc")
        print(f"| {name} | {points} | {time.perf_counter() - t0:.0f} s | {met} / {stable} | "
              f"{100 * median:.1f}% | {jobs:,} |", flush=True)
    print(f"\nall: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
