"""``benchmarks/slack_counts.py``: the slack kernel's work counted as plain Python, on a hand-worked
schedule and on the start of the KTH trace, with the compiled kernel's start times."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from sweep.families.rigid._jobs import prepare

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "slack_counts.py"


@pytest.fixture(scope="module")
def slack_counts() -> Iterator[ModuleType]:
    """The benchmark script as a module (``benchmarks/`` is no package)."""
    spec = importlib.util.spec_from_file_location("slack_counts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def _part(jobs, priority=None):
    submit, procs, req = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    return {"submit": submit, "run": req, "requested": req, "procs": procs.astype(np.int64),
            "priority": np.zeros(len(jobs)) if priority is None else np.asarray(priority, dtype=float)}


# test_slack.py's schedule: P = 2, SF = 1, AWT = 6 s, AST; jobs (submit, procs, requested = run).
#   J0 (0, 2, 10), J1 (1, 1, 10): inserted into an empty queue (J0 starts at once), placed
#       directly: J0 at 0, J1 at 10. Candidate slots where they fit: J0 {0}, J1 {10} (not 1).
#   J2 (2, 2, 3): slots {2, 10, 20}, conservative's slot 20. 2: no fit. 10: fits, evaluated (J1
#       compressed to 13: one step), price 20.5 < 36: won, before conservative's slot. 20: fits,
#       price 36 above the best with J1 before the slot, nobody left to move up: the search ends.
#   J3 (3, 2, 3): slots {3, 10, 13, 23}, conservative's slot 23. 3: no fit. 10: fits, evaluated
#       (J2 compressed to 13, then J1 to 16, beyond its slack 1.5: two steps, infinite price).
#       13: fits, evaluated (J1 to 16: one step, infinite). 23: price 40 = the best, which
#       moves nobody: the search ends. No proof is tried (nobody from the slot on).
# Starts 0, 13, 10, 23 (test_slack.py). Slots reached: 3 + 4, fits 2 + 3.
JOBS = [(0, 2, 10), (1, 1, 10), (2, 2, 3), (3, 2, 3)]


def test_counts_of_a_hand_worked_schedule(slack_counts):
    params = {"slack_factor": 1.0, "awt": 6.0}
    counts, (start,) = slack_counts.count_in_python([_part(JOBS)], 2, params)
    assert start.tolist() == [0, 13, 10, 23]
    assert start.tolist() == slack_counts.schedule(_part(JOBS), 2, params).tolist()
    assert (counts.insertions, counts.into_empty_queue, counts.removals) == (4, 2, 0)
    assert (counts.candidate_fits, counts.candidate_fits_empty_queue) == (5, 2)
    assert (counts.slots_reached, counts.fits_reached) == (7, 5)
    assert counts.evaluated == [3, 0, 0]
    assert counts.won == [1, 0, 0]
    assert counts.placed == [1, 3, 0]
    assert counts.steps == 4
    assert (counts.proofs, counts.first_proofs) == (0, 0)


def test_counted_kth_start_matches_the_compiled_kernel(slack_counts, kth):
    """The first 400 KTH jobs, every fifth at UP = PP = 1, DU: the counted run schedules as the
    compiled kernel does, and the counts are consistent."""
    jobs = prepare(kth, processors=128, priority_every=5)
    part = {name: getattr(jobs, name)[:400] for name in ("submit", "run", "requested", "procs", "priority")}
    params = {"heuristic": "du"}
    counts, (start,) = slack_counts.count_in_python([part], 128, params)
    assert np.array_equal(start, slack_counts.schedule(part, 128, params))
    assert counts.insertions == 400
    assert sum(counts.placed) == counts.insertions
    assert counts.fits_reached <= counts.candidate_fits
    assert sum(counts.evaluated) <= counts.fits_reached
    assert all(w <= e for w, e in zip(counts.won, counts.evaluated, strict=True))
    assert counts.placed[0] <= counts.won[0] and counts.proofs > 0 and counts.steps > 0
