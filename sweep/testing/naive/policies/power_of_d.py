"""Power of d choices (Mitzenmacher 2001), as SH00's dispatcher would run it: ``d`` hosts sampled
with replacement from the job's uniforms, the one with the fewest jobs chosen (the first sampled
among equals)."""

from __future__ import annotations

from sweep.testing.naive import reference
from sweep.testing.naive.dispatch import View


@reference("power_of_d")
def _power_of_d(view: View, job: int, now: float) -> int:
    sampled = [int(u * view.hosts) for u in view.draws[job * view.params.d:(job + 1) * view.params.d]]
    return min(sampled, key=view.jobs_at)  # min keeps the first sampled among equals
