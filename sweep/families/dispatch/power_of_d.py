"""Power of d choices (Vvedenskaya, Dobrushin & Karpelevich 1996; Mitzenmacher 2001).

Each arriving job samples ``d`` hosts uniformly at random, with replacement,
and joins the one with the fewest jobs in system (the job in service counted;
ties go to the host sampled first). ``d = 1`` is Random, host for host on the
same random numbers; ``d = h`` samples of ``h`` hosts approach Shortest-Queue.

The samples are the family's (``sampling_assigner``): drawn in advance, in
numpy, from the policy's own child generator, ``d`` uniforms per job in job
order, so that the hosts do not depend on how the stream is chunked: host
``floor(h U)`` as in Random. The kernel receives them packed in the ``given``
column, and its *choose* hook reads them back in order (``next_sample``).

Analysis: for exponential sizes and ``h → ∞`` the fraction of hosts with at
least ``i`` jobs tends to ``ρ^((d^i − 1)/(d − 1))`` (Mitzenmacher 2001,
Theorem 3.1), so the mean response time tends to
``(1/λ_host) Σ_{i≥1} ρ^((d^i − 1)/(d − 1))`` (Little's law, λ_host = ρ/E[X]);
:func:`mean_field_response` computes it. For finite ``h`` there is no closed
form: ``model=analytic`` gives NaN but the utilization (for ``d = 1``, Random's
Pollaczek–Khinchine model).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweep._numba import jit
from sweep.families import Point, param
from sweep.families.dispatch import (
    Assigner,
    Workload,
    check_samples,
    dispatch_chunk,
    dispatch_policy,
    empty_summary,
    jobs_in_system,
    next_sample,
    random_split,
    sampling_assigner,
)


@dataclass(frozen=True)
class Choices:
    """``d``: hosts sampled per job (2: the power of two choices)."""

    d: int = param(2, ge=1, doc="hosts sampled per arriving job, with replacement")


@jit()
def _fewest_of_sampled(n, t, given, hosts):
    """The sampled host with the fewest jobs at ``t``; the earliest sampled among equals."""
    packed = given[n]
    best, fewest = 0, np.iinfo(np.int64).max
    while packed > 0:
        i, packed = next_sample(packed, hosts)
        count = jobs_in_system(hosts, i, t)
        if count < fewest:
            fewest, best = count, i
    return best


@jit()
def _run(arrival, size, given, j0, j1, measuring, hosts, sums):
    return dispatch_chunk(arrival, size, given, j0, j1, measuring, hosts, sums, _fewest_of_sampled)


def _d(point: Point) -> int:
    return int(point.policy.get("d", Choices.d))


def _check(point: Point, workload: Workload) -> None:
    check_samples(int(point.system["hosts"]), _d(point))


def _assigner(point: Point, workload: Workload, rng: np.random.Generator) -> Assigner:
    return sampling_assigner("power_of_d", int(point.system["hosts"]), _d(point), rng)


def _analytic(point: Point, workload: Workload) -> dict[str, object]:
    """Random's P-K model for ``d = 1``; NaN but the utilization otherwise (module docstring)."""
    if _d(point) == 1:
        return random_split(point, workload)
    return empty_summary(int(point.system["hosts"]), float(point.load))


def mean_field_response(load: float, d: int, mean_size: float = 1.0, terms: int = 64) -> float:
    """Mean response time of power-of-d with exponential sizes as ``h → ∞`` (module docstring)."""
    if d == 1:
        return mean_size / (1.0 - load)
    tails = [load ** ((d ** i - 1) / (d - 1)) for i in range(1, terms) if (d ** i - 1) / (d - 1) < 4096]
    return float(np.sum(tails)) * mean_size / load


POLICY = dispatch_policy("power_of_d", params=Choices, examples=({"d": 1}, {"d": 2}, {"d": 3}),
                         kernel=_run, analytic=_analytic, assigner=_assigner, check=_check)
