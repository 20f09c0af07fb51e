"""SITA-U cutoffs fitted by simulation, as SH00 did "experimentally using half of the trace" (§4.1).

SH00 §4.1: "The cutoff defining 'long' and 'short' for these policies was
determined both analytically and experimentally using half of the trace data.
Both methods yielded about the same result." The analytic fit is each rule's
P-K optimisation (``sita_u_opt.rule``, ``sita_u_fair.rule``); this module is the
experimental one, chosen with the policy option ``cutoff_fit: simulation``.

The paper does not say how it searched; this is a **reconstruction** of it,
for 2 hosts (the paper's case). One stream of ``fit_jobs`` jobs (plus 10%
warm-up) is drawn from the *cutoff* distribution (for a trace: its first
``cutoff_fraction``, the paper's first half; for C90/J90 the distribution
itself) with Poisson arrivals at the point's load and the fixed seed
``fit_seed``. Every candidate cutoff is simulated on that same stream (common
random numbers, so the comparison between candidates has little noise) on the
family's own kernel (``_core.run_given``). Candidates are the cutoffs that
give host 1 a fraction f of the work, f on a grid of :data:`GRID` values over
the feasible range ("neither host machine is allowed to exceed a load of 1":
``2ρf < 1`` and ``2ρ(1 − f) < 1``), refined :data:`REFINE` times on a grid of the
same size between the best candidate's neighbours. The criterion:

- ``opt``: the smallest simulated mean slowdown;
- ``fair``: the smallest ``|log(S_short / S_long)|``, the two hosts' simulated
  mean slowdowns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import Point, param
from sweep.families.dispatch._core import HostSystem, run_given
from sweep.families.dispatch._sita import (
    cutoffs_at_work_fractions,
    rate_at,
    require_finite_slowdown,
    work_quantile,
)
from sweep.families.dispatch._workload import Workload
from sweep.workloads import Distribution

#: Candidate work fractions of host 1 per search round, and refinement rounds after the first.
GRID, REFINE = 41, 2
#: Feasibility margin: a candidate leaves each host's load at most 1 − MARGIN.
MARGIN = 1e-3
#: Cap on jobs in system during a fit run (a candidate past it scores inf).
_FIT_CAP = 10_000_000


@dataclass(frozen=True)
class FitParams:
    """How SITA-U-opt's and SITA-U-fair's cutoffs are fitted (SH00 §4.1)."""

    cutoff_fit: str = param("analytic", choices=("analytic", "simulation"),
                            doc="analytic: P-K optimisation; simulation: search by simulation "
                                "on the cutoff distribution (the trace's first half), 2 hosts")
    fit_jobs: int = param(1_000_000, ge=1000, doc="cutoff_fit=simulation: measured jobs per candidate")
    fit_seed: int = param(0, ge=0, doc="cutoff_fit=simulation: seed of the fit's job stream")


def _stream(dist: Distribution, rate: float, jobs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng_arrivals, rng_sizes = np.random.default_rng(seed).spawn(2)
    arrival = np.cumsum(rng_arrivals.standard_exponential(jobs)) / rate
    return arrival, np.asarray(dist.sample(rng_sizes, jobs), dtype=np.float64)


def _simulate(arrival: np.ndarray, size: np.ndarray, warmup: int, cutoff: float) -> np.ndarray:
    """``[overall, host 1, host 2]`` mean slowdowns of the two-host SITA split at ``cutoff``."""
    system = HostSystem(2, run_given, warmup=warmup, jobs=len(arrival) - warmup,
                        max_in_system=_FIT_CAP)
    system.feed(arrival, size, (size > cutoff).astype(np.int64))
    if system.stopped:
        return np.full(3, math.inf)
    summary = system.summary()
    return np.array([summary["mean_slowdown"], *summary["host_mean_slowdown"]])


def _score(slowdowns: np.ndarray, criterion: str) -> float:
    if criterion == "opt":
        return float(slowdowns[0])
    short, long = slowdowns[1:]
    if not (math.isfinite(short) and math.isfinite(long)):  # an empty host: not a split
        return math.inf
    return abs(math.log(short / long))


def simulated_cutoff(dist: Distribution, hosts: int, load: float, criterion: str,
                     params: Mapping[str, Any]) -> tuple[float]:
    """The 2-host cutoff that best meets ``criterion`` (``opt`` or ``fair``) by simulation."""
    if criterion not in ("opt", "fair"):
        raise ValueError(f"criterion must be 'opt' or 'fair', got {criterion!r}")
    if hosts != 2 or not 0 < load < 1:
        raise ValueError(f"policy.cutoff_fit=simulation fits the paper's 2-host cutoff at a load "
                         f"in (0, 1), got system.hosts={hosts}, load={load}")
    jobs = int(params.get("fit_jobs", FitParams.fit_jobs))
    warmup = jobs // 10
    seed = int(params.get("fit_seed", FitParams.fit_seed))
    arrival, size = _stream(dist, rate_at(dist, 2, load), warmup + jobs, seed)
    lo = max(MARGIN, 1.0 - (1.0 - MARGIN) / (2.0 * load))
    hi = min(1.0 - MARGIN, (1.0 - MARGIN) / (2.0 * load))
    scores: dict[float, float] = {}

    def score(fraction: float) -> float:
        cutoff = work_quantile(dist, fraction)
        if cutoff not in scores:
            scores[cutoff] = _score(_simulate(arrival, size, warmup, cutoff), criterion)
        return scores[cutoff]

    for _ in range(REFINE + 1):
        grid = np.linspace(lo, hi, GRID)
        values = [score(float(f)) for f in grid]
        best = int(np.argmin(values))
        lo, hi = float(grid[max(best - 1, 0)]), float(grid[min(best + 1, GRID - 1)])
    return (min(scores, key=scores.get),)


def check_fit(point: Point, workload: Workload) -> None:
    """SITA-U's check: finite ``E[1/X]``; ``cutoff_fit=simulation`` only on 2 hosts."""
    require_finite_slowdown(point, workload)
    if point.policy.get("cutoff_fit", "analytic") == "simulation" and int(point.system["hosts"]) != 2:
        raise ValueError(
            f"policy {point.policy['name']!r}: policy.cutoff_fit=simulation fits the paper's "
            f"2-host cutoff only, got system.hosts={point.system['hosts']}")


#: A SITA-U rule's analytic part: (distribution, hosts, arrival rate, SITA-E's cutoffs) -> cutoffs.
Analytic = Callable[[Distribution, int, float, tuple[float, ...]], tuple[float, ...]]


def cutoff_rule(criterion: str, analytic: Analytic) -> Callable[..., tuple[float, ...]]:
    """A SITA-U rule (SH00 §4.1) from its analytic fit: on one host, or at ρ ≥ 1 where no cutoffs
    are feasible (the point is then saturated), SITA-E's equal-work cutoffs; with the policy option
    ``cutoff_fit: simulation`` the simulated fit of this module by ``criterion``; else
    ``analytic`` on the P-K formulas at the point's arrival rate."""

    def rule(dist: Distribution, hosts: int, load: float, params: Mapping[str, Any]) -> tuple[float, ...]:
        """The cutoffs at ``load`` on ``hosts`` hosts (:func:`cutoff_rule`)."""
        equal = cutoffs_at_work_fractions(dist, np.full(hosts, 1.0 / hosts))
        if hosts == 1 or load >= 1.0:
            return equal
        if params.get("cutoff_fit", "analytic") == "simulation":
            return simulated_cutoff(dist, hosts, load, criterion, params)
        return analytic(dist, hosts, rate_at(dist, hosts, load), equal)

    return rule
