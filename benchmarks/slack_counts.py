"""What the slack kernel does on one configuration, counted: the numbers that BENCHMARKS.md and the
slack pass's docstring (:mod:`sweep.families.rigid._slack`) quote.

    python benchmarks/slack_counts.py [--heuristic ast] [--priority-every 0] [--split none]
        [--jobs N]

Defaults: the KTH trace the TF99 presets replay, as one part (``split: none``, the whole
trace, as ``bench_rigid.py slack`` runs it), 128 processors, slack backfilling with the
preset's parameters (``conf/policy/slack.yaml``: SF 3, AWT 2401 s, α = 1, AST), equal
priorities; ``--jobs N`` counts on the first N jobs only.

The counts come from the kernel's own decisions: the kernel runs as plain Python
(``NUMBA_DISABLE_JIT=1``, in a subprocess) with counting wrappers put around functions of
:mod:`~sweep.families.rigid._slack` for that run only; the compiled kernel is not touched.
The start times of the counted run are then compared with the compiled kernel's (exit 1 if
any differs). Counted, per insertion of an arriving job (``_insert``):

- *candidate slots where the new job fits*: the distinct slots of the profile from now on
  (now, the running jobs' requested ends, the waiting jobs' starts and ends) at which it fits
  beside the running jobs and the waiting jobs scheduled before the slot, whether or not the
  search reaches them (counted here, not by the kernel); insertions into an empty queue apart
  (the kernel places those directly);
- *slots reached* by the search and those where the new job fits (``_core.fits_at``);
- *evaluated* slots (``_compress_delayed``: the delayed schedule compressed and priced) before,
  at and after conservative's slot (the new job's earliest fit with nobody moved), and how
  many of each *win*: become the best schedule so far (the kernel's own test, ``price < best``
  or an equal price moving fewer jobs); and where the winning schedule puts the new job;
- *compression steps*: a delayed job taken out, placed at its earliest start, put back (each
  one an ``earliest_fit`` in ``_compress_delayed``); the completions' compression apart;
- *proofs* tried (``_prove_stuck``), the first of an insertion and the retries at later slots.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np

from sweep.families import load_families
from sweep.families.rigid import _core, _slack
from sweep.families.rigid._jobs import prepare
from sweep.workloads.swf import read_swf

KTH = Path(__file__).resolve().parents[1] / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
PLACES = ("before", "at", "after")  # an evaluated slot against conservative's slot


@dataclass
class Counts:
    """What one run of the slack kernel did (module docstring); per place, ``PLACES`` order."""

    insertions: int = 0
    into_empty_queue: int = 0
    removals: int = 0
    candidate_fits: int = 0
    candidate_fits_empty_queue: int = 0
    slots_reached: int = 0
    fits_reached: int = 0
    evaluated: list[int] = field(default_factory=lambda: [0, 0, 0])
    won: list[int] = field(default_factory=lambda: [0, 0, 0])
    placed: list[int] = field(default_factory=lambda: [0, 0, 0])
    removal_evaluated: int = 0
    steps: int = 0
    completion_steps: int = 0
    proofs: int = 0
    first_proofs: int = 0


def _place(ts: float, conservative: float) -> int:
    """The index in ``PLACES`` of slot ``ts`` against conservative's slot."""
    return 0 if ts < conservative else 1 if ts == conservative else 2


def _waiting_profile(t2: np.ndarray, f2: np.ndarray, m0: int, times: np.ndarray, free: np.ndarray,
                     jobs: Iterable[int], te: np.ndarray, req: np.ndarray, procs: np.ndarray) -> int:
    """The running jobs' free profile ``times``/``free`` (length ``m0``) less ``jobs`` where they are
    scheduled, into ``t2``/``f2``; returns its length."""
    t2[:m0], f2[:m0] = times[:m0], free[:m0]
    m = m0
    for i in jobs:
        m = _core.add_interval(t2, f2, m, te[i], te[i] + req[i], -procs[i])
    return m


def conservative_slot(j: int, w: np.ndarray, nw: int, m0: int, times: np.ndarray, free: np.ndarray,
                      te: np.ndarray, req: np.ndarray, procs: np.ndarray) -> float:
    """Job ``j``'s earliest fit beside the running jobs and the waiting jobs ``w[:nw]`` where they
    are: conservative's schedule, the candidate that moves nobody."""
    t2, f2 = np.empty(m0 + 2 * nw), np.empty(m0 + 2 * nw, np.int64)
    m = _waiting_profile(t2, f2, m0, times, free, w[:nw], te, req, procs)
    return _core.earliest_fit(t2, f2, m, procs[j], req[j])


def candidate_fits(j: int, w: np.ndarray, nw: int, m0: int, times: np.ndarray, free: np.ndarray,
                   te: np.ndarray, req: np.ndarray, procs: np.ndarray) -> int:
    """How many distinct candidate slots of inserting ``j`` (the running profile's times, the
    waiting jobs' starts and ends) have room for ``j`` beside the running jobs and the waiting
    jobs scheduled before the slot (:mod:`~sweep.families.rigid._slack`'s docstring)."""
    waiting = sorted(w[:nw], key=lambda i: te[i])
    slots = sorted({*times[:m0], *(te[i] for i in waiting), *(te[i] + req[i] for i in waiting)})
    t2, f2 = np.empty(m0 + 2 * nw), np.empty(m0 + 2 * nw, np.int64)
    m = _waiting_profile(t2, f2, m0, times, free, [], te, req, procs)
    before, count = 0, 0
    for ts in slots:
        while before < nw and te[waiting[before]] < ts:
            i = waiting[before]
            m = _core.add_interval(t2, f2, m, te[i], te[i] + req[i], -procs[i])
            before += 1
        count += _core.fits_at(t2, f2, m, ts, procs[j], req[j])
    return count


class Counter:
    """Counting wrappers of the slack pass's functions (module docstring), installed by
    :meth:`installed` while the kernel runs as plain Python."""

    def __init__(self) -> None:
        self.counts = Counts()
        self.phase = ""  # "delayed" or "completion" inside a compression
        self.conservative = np.nan  # the insertion's conservative slot
        self.best_moved = 0  # jobs moved by the insertion's best schedule so far
        self.winner = np.nan  # the insertion's last winning slot

    def insert(self, real: Callable) -> Callable:
        def insert(j, t, w, nw, m0, times, free, plan, req, procs, *args):
            if j < 0:
                self.counts.removals += 1
                self.conservative = np.nan
                return real(j, t, w, nw, m0, times, free, plan, req, procs, *args)
            self.counts.insertions += 1
            fits = candidate_fits(j, w, nw, m0, times, free, plan.te, req, procs)
            if nw == 0:
                self.counts.into_empty_queue += 1
                self.counts.candidate_fits_empty_queue += fits
            else:
                self.counts.candidate_fits += fits
            self.conservative = conservative_slot(j, w, nw, m0, times, free, plan.te, req, procs)
            self.best_moved, self.winner = 0, np.nan
            real(j, t, w, nw, m0, times, free, plan, req, procs, *args)
            chosen = self.conservative if np.isnan(self.winner) else self.winner
            assert plan.te[j] == chosen, (j, plan.te[j], chosen)  # the wrappers follow the kernel
            self.counts.placed[_place(chosen, self.conservative)] += 1

        return insert

    def compress_delayed(self, real: Callable) -> Callable:
        def compress_delayed(plan, nw, m, ts, d_j, price, rest, best, *args):
            self.phase = "delayed"
            try:
                total, moved = real(plan, nw, m, ts, d_j, price, rest, best, *args)
            finally:
                self.phase = ""
            if np.isnan(self.conservative):
                self.counts.removal_evaluated += 1
                return total, moved
            place = _place(ts, self.conservative)
            self.counts.evaluated[place] += 1
            if total < best or (total == best and moved < self.best_moved):  # as ``_insert`` tests
                self.counts.won[place] += 1
                self.best_moved, self.winner = moved, ts
            return total, moved

        return compress_delayed

    def compress(self, real: Callable) -> Callable:
        def compress(*args):
            self.phase = "completion"
            try:
                return real(*args)
            finally:
                self.phase = ""

        return compress

    def prove_stuck(self, real: Callable) -> Callable:
        def prove_stuck(plan, nw, mb, mc, *args):
            self.counts.proofs += 1
            self.counts.first_proofs += mc == 0
            return real(plan, nw, mb, mc, *args)

        return prove_stuck

    def fits_at(self, real: Callable) -> Callable:
        def fits_at(*args):
            fits = real(*args)
            self.counts.slots_reached += 1
            self.counts.fits_reached += fits
            return fits

        return fits_at

    def earliest_fit(self, real: Callable) -> Callable:
        def earliest_fit(*args):
            if self.phase == "delayed":
                self.counts.steps += 1
            elif self.phase == "completion":
                self.counts.completion_steps += 1
            return real(*args)

        return earliest_fit

    @contextmanager
    def installed(self) -> Iterator[Counter]:
        """The wrappers in :mod:`~sweep.families.rigid._slack` (its ``_core`` seen through a copy
        whose ``fits_at`` and ``earliest_fit*`` count), the originals back on exit."""
        if not numba.config.DISABLE_JIT:
            raise RuntimeError("counting runs the kernel as Python: set NUMBA_DISABLE_JIT=1")
        core = types.SimpleNamespace(**vars(_core))
        core.fits_at = self.fits_at(_core.fits_at)
        core.earliest_fit = self.earliest_fit(_core.earliest_fit)
        core.earliest_fit_from = self.earliest_fit(_core.earliest_fit_from)
        wrapped = {"_core": core, "_insert": self.insert(_slack._insert),
                   "_compress_delayed": self.compress_delayed(_slack._compress_delayed),
                   "_compress": self.compress(_slack._compress),
                   "_prove_stuck": self.prove_stuck(_slack._prove_stuck)}
        saved = {name: getattr(_slack, name) for name in wrapped}
        vars(_slack).update(wrapped)
        try:
            yield self
        finally:
            vars(_slack).update(saved)


def schedule(columns: dict[str, np.ndarray], processors: int, params: dict) -> np.ndarray:
    """Start times of one part (``columns``: submit, run, requested, procs, priority) under slack
    backfilling with ``params`` (compiled or not, as this process runs numba)."""
    policy = load_families()["rigid"].policies["slack"]
    return policy.hooks.schedule(columns["submit"], columns["run"], columns["requested"],
                                 columns["procs"], columns["priority"], processors,
                                 policy.make_params(params))


def count(parts: list[dict[str, np.ndarray]], processors: int,
          params: dict) -> tuple[Counts, list[np.ndarray]]:
    """The counts over ``parts`` (each simulated from an empty machine) and each part's start
    times; in a process whose numba JIT is disabled."""
    counter = Counter()
    with counter.installed():
        starts = [schedule(part, processors, params) for part in parts]
    return counter.counts, starts


def count_in_python(parts: list[dict[str, np.ndarray]], processors: int,
                    params: dict) -> tuple[Counts, list[np.ndarray]]:
    """:func:`count` in a subprocess with ``NUMBA_DISABLE_JIT=1``: the counts and start times."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in.npz"), os.path.join(folder, "out.npz")
        np.savez(source, **{f"{k}:{name}": v for k, part in enumerate(parts) for name, v in part.items()})
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        subprocess.run([sys.executable, __file__, "--child", source, target, "--processors",
                        str(processors), "--params", json.dumps(params)], env=env, check=True)
        with np.load(target) as data:
            counts = Counts(**json.loads(str(data["counts"])))
            return counts, [data[f"start:{k}"] for k in range(len(parts))]


def _child(source: str, target: str, processors: int, params: dict) -> None:
    """The subprocess of :func:`count_in_python`."""
    with np.load(source) as data:
        parts: dict[int, dict[str, np.ndarray]] = {}
        for key in data.files:
            k, name = key.split(":")
            parts.setdefault(int(k), {})[name] = data[key]
    counts, starts = count([parts[k] for k in sorted(parts)], processors, params)
    np.savez(target, counts=json.dumps(asdict(counts)), **{f"start:{k}": s for k, s in enumerate(starts)})


def kth_parts(priority_every: int, split: str, jobs: int | None) -> list[dict[str, np.ndarray]]:
    """The KTH trace's parts as job columns, 128 processors; only the first ``jobs`` jobs if given."""
    trace = prepare(read_swf(KTH), processors=128, priority_every=priority_every, split=split)
    stop = len(trace) if jobs is None else min(jobs, len(trace))
    parts = []
    for k in range(len(trace.labels)):
        s = trace.part(k)
        s = slice(s.start, min(s.stop, stop))
        if s.start < s.stop:
            parts.append({name: getattr(trace, name)[s]
                          for name in ("submit", "run", "requested", "procs", "priority")})
    return parts


def report(counts: Counts) -> list[str]:
    """The counts as lines of text."""
    c = counts
    lines = [f"insertions: {c.insertions:,} ({c.into_empty_queue:,} into an empty queue, placed directly)",
             f"candidate slots where the new job fits: {c.candidate_fits + c.candidate_fits_empty_queue:,} "
             f"({c.candidate_fits:,} in insertions into a queue, {c.candidate_fits_empty_queue:,} into "
             "an empty one)",
             f"slots the search reached: {c.slots_reached:,}, the new job fits at {c.fits_reached:,}",
             f"slots evaluated: {sum(c.evaluated):,}, {sum(c.won):,} won"]
    for place, evaluated, won, placed in zip(PLACES, c.evaluated, c.won, c.placed, strict=True):
        lines.append(f"  {place:>6} conservative's slot: {evaluated:,} evaluated, {won:,} won; "
                     f"{placed:,} insertions placed the new job there")
    lines += [f"  from conservative's slot on: {sum(c.evaluated[1:]):,} evaluated, {sum(c.won[1:]):,} won",
              f"compression steps in evaluated slots: {c.steps:,}; in the completions' compression: "
              f"{c.completion_steps:,}",
              f"proofs tried: {c.proofs:,} ({c.first_proofs:,} first of their insertion)"]
    if c.removals:
        lines.append(f"removals (dummy insertions): {c.removals:,}, {c.removal_evaluated:,} slots evaluated")
    return lines


def _title(args: argparse.Namespace, n: int) -> str:
    """The configuration counted, in words."""
    first = "" if args.jobs is None else " (the first)"
    every = args.priority_every
    priorities = "equal priorities" if not every else f"every {every}th job at UP = PP = 1"
    return (f"slack (conf/policy/slack.yaml: SF 3, AWT 2401 s, α = 1, {args.heuristic.upper()}), KTH, "
            f"{n:,} jobs{first}, split {args.split}, 128 processors, {priorities}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heuristic", default="ast", choices=_slack.HEURISTICS)
    parser.add_argument("--priority-every", type=int, default=0,
                        help="every k-th job at UP = PP = 1 (0: equal priorities)")
    parser.add_argument("--split", default="none", choices=("none", "month"))
    parser.add_argument("--jobs", type=int, default=None, help="count on the first N jobs only")
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--processors", type=int, default=128, help=argparse.SUPPRESS)
    parser.add_argument("--params", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child, args.processors, json.loads(args.params))
        return
    params = {"heuristic": args.heuristic}
    parts = kth_parts(args.priority_every, args.split, args.jobs)
    n = sum(len(part["submit"]) for part in parts)
    print(_title(args, n))
    t0 = time.perf_counter()
    counts, counted = count_in_python(parts, 128, params)
    seconds = time.perf_counter() - t0
    print("\n".join(report(counts)))
    compiled = [schedule(part, 128, params) for part in parts]
    same = all(np.array_equal(a, b) for a, b in zip(counted, compiled, strict=True))
    print(f"counted as Python in {seconds:.1f} s; start times {'identical to' if same else 'DIFFER from'} "
          f"the compiled kernel's ({n:,} jobs)")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
