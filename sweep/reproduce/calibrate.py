"""``sweep-calibrate``: fit the parameters a paper does not print to the numbers it does.

::

    sweep-calibrate --out DIR [--paper KEY|all] [--only NAME] [--workers N] [--address A]

Runs every ``calibrate:`` and ``sensitivity:`` block of the chosen papers' claims
files (:mod:`sweep.reproduce.calibration`): each preset of a block over the block's
design, all on one pool, each Dataset in ``DIR/data/<preset>@<name>.nc`` (reused
by a rerun when its config is unchanged; its compute seconds in
``DIR/data/compute_seconds.json``, so that the record of a rerun says what the
design cost). A ``calibrate:`` block is then fitted:
the fitted values go into ``conf/calibrated/<paper>_<name>.yaml`` (the presets
include it) and the fit, its residuals and every claim's verdict at each design
point into ``sweep/reproduce/calibrations/<paper>_<name>.yaml``. A ``sensitivity:``
block fits nothing: its record, in the same folder, holds the parameters' ranges
and every claim's verdict at each design point. Exit 0 when every block was
written, 1 when a run failed, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sweep.reproduce.cli import ALL, _Parser


def parser() -> argparse.ArgumentParser:
    from sweep.reproduce.claims import papers

    p = _Parser(prog="sweep-calibrate", description="Fit the parameters a paper does not print to the "
                "numbers it prints, or vary them over their plausible ranges (docs/design.md §9).")
    p.add_argument("--out", required=True, type=Path, help="folder of the design's Datasets")
    p.add_argument("--paper", default=ALL, help=f"one of {', '.join([*papers(), ALL])} (default: {ALL})")
    p.add_argument("--only", default=None, help="one calibrate or sensitivity block by name")
    p.add_argument("--workers", type=int, default=None, help="workers of the pool (default: every CPU)")
    p.add_argument("--address", default="", help="a Ray cluster to join")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress display")
    return p


def _overrides(calibration, preset: str, data: Path, args: argparse.Namespace) -> list[str]:
    design = [f"grid.{key}=[{','.join(str(v) for v in calibration.axis(key))}]"
              for key in calibration.parameters]
    engine = [f"engine.workers={args.workers}"] if args.workers else []
    engine += [f"engine.address={args.address}"] if args.address else []
    # replications: own (None) leaves each preset's own (sweep.reproduce.calibration)
    own = calibration.replications is None
    return [f"experiment={preset}", *calibration.overrides, *design,
            *([] if own else [f"replications={calibration.replications}"]), *engine,
            f"progress={str(args.progress).lower()}",
            "plots=false", "overwrite=true",
            f"output={data / f'{preset}@{calibration.name}.nc'}"]


#: Beside the Datasets: each one's compute seconds, so that a rerun reusing it records what it cost.
SECONDS = "compute_seconds.json"


def _seconds(data: Path) -> dict[str, float]:
    """The compute seconds of the Datasets in ``data`` (``SECONDS``; empty before a first run)."""
    path = data / SECONDS
    return {str(k): float(v) for k, v in json.loads(path.read_text()).items()} if path.exists() else {}


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    from sweep.engine.runner import composed, prepare, resolved_yaml, run_many
    from sweep.reproduce.claims import load_paper, papers
    from sweep.reproduce.cli import _reusable, guarded

    if args.paper != ALL and args.paper not in papers():
        print(f"sweep-calibrate: --paper {args.paper!r} is not a paper; choose one of "
              f"{', '.join([*papers(), ALL])}", file=sys.stderr)
        return 2
    chosen = [load_paper(key) for key in (papers() if args.paper == ALL else [args.paper])]
    blocks = [c for paper in chosen for c in paper.calibrations if args.only in (None, c.name)]
    if not blocks:
        print(f"sweep-calibrate: no calibration block{f' named {args.only!r}' if args.only else ''} "
              f"in {', '.join(p.key for p in chosen)}", file=sys.stderr)
        return 2
    data = args.out.absolute() / "data"
    data.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    datasets, seconds = {}, _seconds(data)

    def design_runs() -> None:
        pending = []
        runs = [(f"{preset}@{calibration.name}", _overrides(calibration, preset, data, args))
                for calibration in blocks for preset in calibration.presets]
        for (label, overrides), (cfg, grid) in zip(runs, composed([o for _, o in runs]), strict=True):
            reused = _reusable(data / f"{label}.nc", resolved_yaml(cfg))
            if reused is not None:
                datasets[label] = reused
            else:
                pending.append(prepare(cfg, overrides, label=label, grid=grid))
        for finished in run_many(pending) if pending else ():
            datasets[finished.label] = finished.dataset
            seconds[finished.label] = finished.compute_seconds
            (data / SECONDS).write_text(json.dumps(seconds, indent=1, sort_keys=True))

    failed = guarded("sweep-calibrate", design_runs)
    if failed is not None:
        return failed
    for calibration in blocks:
        paper = next(p for p in chosen if p.key == calibration.paper)
        design = {preset: datasets[f"{preset}@{calibration.name}"] for preset in calibration.presets}
        spent = sum(seconds.get(f"{preset}@{calibration.name}", 0.0) for preset in calibration.presets)
        write = _fit_and_write if calibration.fits else _write_sensitivity
        written = write(calibration, paper, design, spent)
        print(f"sweep-calibrate: {calibration.key}: {written}", file=sys.stderr)
    print(f"sweep-calibrate: done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


def _fit_and_write(calibration, paper, design, spent: float) -> str:
    import numpy as np

    from sweep.reproduce import calibration as cal
    from sweep.reproduce.sensitivity import design_verdicts

    values = cal.target_values(calibration, design)
    rng = np.random.default_rng(0)
    resampled = [cal.target_values(calibration, cal.resample(design, rng)) for _ in range(cal.RESAMPLES)]
    result = cal.fit(calibration, values, resampled)
    sensitivity = design_verdicts(calibration, paper.claims, design)
    config = Path(str(_conf_folder())) / "calibrated" / f"{calibration.key}.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(cal.config_text(calibration, result))
    record = _write_record(calibration, cal.fit_record(calibration, result, sensitivity, spent))
    fitted = ", ".join(f"{k} = {v:.4g} [{result.low[k]:.4g}, {result.high[k]:.4g}]"
                       for k, v in result.values.items())
    return f"{fitted}; objective {result.objective:.4g}; wrote {config} and {record}"


def _write_sensitivity(calibration, paper, design, spent: float) -> str:
    """A ``sensitivity:`` block's record: nothing fitted, each claim's verdict at each design point."""
    from sweep.reproduce import calibration as cal
    from sweep.reproduce.sensitivity import design_verdicts

    sensitivity = design_verdicts(calibration, paper.claims, design)
    record = _write_record(calibration, cal.sensitivity_record(calibration, sensitivity, spent))
    return f"{len(sensitivity)} claims judged at {len(calibration.design())} design points; wrote {record}"


def _write_record(calibration, content: dict) -> Path:
    import yaml

    from sweep.reproduce import calibration as cal

    record = cal.records_folder() / f"{calibration.key}.yaml"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(yaml.safe_dump(content, sort_keys=False, allow_unicode=True, width=110))
    return record


def _conf_folder():
    from importlib import resources

    return resources.files("sweep") / "conf"


if __name__ == "__main__":
    raise SystemExit(main())
