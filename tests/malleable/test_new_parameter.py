"""A malleable policy with a parameter of a new name, defined here: no edit of the family (issue 28).

The family puts every field of a policy's own parameter dataclass into the
hooks' ``options`` record by its name, so this module's policy reads
``options.configured`` though the family names no such option. The policy, *fixed-size
FB*, is FB-PWS (CV96 §2.1) with every arriving job configured for
``min(N_j, configured)`` processors instead of from its pws: a test policy, in no
paper, on the family's FB time slices (``time_slice``, which reads the
``Quantum`` fields the dataclass inherits).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import param
from sweep.families.malleable import Quantum, malleable_policy, run_events, time_slice, time_slice_workspace
from sweep.families.malleable._core import Stop, make_options


@dataclass(frozen=True)
class FixedSize(Quantum):
    """FB's options, and the size every job is configured for (a name the family has never heard of)."""

    configured: int = param(4, ge=1, doc="processors each arriving job is configured for, at most N_j")


@jit(inline="always")
def _configure(j, options, columns, state, sc, work):
    work.sizes[j] = min(columns.cap[j], float(options.configured))


@jit(**NO_REFCOUNT)
def _kernel(arrivals, columns, options, state, batches, log, scalars, work):
    run_events(arrivals, columns, options, state, batches, log, scalars, work, _configure, time_slice)


FIXED = malleable_policy("fb_fixed", params=FixedSize, kernel=_kernel, workspace=time_slice_workspace)


def _departures(jobs, processors: int, **options) -> np.ndarray:
    stop = Stop(warmup=0, target=len(jobs), cap=len(jobs) + 1, blen=len(jobs))
    return FIXED.hooks.run(jobs, processors, FIXED.make_params(options), stop).state.depart


def test_the_new_parameter_is_a_field_of_the_options_record():
    options = make_options(FIXED.make_params({"configured": 3, "reschedule": "every_event"}), 8, False)
    assert options["configured"][0] == 3 and options["processors"][0] == 8.0
    assert options["reschedule"][0] == 1  # a choice: its index in ("slice_boundary", "every_event")


@pytest.mark.kernel
@pytest.mark.parametrize(("size", "departs"), [
    # A (W 16) on 4 from 0, 4 idle; B (W 4) at 1 on 4 (least acquired first), A keeps 4: B ends at 2,
    # A has 16 - 4 - 4 = 8 left on 4: ends at 4
    (4, [4.0, 2.0]),
    # A on 8 from 0; B at 1 takes all 8 (A, 8 acquired, does not fit the 0 left): B ends at 1.5,
    # A has 8 left on 8: ends at 2.5 (FB-PWS's schedule of these jobs, whose pws is 8)
    (8, [2.5, 1.5]),
])
def test_a_hand_worked_schedule_follows_the_new_parameter(stream, size, departs):
    """P = 8, linear speedup, N_j = 8, rescheduled at every event with a 10 s quantum."""
    jobs = stream([0.0, 1.0], [16.0, 4.0], n=[8, 8])
    np.testing.assert_allclose(_departures(jobs, 8, configured=size, quantum=10.0, reschedule="every_event"),
                               departs)


def test_a_bad_value_of_the_new_parameter_is_one_line():
    with pytest.raises(ValueError, match=r"^policy.configured must be an integer >= 1, got 0$"):
        FIXED.make_params({"configured": 0})
