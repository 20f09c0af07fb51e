"""Size-Interval Task Assignment: machinery shared by SITA-E, -U-opt, -U-fair, -U-rule.

Host i (0-based) serves the jobs with size in ``(c_{i-1}, c_i]``, with
``c_{-1} = -inf`` and ``c_{h-1} = +inf`` (SH00 §1.2, §4.1). Given the
cutoffs, every host is an M/G/1 FCFS queue fed by a Poisson stream, so all
per-host quantities follow from partial moments ``E[X^k ; c_{i-1} < X <= c_i]``
and Pollaczek–Khinchine (SH00 Theorem 1; ``_analytic.pk_hosts``). The cutoff
rules themselves live in the policy files; here are the pieces they share:

- :func:`work_quantile`: the cutoff below which a given fraction of the work lies;
- :func:`excess_slowdown`: a host's mean slowdown minus 1, ``E[W_i] E[1/X | i]``;
- :func:`mean_excess_slowdown`: the job-weighted mean of it over the hosts;
- :func:`sita_policy`: a :class:`DispatchPolicy` from a cutoff rule, with cutoffs
  cached per (workload, hosts, load, parameters).

A rule sees the *cutoff* distribution (for traces: the first half of the
trace, as the paper fit its cutoffs, §4.1) and computes with the arrival rate
that gives load ρ under it; the analysis then applies the cutoffs to the
distribution the jobs are drawn from.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

from sweep._numba import jit
from sweep.families import Point, Policy, check_params
from sweep.families._params import NoParams
from sweep.families.dispatch._analytic import pk_hosts
from sweep.families.dispatch._core import run_given
from sweep.families.dispatch._policy import Assigner, dispatch_policy
from sweep.families.dispatch._workload import Workload, freeze
from sweep.workloads import Distribution, Empirical

#: Orders of the partial moments the P-K analysis uses.
ORDERS = (0, 1, 2, 3, -1, -2)
#: A rule: (cutoff distribution, hosts, load, policy parameters) -> h-1 cutoffs.
Rule = Callable[[Distribution, int, float, Mapping[str, Any]], tuple[float, ...]]
_TINY, _HUGE = 1e-300, 1e300


def interval_moments(dist: Distribution, cutoffs: tuple[float, ...],
                     orders: tuple[int, ...] = ORDERS) -> dict[int, np.ndarray]:
    """``{k: [E[X^k ; c_{i-1} < X <= c_i] for each host i]}``."""
    edges = (-math.inf, *cutoffs, math.inf)
    pairs = list(zip(edges[:-1], edges[1:], strict=True))
    return {k: np.array([dist.partial_moment(k, lo, hi) for lo, hi in pairs]) for k in orders}


def finite_upper(dist: Distribution) -> float:
    """The top of the support, or a quantile 1e-12 below it when the support is unbounded."""
    hi = dist.support[1]
    return hi if math.isfinite(hi) else float(dist.ppf(1.0 - 1e-12))


def work_quantile(dist: Distribution, q: float) -> float:
    """The smallest cutoff ``c`` with ``E[X ; X <= c] >= q E[X]``, for ``0 < q < 1``.

    Exact for an empirical distribution (a trace value); root of the
    continuous partial first moment otherwise.
    """
    target = q * dist.mean
    if isinstance(dist, Empirical):
        ordered = np.sort(dist.values)
        cumulative = np.cumsum(ordered) / len(ordered)
        return float(ordered[min(np.searchsorted(cumulative, target), len(ordered) - 1)])
    lo, hi = dist.support[0], finite_upper(dist)
    while dist.partial_moment(1, -math.inf, hi) < target:
        hi *= 2.0
    return scipy.optimize.brentq(lambda c: dist.partial_moment(1, -math.inf, c) - target, lo, hi,
                           xtol=1e-12, rtol=4 * np.finfo(float).eps)


def cutoffs_at_work_fractions(dist: Distribution, fractions: np.ndarray) -> tuple[float, ...]:
    """Cutoffs giving host i the fraction ``fractions[i]`` of the work (they sum to 1)."""
    cumulative = np.cumsum(fractions)[:-1]
    return tuple(work_quantile(dist, float(q)) for q in cumulative)


def excess_slowdown(dist: Distribution, rate: float, lo: float, hi: float) -> float:
    """``E[S | host] − 1 = λ E[X²;I] E[1/X;I] / (2 p_I (1 − λ E[X;I]))`` for interval I = (lo, hi].

    0 for an empty interval, ``inf`` when the host's load is 1 or more.
    """
    p = dist.partial_moment(0, lo, hi)
    if p <= 0.0:
        return 0.0
    load = rate * dist.partial_moment(1, lo, hi)
    if load >= 1.0:
        return math.inf
    m2, inverse = dist.partial_moment(2, lo, hi), dist.partial_moment(-1, lo, hi)
    return rate * m2 * inverse / (2.0 * p * (1.0 - load))


def mean_excess_slowdown(dist: Distribution, rate: float, cutoffs: tuple[float, ...]) -> float:
    """Mean slowdown − 1 over all jobs: ``Σ_i λ E[X²;i] E[1/X;i] / (2(1 − ρ_i))``."""
    moments = interval_moments(dist, cutoffs, (1, 2, -1))
    loads = rate * moments[1]
    if np.any(loads >= 1.0):
        return math.inf
    return float(np.sum(rate * moments[2] * moments[-1] / (2.0 * (1.0 - loads))))


def log_ratio(value: float, target: float) -> float:
    """``log(value / target)`` with value clipped to [1e-300, 1e300]: a bounded root function."""
    return math.log(min(max(value, _TINY), _HUGE)) - math.log(target)


def rate_at(dist: Distribution, hosts: int, load: float) -> float:
    """The arrival rate that gives load ρ on h hosts with sizes ``dist``."""
    return load * hosts / dist.mean


@jit()
def _interval_hosts(sizes, cutoffs, out):
    """``out[n]`` = the number of cutoffs below ``sizes[n]``: its host (branch-free scan)."""
    for n in range(sizes.shape[0]):
        host = 0
        for cutoff in cutoffs:
            host += sizes[n] > cutoff
        out[n] = host
    return out


def sita_policy(name: str, rule: Rule, *, params: type = NoParams,
                check: Callable[[Point, Workload], None] | None = None) -> Policy:
    """A SITA policy from its cutoff rule (hosts named in advance; P-K analysis).

    ``rule`` receives the policy's parameters (``params``, checked) as a dict.
    """

    @lru_cache(maxsize=256)
    def cached(workload: Workload, hosts: int, load: float, frozen: tuple) -> tuple[float, ...]:
        return tuple(rule(workload.cutoffs, hosts, load, dict(frozen)))

    def cutoffs(point: Point, workload: Workload) -> tuple[float, ...]:
        values = check_params(params, point.policy, section="policy", owner=f"policy {name!r}")
        return cached(workload, int(point.system["hosts"]), float(point.load),
                      freeze(dataclasses.asdict(values)))

    def assigner(point: Point, workload: Workload, rng: np.random.Generator) -> Assigner:
        edges = np.asarray(cutoffs(point, workload), dtype=np.float64)

        def assign(sizes: np.ndarray, first: int) -> np.ndarray:
            return _interval_hosts(sizes, edges, np.empty(len(sizes), dtype=np.int64))

        return assign

    def analytic(point: Point, workload: Workload) -> dict[str, object]:
        hosts = int(point.system["hosts"])
        moments = interval_moments(workload.sizes, cutoffs(point, workload))
        return pk_hosts(workload.rate(point.load, hosts), moments)

    return dispatch_policy(name, params=params, kernel=run_given, analytic=analytic,
                           assigner=assigner, check=check, cutoffs=cutoffs)


def require_finite_slowdown(point: Point, workload: Workload) -> None:
    """SITA-U rules weigh mean slowdowns: they need ``E[1/X] < inf`` (no mass near 0)."""
    if not math.isfinite(workload.cutoffs.moment(-1)):
        raise ValueError(
            f"policy {point.policy['name']!r} needs a finite E[1/X], but workload "
            f"{point.workload.get('name')!r} has E[1/X] = inf (mean slowdown is infinite); "
            "use sizes bounded away from 0 (bounded_pareto, c90, a trace)")
