"""A gang policy with parameters of new names, defined here: no edit of the family (issue 28).

The family puts every field of a policy's own parameter dataclass into the
kernel's record ``par`` by its name (a choice as its index in its choices),
so this module's policy, *late lending*, reads ``par.lend_from`` (an integer)
and ``par.scan`` (a choice) though the family names neither. Late lending is
Gang whose PE, when its slot's task cannot run, lends the slot to another
ready task of its column, but only from tick ``lend_from`` of the slice on
(``scan``: the lowest or the highest row first). It is a test policy, in no
paper: ``lend_from = 0`` is gang scheduling with alternates (Ousterhout
1982), ``lend_from >= K`` is Gang (CSSE00 §1.3) tick for tick.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import Policy, param
from sweep.families.gang import PACKINGS, READY, GangHooks, no_priority, simulate_core, task_status
from tests.gang.conftest import run

SCANS = ("lowest_row", "highest_row")
HIGHEST = SCANS.index("highest_row")


@dataclass(frozen=True)
class LendParams:
    """The packing of Gang, and two parameters the family has never heard of."""

    packing: str = param("first_fit", choices=PACKINGS, doc="as Gang")
    lend_from: int = param(0, ge=0, doc="the first tick of a slice at which an idle slot is lent")
    scan: str = param("lowest_row", choices=SCANS, doc="which rows of the column are tried first")


@jit(**NO_REFCOUNT)
def _lend_late(p, t, row, rows, mat, tasks, jobs, mach, pool, par):
    """From tick ``par.lend_from`` of the slice on, a ready task of another row of PE ``p``'s column."""
    start = t - t % par.ticks
    if t - start < par.lend_from:
        mach.skip[p] = start + par.lend_from  # idle until then (past the slice: the rest of it)
        return -1
    det = par.deterministic != 0
    for k in range(rows):
        r = rows - 1 - k if par.scan == HIGHEST else k
        x = mat[r, p]
        if r != row and x >= 0 and task_status(x, t, tasks, jobs, pool, par, det) == READY:
            return x
    return -1


@jit(**NO_REFCOUNT)
def _run(jobs, tasks, mach, pool, settings, report, out, rec, owner, active):
    return simulate_core(jobs, tasks, mach, pool, settings, report, out, rec, owner, active,
                         _lend_late, no_priority, False)


LEND = Policy("lend_late", "gang", GangHooks(kernel=_run, local_scheduling=True), LendParams)

#: A (width 1) in row 0 on PE 0, B (width 2) in row 1: PE 1's slot of row 0 is empty.
TWO = {"arrival": [0, 0], "width": [1, 2], "work": [8, 8]}


def test_the_new_parameters_reach_the_kernel_by_their_names():
    _, settings = run(LEND, TWO, 2, 4, 4, example={"lend_from": 2, "scan": "highest_row"})
    assert settings["lend_from"][0] == 2 and settings["scan"][0] == HIGHEST
    assert "alpha" not in settings.dtype.names  # only the policy's own parameters


@pytest.mark.parametrize(("lend_from", "pe1", "ends"), [
    # PE 1 lends row 0's empty slot to B's task 2 for the whole slice, so task 2 is done by tick 8
    (0, [2, 2, 2, 2, 2, 2, 2, 2, -1, -1, -1, -1, -1, -1, -1, -1], [12, 16]),
    # from tick 2 of each slice only: 2 ticks in slice 0, 4 in slice 1, 2 in slice 2
    (2, [-1, -1, 2, 2, 2, 2, 2, 2, -1, -1, 2, 2, -1, -1, -1, -1], [12, 16]),
    # never within a slice of 4 ticks: Gang's schedule
    (4, [-1, -1, -1, -1, 2, 2, 2, 2, -1, -1, -1, -1, 2, 2, 2, 2], [12, 16]),
])
def test_a_hand_worked_schedule_follows_lend_from(lend_from, pe1, ends):
    """P = 2, K = 4: A's task 0 runs on PE 0 in row 0's slices (ticks 0-3, 8-11), B's tasks 1
    and 2 in row 1's (4-7, 12-15); PE 1's slot of row 0 is empty."""
    got, _ = run(LEND, TWO, 2, 4, 4, example={"lend_from": lend_from})
    np.testing.assert_array_equal(got.rec[:, 0], [0, 0, 0, 0, 1, 1, 1, 1] * 2)
    np.testing.assert_array_equal(got.rec[:, 1], pe1)
    np.testing.assert_array_equal(got.jobs.end, ends)


def test_the_choice_parameter_arrives_as_its_index():
    """A in row 0, B and C (width 2) in rows 1 and 2: row 0's empty slot on PE 1 goes to B's task
    (row 1) scanning from the lowest row, to C's (row 2) from the highest."""
    jobs = {"arrival": [0, 0, 0], "width": [1, 2, 2], "work": [6, 6, 6]}
    low, _ = run(LEND, jobs, 2, 2, 1, example={"scan": "lowest_row"})
    high, _ = run(LEND, jobs, 2, 2, 1, example={"scan": "highest_row"})
    np.testing.assert_array_equal(low.rec[:, 1], [2, 2])
    np.testing.assert_array_equal(high.rec[:, 1], [4, 4])


def test_lending_never_within_the_slice_is_gang_on_random_workloads():
    rng = np.random.default_rng(5)
    for _ in range(20):
        P, K, n = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 8))
        jobs = {"arrival": np.sort(rng.integers(0, 10 * K, n)), "width": rng.integers(1, P + 1, n),
                "work": rng.integers(1, 12 * K, n), "cls": rng.integers(0, 3, n)}
        workload = {"io_burst": 0.5, "io_wait": 1.0, "sync_phase": 1.5, "sync_imbalance": 0.5}
        lend, _ = run(LEND, jobs, P, K, 40, example={"lend_from": K}, workload=workload,
                      deterministic=False)
        gang, _ = run("gang", jobs, P, K, 40, workload=workload, deterministic=False)
        np.testing.assert_array_equal(lend.rec, gang.rec)
        np.testing.assert_array_equal(lend.jobs.end, gang.jobs.end)


def test_a_bad_value_of_the_new_parameter_is_one_line():
    with pytest.raises(ValueError, match=r"^policy.lend_from must be an integer >= 0, got -1$"):
        LEND.make_params({"lend_from": -1})


def test_a_packing_rule_the_loop_does_not_have_is_one_line():
    """A policy may declare its own ``packing`` choices, but the loop packs only by :data:`PACKINGS`:
    another rule is refused naming them, not a ``tuple.index`` error from deep in the family."""
    from sweep.families.gang._simulate import policy_values

    @dataclass(frozen=True)
    class WorstFit:
        packing: str = param("worst_fit", choices=("worst_fit",), doc="not a rule of the loop")

    said = (r"^policy.packing must be one of first_fit, best_fit \(the packing rules of the gang "
            r"family's loop, CSSE00 §3.3.3\), got 'worst_fit'$")
    with pytest.raises(ValueError, match=said):
        policy_values(WorstFit())
