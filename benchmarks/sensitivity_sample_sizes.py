"""How wide the Sobol' intervals are at N = 32, 128 and 512 on docs/sensitivity.md's worked example.

    python benchmarks/sensitivity_sample_sizes.py [--samples 32 128 512]

The closed form of Central-Queue over load, C² and hosts (docs/sensitivity.md), sampled by
Saltelli with N base samples (N · (2·3 + 2) points); for each N, each parameter's S1 and ST with
the half-width of its 95% bootstrap interval, and the points it took. The guidance on sample sizes
in docs/sensitivity.md quotes this table.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import sweep
from sweep.analysis import sensitivity

EXAMPLE = ["policy=central_queue", "workload=hyperexp2", "model=analytic", "design=saltelli",
           "design.params.load=[0.3,0.7]", "design.params.workload.scv=[1,8]",
           "design.params.system.hosts=[1,4]", "progress=false", "plots=false", "engine.backend=serial"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, nargs="+", default=[32, 128, 512])
    args = parser.parse_args()
    print("| N | points | " + " | ".join(f"{i} {p}" for p in ("load", "scv", "hosts") for i in ("S1", "ST"))
          + " |")
    print("|---|---|" + "---|" * 6)
    with tempfile.TemporaryDirectory() as folder:
        for samples in args.samples:
            output = Path(folder) / f"n{samples}.nc"
            ds = sweep.run([*EXAMPLE, f"design.samples={samples}", f"output={output}"])
            out = sensitivity(ds, variable="mean_wait").squeeze(drop=True)
            cells = [f"{float(out[i].sel(parameter=p)):.3f} ± {float(out[f'{i}_hw95'].sel(parameter=p)):.3f}"
                     for p in ("load", "scv", "hosts") for i in ("S1", "ST")]
            print(f"| {samples} | {ds.sizes['sample']:,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
