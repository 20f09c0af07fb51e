"""``sweep-reproduce``: run every preset of the papers' claims files, judge every claim, write the report.

::

    sweep-reproduce --out DIR [--paper sh00|cv96|tf99|ipg00|all] [--quick] [--workers N]
                    [--address A] [--pages ROOT]

All presets of the chosen papers run as one :func:`sweep.engine.runner.run_many`
call: one backend (Ray pool, or this process with ``--workers 1``), one progress
display, each Dataset written to ``DIR/data/<preset>.nc`` as soon as its last task
is in. A rerun with the same ``--out`` reuses every Dataset whose stored config is
the one it would compute, and resumes the others from their checkpoints. Then
every claim is judged (:func:`sweep.reproduce.claims.evaluate`) and the report
written (:mod:`sweep.reproduce.report`): ``DIR/claims.csv``, ``DIR/report.md``,
``DIR/report.html``, the figures in ``DIR/figures/``. ``--pages ROOT`` also writes
``ROOT/REPRODUCTION.md`` and ``ROOT/reproduction/<paper>.md``.

Exit status: 0 when every preset ran and every claim has a verdict (deviating and
contradicted claims are results, not failures); 1 when a run or a claim's
computation failed; 2 on bad input (one line on stderr, nothing run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

#: The papers option's "every paper".
ALL = "all"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # noqa: D102 - argparse's hook: one line, exit 2
        print(f"sweep-reproduce: {message}", file=sys.stderr)
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    from sweep.reproduce.claims import papers

    p = _Parser(prog="sweep-reproduce", description="Run every preset of the papers' claims files, "
                "judge every claim and write the report (docs/design.md §9).")
    p.add_argument("--out", required=True, type=Path, help="folder of the report, Datasets and figures")
    p.add_argument("--paper", default=ALL, help=f"one of {', '.join([*papers(), ALL])} (default: {ALL})")
    p.add_argument("--quick", action="store_true", help="reduced precision (each preset's `quick` overrides)")
    p.add_argument("--workers", type=int, default=None,
                   help="workers of the pool (default: every CPU); 1 runs in this process, without Ray")
    p.add_argument("--address", default="", help="a Ray cluster to join (`auto`, `host:port`, `ray://...`)")
    p.add_argument("--pages", type=Path, default=None,
                   help="also write REPRODUCTION.md and reproduction/<paper>.md under this repository root")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress display")
    return p


def _overrides(name: str, quick: Sequence[str], data: Path, args: argparse.Namespace) -> list[str]:
    engine = []
    if args.workers is not None:
        engine.append(f"engine.workers={args.workers}")
        if args.workers == 1 and not args.address:
            engine.append("engine.backend=serial")
    if args.address:
        engine.append(f"engine.address={args.address}")
    return [f"experiment={name}", *quick, *engine, f"progress={str(args.progress).lower()}", "plots=false",
            f"output={data / f'{name}.nc'}"]


def _reusable(output: Path, config_yaml: str):
    """The Dataset at ``output`` if it was computed from ``config_yaml``, else None."""
    import xarray as xr

    if not output.exists():
        return None
    try:
        dataset = xr.load_dataset(output)
    except (OSError, ValueError):
        return None
    return dataset if dataset.attrs.get("config") == config_yaml else None


#: The entry of ``runs.json`` that keeps the wall time, memory and command of the last run that computed.
RUN_KEY = "_run"


def _memory_text() -> str:
    """Peak resident memory of this process and of its largest waited-for child (ru_maxrss, KiB on
    Linux); Ray's workers are not this process's children and are not counted."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return (f"Peak resident memory: {own:.0f} MiB in this process, {children:.0f} MiB in its largest "
            "finished child process (getrusage maxrss); Ray's worker processes, when a pool is used, "
            "are not counted.")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    args.out = args.out.absolute()
    started = time.perf_counter()
    from sweep.engine.config import ConfigError, compose
    from sweep.reproduce.claims import load_paper, papers

    if args.paper != ALL and args.paper not in papers():
        print(f"sweep-reproduce: --paper {args.paper!r} is not a paper; choose one of "
              f"{', '.join([*papers(), ALL])}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print(f"sweep-reproduce: --workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    keys = papers() if args.paper == ALL else [args.paper]
    chosen = [load_paper(key) for key in keys]
    data, figures = args.out / "data", args.out / "figures"

    from sweep.engine.runner import prepare, resolved_yaml, run_many

    presets, reused, to_run = {}, {}, []
    for paper in chosen:
        for name, quick in paper.presets.items():
            quick = list(quick) if args.quick else []
            overrides = _overrides(name, quick, data.absolute(), args)
            try:
                cfg = compose(overrides)
            except ConfigError as error:
                print(f"sweep-reproduce: {paper.key}.yaml preset {name}: {error}", file=sys.stderr)
                return 2
            presets[name] = quick
            dataset = _reusable(data / f"{name}.nc", resolved_yaml(cfg))
            if dataset is not None:
                reused[name] = dataset
            else:
                to_run.append((name, cfg, overrides))
    data.mkdir(parents=True, exist_ok=True)
    figures.mkdir(parents=True, exist_ok=True)
    runs_file = data / "runs.json"  # per preset: its compute seconds and figure files, for reuse
    runs = json.loads(runs_file.read_text()) if runs_file.exists() else {}
    datasets = dict(reused)
    failed = None
    if to_run:
        try:
            prepared = [prepare(cfg, overrides, label=name) for name, cfg, overrides in to_run]
            for finished in run_many(prepared):
                datasets[finished.label] = finished.dataset
                runs[finished.label] = {"compute_seconds": finished.compute_seconds, "figures": None}
            runs[RUN_KEY] = {"wall_seconds": time.perf_counter() - started, "memory": _memory_text(),
                             "command": shlex.join(["sweep-reproduce", *argv])}
        except ConfigError as error:
            print(f"sweep-reproduce: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("sweep-reproduce: interrupted; run the same command again to resume", file=sys.stderr)
            return 130
        except Exception as error:  # noqa: BLE001 - a failed run is reported, then exit 1
            failed = f"{type(error).__name__}: {error}"
            print(f"sweep-reproduce: a run failed: {failed}", file=sys.stderr)
        runs_file.write_text(json.dumps(runs, indent=1, sort_keys=True))
    if failed:
        return 1

    report = _judge(chosen, presets, datasets, reused, runs, figures, args, argv, started)
    runs_file.write_text(json.dumps(runs, indent=1, sort_keys=True))
    _write(report, args)
    for paper in report.papers:
        print(f"{paper.paper.key}: {len(paper.claims)} claims: {paper.count_text()}; "
              f"{paper.compute_seconds():.0f} s of compute", file=sys.stderr)
    print(f"sweep-reproduce: report in {args.out / 'report.html'} ({report.wall_seconds:.0f} s)",
          file=sys.stderr)
    return 1 if any(r.verdict == "error" for p in report.papers for r in p.claims) else 0


def _judge(chosen, presets, datasets, reused, runs, figures: Path, args, argv, started):
    from sweep.analysis.figures import write_figures
    from sweep.reproduce.claims import evaluate
    from sweep.reproduce.report import ClaimResult, PaperResult, PresetRun, Report

    results = []
    for paper in chosen:
        preset_runs = []
        for name in paper.presets:
            run = runs.setdefault(name, {"compute_seconds": 0.0, "figures": None})
            drawn = [figures / f for f in run["figures"] or ()]
            if name not in reused or run["figures"] is None or not all(f.exists() for f in drawn):
                drawn = write_figures(datasets[name], name, figures, suffixes=(".png",))
                run["figures"] = [f.name for f in drawn]
            preset_runs.append(PresetRun(name, presets[name], float(run["compute_seconds"]), drawn,
                                         name in reused))
        claims = [ClaimResult.of(claim, lambda c: evaluate(c, datasets), args.quick)
                  for claim in paper.claims]
        results.append(PaperResult(paper, preset_runs, claims))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    machine = f"{platform.node() or 'this machine'}, {os.cpu_count()} CPUs, load average {load} at the end"
    wall, memory, command = (time.perf_counter() - started, _memory_text(),
                             shlex.join(["sweep-reproduce", *argv]))
    if len(reused) == sum(len(p.presets) for p in chosen) and RUN_KEY in runs:
        saved = runs[RUN_KEY]  # every Dataset came from that run: say what it cost, not this one
        wall, memory, command = saved["wall_seconds"], saved["memory"], saved["command"]
        regenerated = time.perf_counter() - started
        memory += (f" (the run that computed the Datasets; this report was regenerated from them "
                   f"in {regenerated:.0f} s)")
    return Report(results, args.quick, wall, memory, command, machine)


def _write(report, args) -> None:
    from sweep.reproduce.report import report_html, report_markdown, write_csv, write_pages

    write_csv(report, args.out / "claims.csv")
    (args.out / "report.md").write_text(report_markdown(report, args.out))
    (args.out / "report.html").write_text(report_html(report))
    if args.pages:
        write_pages(report, args.pages)


if __name__ == "__main__":
    raise SystemExit(main())
