"""Trace diagrams worked by hand (CSSE00 §3.3.1, Fig 6), deterministic bursts.

Each row below is one PE, each character one tick (letters: the job run;
``.``: idle), slices of ``K`` ticks separated by spaces.

**1. Empty slots, compute jobs** (P = 4, K = 2). A (3 tasks, 4 ticks of
work), B (2 tasks, 2 ticks), C (1 task, 2 ticks), all at 0. First fit in
arrival order: row 0 = A A A C, row 1 = B B . . (B does not fit beside A).
Slice 0 runs row 0: C ends at 2. Slice 1 runs row 1: B ends at 4; Gang
leaves PEs 2 and 3 idle, Concurrent Gang runs A's task of PE 2 there (its
only other task, λ_COMP = 1 > β): that task finishes at 4. At the period
boundary (tick 4) C and B are gone: row 0 = A A A ., one row. Slice 2: A's
other two tasks end at 6 under both policies; under Concurrent Gang PE 2's
slot task is done and its column holds nothing else: idle. Slice 3: empty
machine. Gang and Concurrent Gang: ends A 6, B 4, C 2; 14 idle PE-ticks and
the same matrix, so 14 PE-ticks of empty slots; under Concurrent Gang PE 2
works in the empty slot of slice 1 and idles in its full slot of slice 2
(its slot task is done). Slices 0–2 are periods (the matrix holds a job):
24 PE-ticks, 6 of them idle under both policies; slice 3 is not. Slots in
which a PE ran nothing at all: 7 under both (Gang: PE 0 and 1 in slice 3,
PE 2 in slices 1 and 3, PE 3 in slices 1–3; Concurrent Gang: PE 2 in slices
2 and 3 instead). Tasks in the matrix: 6 in slices 0 and 1, 3 in slice 2,
none in slice 3: 15 task-slices.

**2. I/O jobs** (P = 2, K = 4; bursts 1 tick, I/O waits 2 ticks). A and B,
2 tasks and 4 ticks of work each, at 0: row 0 = A A, row 1 = B B. A task
that computes in tick t is ready again at t + 3. Gang: each job runs ticks
1 and 4 of its slices (``A..A B..B A..A B..B``): A ends at 12, B at 16.
Concurrent Gang: tick 1 runs B (A is blocked; B's grades λ_COMP = 1, so
Pr = 1 > β = 0.5); B's slot (ticks 4–7) runs B at 4 and 7 and A at 6 (A
became ready at 6, grades λ_IO = 0.25, λ_COMP = 0.75 after slice 0: Pr =
max(0.5, 0.75) = 0.75); A's last tick is 9 (A ends at 10), B's last tick
runs at 10 in A's slot (B ends at 11).

**3. A barrier** (P = 2, K = 2; phases of 2 ticks). A: 2 sync tasks, 6
ticks of work, B: 1 compute task, 2 ticks, at 0: row 0 = A A, row 1 = B .
Slice 0: A's tasks both reach the first barrier at tick 1 (released at 2).
Slice 1: B runs on PE 0 and ends at 4; Gang idles PE 1, Concurrent Gang
runs A's task of PE 1 there: it does its second phase and waits at the
second barrier. Boundary at 4: B is gone, one row. Slice 2: A's task of
PE 0 does its second phase (the barrier opens at 6); A's task of PE 1 waits
at the barrier (Concurrent Gang: idle, no other task). Slice 3: both do the
last phase: A ends at 8 under both policies.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.gang.conftest import job_trace, run

IO, SYNC = 1, 2
# the hash of the random draws wraps around 2**64 on purpose (a warning only without the JIT)
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


def _diagram(result, ticks: int) -> list[str]:
    """One string per PE: a letter per tick (job 0 = A), '.' idle, a space between slices."""
    trace = job_trace(result)
    rows = []
    for p in range(trace.shape[1]):
        chars = ["." if j < 0 else chr(ord("A") + j) for j in trace[:, p]]
        rows.append(" ".join("".join(chars[i:i + ticks]) for i in range(0, len(chars), ticks)))
    return rows


EXAMPLE_1 = {"arrival": [0, 0, 0], "width": [3, 2, 1], "work": [4, 2, 2]}


@pytest.mark.kernel
def test_empty_slots_gang():
    result, _ = run("gang", EXAMPLE_1, 4, 2, 4)
    assert _diagram(result, 2) == ["AA BB AA ..", "AA BB AA ..", "AA .. AA ..", "CC .. .. .."]
    assert list(result.jobs.end) == [6, 4, 2]
    # idle, empty, busy, in periods, idle in them (PE-ticks); idle slots; task-slices
    assert list(result.out[-1].tolist()) == [14, 14, 18, 24, 6, 7, 15]


@pytest.mark.kernel
def test_empty_slots_concurrent_gang():
    result, _ = run("concurrent_gang", EXAMPLE_1, 4, 2, 4)
    assert _diagram(result, 2) == ["AA BB AA ..", "AA BB AA ..", "AA AA .. ..", "CC .. .. .."]
    assert list(result.jobs.end) == [6, 4, 2]
    assert list(result.out[-1].tolist()) == [14, 14, 18, 24, 6, 7, 15]


EXAMPLE_2 = {"arrival": [0, 0], "width": [2, 2], "work": [4, 4], "cls": [IO, IO]}
IO_TIMES = {"io_burst": 0.25, "io_wait": 0.5}  # slices: 1 and 2 ticks of a 4-tick slice


@pytest.mark.kernel
def test_io_jobs_gang():
    result, _ = run("gang", EXAMPLE_2, 2, 4, 4, workload=IO_TIMES)
    assert _diagram(result, 4) == ["A..A B..B A..A B..B"] * 2
    assert list(result.jobs.end) == [12, 16]


@pytest.mark.kernel
def test_io_jobs_concurrent_gang():
    result, _ = run("concurrent_gang", EXAMPLE_2, 2, 4, 4, workload=IO_TIMES)
    assert _diagram(result, 4) == ["AB.A B.AB .AB. ...."] * 2
    assert list(result.jobs.end) == [10, 11]


EXAMPLE_3 = {"arrival": [0, 0], "width": [2, 1], "work": [6, 2], "cls": [SYNC, 0]}


@pytest.mark.kernel
def test_barrier_gang():
    result, _ = run("gang", EXAMPLE_3, 2, 2, 4, workload={"sync_phase": 1.0})
    assert _diagram(result, 2) == ["AA BB AA AA", "AA .. AA AA"]
    assert list(result.jobs.end) == [8, 4]


@pytest.mark.kernel
def test_barrier_concurrent_gang():
    result, _ = run("concurrent_gang", EXAMPLE_3, 2, 2, 4, workload={"sync_phase": 1.0})
    assert _diagram(result, 2) == ["AA BB AA AA", "AA AA .. AA"]
    assert list(result.jobs.end) == [8, 4]
    assert np.all(result.tasks.left == 0)


@pytest.mark.kernel
@pytest.mark.parametrize(("packing", "rows"), [
    ("first_fit", [[0, 0, 2, -1], [1, 1, 1, -1]]),
    ("best_fit", [[0, 0, -1, -1], [1, 1, 1, 2]]),
])
def test_first_and_best_fit(packing, rows):
    """A (2 tasks), B (3), C (1) on 4 PEs: B opens row 1; C goes to row 0 (first row with room)
    under first fit, to row 1 (the least room that fits: 1 PE against 2) under best fit."""
    jobs = {"arrival": [0, 0, 0], "width": [2, 3, 1], "work": [20, 20, 20]}
    for policy in ("gang", "concurrent_gang"):
        result, _ = run(policy, jobs, 4, 1, 2, example={"packing": packing})
        owners = np.repeat(np.arange(3), [2, 3, 1])
        slots = np.where(result.owner >= 0, owners[np.maximum(result.owner, 0)], -1)
        assert slots.tolist() == rows
