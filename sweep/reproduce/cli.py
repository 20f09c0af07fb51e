"""``sweep-reproduce``: run every preset of the papers' claims files, judge every claim, write the report.

::

    sweep-reproduce --out DIR [--paper sh00|cv96|tf99|ipg00|all] [--quick] [--workers N]
                    [--address A] [--pages ROOT] [--seed S] [--check]

All presets of the chosen papers run as one :func:`sweep.engine.runner.run_many`
call: one backend (Ray pool, or this process with ``--workers 1``), one progress
display, each Dataset written to ``DIR/data/<preset>.nc`` as soon as its last task
is in. A rerun with the same ``--out`` reuses every Dataset whose stored config is
the one it would compute, and resumes the others from their checkpoints. Then
every claim is judged (:func:`sweep.reproduce.claims.evaluate`); the points that
undecided claims read get more replications, in rounds on the pool, up to each
preset's budget (:mod:`sweep.reproduce.rounds`); then the report is
written (:mod:`sweep.reproduce.report`): ``DIR/claims.csv``, ``DIR/report.md``,
``DIR/report.html``, the figures in ``DIR/figures/``. ``--pages ROOT`` also writes
``ROOT/REPRODUCTION.md`` and ``ROOT/reproduction/<paper>.md``.

``--seed S`` runs every preset under the root seed ``S`` (a decided verdict is the
same under another seed); ``--check`` fails when a verdict differs from the one its
record expects (``verdict``, or ``quick_verdict`` with ``--quick``), which is what
the committed pages show, except for claims on wall-clock measurements (variables
ending in ``_seconds``, not reproducible by design), whose verdicts it only reports.

Exit status: 0 when every preset ran and every claim has a verdict (deviating and
contradicted claims are results, not failures) and, with ``--check``, each is the
expected one; 1 when a run or a claim's computation failed, or a checked verdict
differs; 2 on bad input (one line on stderr, nothing run).
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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xarray as xr

    from sweep.reproduce.rounds import Part

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
    p.add_argument("--seed", type=int, default=None,
                   help="the root seed of every preset (default: each preset's)")
    p.add_argument("--claim", action="append", default=None, metavar="PAPER:ID",
                   help="judge only this claim (repeatable), running only the presets it reads")
    p.add_argument("--check", action="store_true",
                   help="exit 1 when a verdict differs from the one its record expects (as the pages show)")
    p.add_argument("--no-figures", dest="figures", action="store_false",
                   help="judge and report without drawing the figures (a later run without this flag "
                        "draws them from the same Datasets)")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress display")
    return p


def _overrides(name: str, quick: Sequence[str], data: Path, args: argparse.Namespace) -> list[str]:
    """The overrides of a preset's first part (its own replications)."""
    engine = [] if args.seed is None else [f"seed={args.seed}"]
    if args.workers is not None:
        engine.append(f"engine.workers={args.workers}")
        if args.workers == 1 and not args.address:
            engine.append("engine.backend=serial")
    if args.address:
        engine.append(f"engine.address={args.address}")
    return [f"experiment={name}", *quick, *engine, f"progress={str(args.progress).lower()}", "plots=false",
            "overwrite=true", f"output={data / f'{name}.nc'}"]


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
#: How many of the run's longest tasks it prints and keeps in ``runs.json``, with preset and point.
LONGEST_SHOWN = 5


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
    from sweep.config.compose import ConfigError
    from sweep.reproduce.claims import load_paper, papers
    from sweep.reproduce.report import NOT_VERDICTS
    from sweep.reproduce.rounds import Part

    if args.paper != ALL and args.paper not in papers():
        print(f"sweep-reproduce: --paper {args.paper!r} is not a paper; choose one of "
              f"{', '.join([*papers(), ALL])}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print(f"sweep-reproduce: --workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    if args.seed is not None and args.seed < 0:
        print(f"sweep-reproduce: --seed must be at least 0, got {args.seed}", file=sys.stderr)
        return 2
    if args.pages is not None and not args.figures:
        print("sweep-reproduce: --pages needs the figures the pages show; leave out --no-figures",
              file=sys.stderr)
        return 2
    keys = papers() if args.paper == ALL else [args.paper]
    chosen = [load_paper(key) for key in keys]
    if args.claim:
        try:
            chosen = _only(chosen, args.claim)
        except ValueError as error:
            print(f"sweep-reproduce: {error}", file=sys.stderr)
            return 2
    data, figures = args.out / "data", args.out / "figures"
    presets: dict[str, list[str]] = {}
    first_parts = []
    for paper in chosen:
        for name, quick in paper.presets.items():
            presets[name] = list(quick) if args.quick else []
            first_parts.append(Part(name, 0, 0))
    runner = _Parts(data, args)
    if args.progress:  # seconds before the pool starts: say what happens (issue 29)
        print(f"sweep-reproduce: composing {len(first_parts)} presets of {len(chosen)} "
              f"paper{'s' if len(chosen) > 1 else ''}...", file=sys.stderr, flush=True)
    try:
        runner.compose(first_parts, presets)
    except ConfigError as error:
        print(f"sweep-reproduce: {error}", file=sys.stderr)
        return 2
    data.mkdir(parents=True, exist_ok=True)
    figures.mkdir(parents=True, exist_ok=True)
    def rounds() -> None:
        from sweep.engine.backends import one_local_ray

        with one_local_ray():  # the rounds share one local Ray and its warm actors
            runner.run()
            while extra := _next_round(chosen, runner, args.quick):
                runner.compose(extra, presets)
                runner.run()

    failed = guarded("sweep-reproduce", rounds, on_failure=runner.save)
    if failed is not None:
        runner.drawings.close()
        return failed
    if runner.computed:
        longest = sorted(runner.longest, reverse=True)[:LONGEST_SHOWN]
        runner.runs[RUN_KEY] = [*_invocations(runner.runs),
                                {"wall_seconds": time.perf_counter() - started, "memory": _memory_text(),
                                 "command": shlex.join(["sweep-reproduce", *argv]),
                                 "longest_tasks": [[round(seconds, 2), task] for seconds, task in longest]}]
        print("sweep-reproduce: longest tasks: " + "; ".join(f"{seconds:.1f} s {task}" for seconds, task
                                                              in longest), file=sys.stderr)
    try:
        report = _judge(chosen, presets, runner, figures, args, argv, started)
    finally:
        runner.drawings.close()
    runner.save()
    _write(report, args)
    for paper in report.papers:
        print(f"{paper.paper.key}: {len(paper.claims)} claims: {paper.count_text()}; "
              f"{paper.compute_seconds():.0f} s of compute", file=sys.stderr)
    print(f"sweep-reproduce: report in {args.out / 'report.html'} ({report.wall_seconds:.0f} s)",
          file=sys.stderr)
    if runner.simulations_ended is not None:
        print(f"sweep-reproduce: {time.perf_counter() - runner.simulations_ended:.0f} s in this process "
              "after the last simulation (claims, figures, report)", file=sys.stderr)
    failed = any(r.verdict == "error" for p in report.papers for r in p.claims)
    if args.check:
        differing = [f"{r.claim.paper}:{r.claim.id} is {r.verdict}, its record expects "
                     f"{r.claim.expected(args.quick)} ({r.measured})"
                     for p in report.papers for r in p.claims
                     if r.verdict not in NOT_VERDICTS[:2] and r.verdict != r.claim.expected(args.quick)
                     and not r.claim.reads_wall_clock]
        for line in differing:
            print(f"sweep-reproduce: --check: {line}", file=sys.stderr)
        failed = failed or bool(differing)
    return 1 if failed else 0


def guarded(prog: str, work: Callable[[], None], on_failure: Callable[[], None] = lambda: None) -> int | None:
    """Run ``work`` (the runs of a command); None when it completed, else the exit status after one
    line on stderr: 2 for bad input found while composing (``ConfigError``), 130 when interrupted
    (a rerun resumes), 1 when a run failed (after ``on_failure``, e.g. saving what finished)."""
    from sweep.config.compose import ConfigError

    try:
        work()
    except ConfigError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - a failed run is reported, then exit 1
        print(f"{prog}: a run failed: {type(error).__name__}: {error}", file=sys.stderr)
        on_failure()
        return 1
    return None


def _only(chosen, wanted: Sequence[str]):
    """The papers with only the claims named ``paper:id`` and the presets those read."""
    import dataclasses

    known = {f"{paper.key}:{claim.id}" for paper in chosen for claim in paper.claims}
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise ValueError(f"--claim {unknown[0]!r} is not a claim of {', '.join(p.key for p in chosen)} "
                         "(PAPER:ID, as in claims.csv)")
    out = []
    for paper in chosen:
        claims = tuple(c for c in paper.claims if f"{paper.key}:{c.id}" in wanted)
        if claims:
            read = {p for c in claims for p in c.presets}
            out.append(dataclasses.replace(paper, claims=claims,
                                           presets={k: v for k, v in paper.presets.items() if k in read}))
    return out


class _Parts:
    """The parts of every preset (:class:`sweep.reproduce.rounds.Part`): composed, reused where their
    Dataset on disk was computed from the same config, else run together on one pool."""

    def __init__(self, data: Path, args: argparse.Namespace) -> None:
        self.data, self.args = data, args
        self.parts: dict[str, list[Part]] = {}  # preset -> its parts, first first
        self.datasets: dict[str, xr.Dataset] = {}  # part name -> Dataset
        self.axes: dict[str, dict[str, str]] = {}  # preset -> dimension -> grid key
        self.reused: set[str] = set()
        self.pending: list = []
        self.computed = False
        self.longest: list[tuple[float, str]] = []  # this invocation's longest tasks: seconds, where
        self.longest_by_part: list[tuple[float, str]] = []  # the same: seconds, the part's name
        self.simulations_ended: float | None = None  # perf_counter when the last pool run returned
        self._judged: dict = {}  # (paper, claim, parts read) -> (judgement, error): runner.judgement
        from sweep.reproduce.drawing import Drawings

        self.drawings = Drawings(args.out / "figures", args.workers or os.cpu_count() or 1)
        runs_file = data / "runs.json"  # per part: its compute seconds; per preset: its figure files
        self.runs = json.loads(runs_file.read_text()) if runs_file.exists() else {}

    def compose(self, parts: Sequence[Part], quick: Mapping[str, Sequence[str]]) -> None:
        """Compose each part's config (in a pool of processes); keep the Datasets already on disk,
        queue the rest."""
        from sweep.config.compose import ConfigError
        from sweep.config.grid import axes_of
        from sweep.engine.runner import composed, prepare, resolved_yaml
        from sweep.reproduce.rounds import Part

        overrides_lists = [self._part_overrides(part, quick) for part in parts]
        configs = composed(overrides_lists)
        for part, overrides in zip(parts, overrides_lists, strict=True):
            try:
                cfg, grid = next(configs)
            except ConfigError as error:
                raise ConfigError(f"preset {part.preset}: {error}") from error
            if not part.first:
                part = Part(part.preset, 0, int(cfg.replications))
            self.parts.setdefault(part.preset, []).append(part)
            dataset = _reusable(self.data / f"{part.name}.nc", resolved_yaml(cfg))
            if dataset is not None:
                self.datasets[part.name] = dataset
                self.reused.add(part.name)
            else:
                self.pending.append(prepare(cfg, overrides, label=part.name, grid=grid))
            if not part.first:
                self.axes[part.preset] = {axis.dim: axis.key for axis in axes_of(cfg)}

    def _part_overrides(self, part: Part, quick: Mapping[str, Sequence[str]]) -> list[str]:
        """A part's overrides: its preset's, then (a later round) its replications, the points it
        restricts the grid to, and batches of one task (a later round's tasks are few and long,
        replications near saturation that run to their interval: batches of several put a point's
        consecutive replications on one worker in a row; on 16 workers the second round ended 113 s in
        on a part whose longest task took 32 s). The batch size changes no record."""
        overrides = _overrides(part.preset, quick[part.preset], self.data.absolute(), self.args)
        overrides[-1] = f"output={self.data.absolute() / f'{part.name}.nc'}"
        one_task = "engine.batch_size=1"
        if part.first:
            overrides += [f"replications={part.count}", f"first_replication={part.first}", one_task,
                          *(f"grid.{self.axes[part.preset][dim]}=[{','.join(map(_label, labels))}]"
                            for dim, labels in part.restrict.items() if dim in self.axes[part.preset])]
        return overrides

    def run(self) -> None:
        """Run the queued parts on one pool (each Dataset written as soon as it is complete)."""
        from sweep.engine.runner import run_many

        pending, self.pending = self.pending, []
        if not pending:
            return
        self.computed = True
        try:
            for finished in run_many(pending, on_finished=self._draw_when_complete):
                self.runs[finished.label] = {"compute_seconds": finished.compute_seconds,
                                             **({"figures": None} if "+r" not in finished.label else {})}
                self.longest += [(seconds, f"{finished.label} ({point})")
                                 for seconds, point in finished.longest_tasks]
                self.longest_by_part += [(seconds, finished.label) for seconds, _ in finished.longest_tasks]
            self.simulations_ended = time.perf_counter()
        finally:
            self.save()

    def _draw_when_complete(self, finished) -> None:
        """A part is written: once every part of its preset is, start drawing the preset's figures
        (:class:`sweep.reproduce.drawing.Drawings`) while the other presets still run."""
        self.datasets[finished.label] = finished.dataset
        preset = next(name for name, parts in self.parts.items()
                      if any(part.name == finished.label for part in parts))
        if self.args.figures and all(part.name in self.datasets for part in self.parts[preset]):
            self.drawings.submit(preset, [self.data / f"{part.name}.nc" for part in self.parts[preset]])

    def save(self) -> None:
        (self.data / "runs.json").write_text(json.dumps(self.runs, indent=1, sort_keys=True))

    def judgement(self, claim, datasets: Mapping[str, xr.Dataset]):
        """``evaluate(claim, datasets)``, once per claim and set of parts it reads: deciding the next
        round and judging after the last read the same Datasets (a tenth of a second a claim)."""
        from sweep.reproduce.claims import evaluate

        key = (claim.paper, claim.id, tuple(part.name for preset in claim.presets
                                            for part in self.parts.get(preset, ())))
        if key not in self._judged:
            try:
                self._judged[key] = (evaluate(claim, datasets), None)
            except Exception as error:  # noqa: BLE001 - kept, to be raised to each caller alike
                self._judged[key] = (None, error)
        judged, error = self._judged[key]
        if error is not None:
            raise error
        return judged

    def dataset(self, preset: str) -> xr.Dataset:
        """The preset's Dataset: its parts joined on ``replication``."""
        from sweep.reproduce.rounds import combine

        return combine([self.datasets[part.name] for part in self.parts[preset]])

    def compute_seconds(self, preset: str) -> float:
        return sum(float(self.runs.get(part.name, {}).get("compute_seconds", 0.0))
                   for part in self.parts[preset])

    def replications(self, preset: str) -> int:
        """Replications run of the preset so far (the next part's first index)."""
        return sum(part.count for part in self.parts[preset])

    def longest_task(self, preset: str) -> float:
        """The longest task of the preset's parts run by this invocation (0 s: none ran here)."""
        names = {part.name for part in self.parts[preset]}
        return max((seconds for seconds, name in self.longest_by_part if name in names), default=0.0)


def _label(value) -> str:
    """A grid label as Hydra's override grammar reads it back."""
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, float) else str(value)


def _next_round(chosen, runner: _Parts, quick: bool) -> list[Part]:
    """For each preset, one part adding replications at the points its claims read: up to the
    preset's ``min_replicate`` for every claim, decided or not (where one run's own interval does
    not cover the spread between runs), and nothing else that round (the claims then read the
    floor's replications before asking for more); for an undecided claim, up to what its quantity says it
    needs (``replications_needed``: a saturation reading on fewer than eight) at once, else
    doubling them within the claim's budget; none when no claim can get more. A claim gets no
    replications that its budget cannot decide (:func:`sweep.reproduce.claims.decidable`: its
    intervals narrowed by the square root of the replications it would gain), unless its quantity
    says it needs more: the budget is for precision, ``replications_needed`` and ``min_replicate``
    are floors a reading is made on at full precision (a ``--quick`` run stays within its budgets:
    such a claim stays undecided there)."""
    from sweep.reproduce.claims import decidable
    from sweep.reproduce.rounds import Part, readings, replications_at, union

    datasets = {preset: runner.dataset(preset) for preset in runner.parts}
    extra = []
    for paper in chosen:
        wanted: dict[str, list[tuple[dict, int]]] = {}
        floors: dict[str, list[tuple[dict, int]]] = {}
        for claim in paper.claims:
            if quick and claim.full_only:
                continue
            try:
                judgement = runner.judgement(claim, datasets)
            except Exception:  # noqa: BLE001, S112 - a claim that cannot be computed gets no rounds
                continue
            decided = judgement.verdict != "undecided"
            needed = int(judgement.measured.attrs.get("replications_needed", 0))
            for preset in claim.presets:
                budget = paper.budget(preset, quick, claim)
                reading = _on_grid(union(readings(claim, preset)), runner.axes[preset])
                if reading is None:
                    continue
                have = max(replications_at(datasets[preset], reading), 1)
                if have < (floor := paper.floor(preset, quick)):
                    floors.setdefault(preset, []).append((reading, floor))
                if decided:
                    continue
                if have < needed and not quick:
                    undecided = _undecided_points(reading, judgement.measured)
                    wanted.setdefault(preset, []).append((undecided, needed))
                elif have < budget and decidable(claim, judgement.measured, (have / budget) ** 0.5):
                    wanted.setdefault(preset, []).append((reading, min(2 * have, budget)))
        wanted.update(floors)  # a preset below its floor goes to it first, elsewhere nothing more
        for preset, wanted_readings in wanted.items():
            reading = union(r for r, _ in wanted_readings)
            have = max(replications_at(datasets[preset], reading), 1)
            target = max(t for _, t in wanted_readings)
            if have < target:
                extra.append(Part(preset, runner.replications(preset), target - have, reading))
    return longest_first(extra, runner.longest_task)


def longest_first(parts: Sequence[Part], longest_task: Callable[[str], float]) -> list[Part]:
    """A round's parts, those of the presets whose tasks ran longest first (``longest_task(preset)``,
    ties in the given order): the round then ends on its short tasks, many workers together (on 16
    workers CV96's tasks of 20-30 s had started last and ended the run)."""
    return sorted(parts, key=lambda part: -longest_task(part.preset))


def _undecided_points(reading, measured):
    """``reading`` narrowed, on each dimension of ``measured``, to the labels where a value is NaN
    (a point the quantity could not read on the replications it has): only those need more."""
    for dim in measured.dims:
        if dim in reading:
            missing = measured.isnull().any([d for d in measured.dims if d != dim])
            labels = [label for label, undecided
                      in zip(measured[dim].values.tolist(), missing.values, strict=True) if undecided]
            reading = {**reading, dim: labels or reading[dim]}
    return reading


def _on_grid(reading, axes: Mapping[str, str]):
    """The reading's labels on the preset's grid axes only (a variable's own dimensions, e.g.
    ``size_class``, are not points to run)."""
    return None if reading is None else {dim: labels for dim, labels in reading.items() if dim in axes}


def _judge(chosen, presets, runner: _Parts, figures: Path, args, argv, started):
    from sweep.reproduce.calibration import dimension, load_records, sensitivity_text
    from sweep.reproduce.report import NOT_VERDICTS, ClaimResult, PaperResult, PresetRun, Report

    datasets = {preset: runner.dataset(preset) for preset in runner.parts}
    names = list(dict.fromkeys(name for paper in chosen for name in paper.presets))
    for name in names:
        runner.runs.setdefault(name, {"compute_seconds": 0.0, "figures": None})
    to_draw = [name for name in names if args.figures and not _figures_kept(name, runner, figures)]
    parts = {name: [runner.data / f"{part.name}.nc" for part in runner.parts[name]] for name in to_draw}
    for name, drawn in runner.drawings.results(parts).items():
        runner.runs[name]["figures"] = drawn
    results = []
    for paper in chosen:
        preset_runs = []
        for name in paper.presets:
            reused = all(part.name in runner.reused for part in runner.parts[name])
            drawn = [figures / f for f in runner.runs[name]["figures"] or []]  # None: not drawn
            preset_runs.append(PresetRun(name, presets[name], runner.compute_seconds(name), drawn, reused,
                                         len(runner.parts[name])))
        records = load_records(paper.key)
        claims = []
        for claim in paper.claims:
            result = ClaimResult.of(claim, lambda c: runner.judgement(c, datasets), args.quick,
                                    _replications_read(claim, runner, datasets),
                                    paper.calibrated_by(claim.id))
            judged = result.verdict not in NOT_VERDICTS  # not "full precision only", not an error
            result.sensitivity = "; ".join(
                sensitivity_text(result.verdict, record["sensitivity"][claim.id],
                                 ", ".join(dimension(k) for k in record["parameters"]))
                for record in records if judged and claim.id in record["sensitivity"])
            claims.append(result)
        results.append(PaperResult(paper, preset_runs, claims, records))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    machine = f"{platform.node() or 'this machine'}, {os.cpu_count()} CPUs, load average {load} at the end"
    wall, memory, command = (time.perf_counter() - started, _memory_text(),
                             shlex.join(["sweep-reproduce", *argv]))
    history = _invocations(runner.runs)
    if not runner.computed and history:  # every Dataset came from earlier runs: say what they cost
        wall, memory, command = history[-1]["wall_seconds"], history[-1]["memory"], history[-1]["command"]
        regenerated = time.perf_counter() - started
        memory += (f" (the run that computed the Datasets; this report was regenerated from them "
                   f"in {regenerated:.0f} s)")
    if len(history) > 1:
        walls = ", ".join(f"{h['wall_seconds']:.0f} s" for h in history)
        wall = sum(h["wall_seconds"] for h in history)
        memory += (f" The Datasets were computed over {len(history)} invocations ({walls}), each reusing "
                   "what the earlier ones had computed; the wall time is their sum.")
    return Report(results, args.quick, wall, memory, command, machine)


def _figures_kept(name: str, runner: _Parts, figures: Path) -> bool:
    """Whether the preset's figures of an earlier run are there for Datasets all reused."""
    run = runner.runs[name]
    reused = all(part.name in runner.reused for part in runner.parts[name])
    return reused and run.get("figures") is not None and all((figures / f).exists() for f in run["figures"])


def _invocations(runs) -> list:
    """The runs that computed some of this folder's Datasets, first first (``runs.json``)."""
    saved = runs.get(RUN_KEY, [])
    return [saved] if isinstance(saved, dict) else list(saved)


def _replications_read(claim, runner: _Parts, datasets) -> str:
    """The fewest replications at the points the claim reads, per preset it reads (``8``, or
    ``sh00_fig7: 1, sh00_fig2: 8`` for several)."""
    from sweep.reproduce.rounds import readings, replications_at, union

    counts = {}
    for preset in claim.presets:
        reading = _on_grid(union(readings(claim, preset)) or {}, runner.axes.get(preset, {}))
        try:
            counts[preset] = replications_at(datasets[preset], reading)
        except (KeyError, ValueError, StopIteration):
            counts[preset] = datasets[preset].sizes.get("replication", 1)
    if len(set(counts.values())) == 1:
        return str(next(iter(counts.values())))
    return ", ".join(f"{preset}: {count}" for preset, count in counts.items())


def _write(report, args) -> None:
    from sweep.reproduce.report import report_html, report_markdown, write_csv, write_pages

    write_csv(report, args.out / "claims.csv")
    (args.out / "report.md").write_text(report_markdown(report, args.out))
    (args.out / "report.html").write_text(report_html(report))
    if args.pages:
        write_pages(report, args.pages)


if __name__ == "__main__":
    raise SystemExit(main())
