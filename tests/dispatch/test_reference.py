"""Every policy against the event-driven references of ``sweep/testing/naive/dispatch.py`` (STYLE 7).

Job by job (host, start, end) and in the summary statistics, on small random
workloads: continuous ones, and integer ones full of simultaneous arrivals,
departures and equal backlogs, where the tie rules decide
(:func:`sweep.testing.dispatch.compare_on_random_jobs`, which ``pytest --pyargs
sweep.testing`` runs on a plugin's policies too).
"""

from __future__ import annotations

import pytest

from sweep.testing.dispatch import compare_on_random_jobs

from ._util import CASES

pytestmark = pytest.mark.kernel  # rerun without the JIT (tests/test_without_jit.py)


@pytest.mark.parametrize("integer", [False, True], ids=["continuous", "integer"])
@pytest.mark.parametrize(("policy", "params"), CASES)
def test_kernel_matches_reference(policy, params, integer):
    compare_on_random_jobs(policy, params, integer)
