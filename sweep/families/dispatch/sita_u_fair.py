"""SITA-U-fair (SH00 §4.1): cutoffs that equalise the hosts' mean slowdowns.

"The mean slowdown of short jobs is equal to the mean slowdown of long jobs":
with ``D_i = E[S | host i] − 1 = E[W_i] E[1/X | host i]`` (P-K, ``_sita``) the
cutoffs solve ``D_1 = D_2 = ... = D_h``, each host's load below 1. The paper
gives it for h = 2; any h is solved the same way: for a common value s, host
1's cutoff is the root of ``D(−inf, c) = s`` (D grows with c), host 2's of
``D(c_1, c) = s``, and so on; the last host's ``D`` falls as s grows, and a
root-finder on log s makes it equal s too. Needs ``E[1/X] < inf``. At ρ ≥ 1
no cutoffs are feasible: SITA-E's are used and the point is saturated.
"""

from __future__ import annotations

import math

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

from sweep.families.dispatch import (
    FitParams,
    check_fit,
    cutoff_rule,
    excess_slowdown,
    finite_upper,
    log_ratio,
    mean_excess_slowdown,
    sita_policy,
)
from sweep.workloads import Distribution


def _next_cutoff(dist: Distribution, rate: float, lo: float, target: float) -> float:
    """The cutoff c > lo with ``D(lo, c) = target``; ``inf`` when all the rest stays below."""
    if excess_slowdown(dist, rate, lo, math.inf) <= target:
        return math.inf
    a, b = max(lo, dist.support[0]), finite_upper(dist)

    def gap(c: float) -> float:
        return log_ratio(excess_slowdown(dist, rate, lo, c), target)

    if gap(a) >= 0.0:
        return a
    if gap(b) <= 0.0:
        return b
    return scipy.optimize.brentq(gap, a, b, xtol=1e-12, rtol=4 * np.finfo(float).eps)


def _chain(dist: Distribution, rate: float, hosts: int, target: float) -> tuple[list, float]:
    """Cutoffs giving hosts 1..h-1 the excess slowdown ``target``; the last host's excess."""
    cutoffs, lo = [], -math.inf
    for _ in range(hosts - 1):
        lo = _next_cutoff(dist, rate, lo, target)
        cutoffs.append(lo)
    return cutoffs, excess_slowdown(dist, rate, lo, math.inf)


def fair_cutoffs(dist: Distribution, hosts: int, rate: float, equal: tuple[float, ...]) -> tuple[float, ...]:
    """Cutoffs at which every host has the same mean slowdown (P-K)."""

    def residual(log_target: float) -> float:
        return log_ratio(_chain(dist, rate, hosts, math.exp(log_target))[1], math.exp(log_target))

    start = math.log(max(mean_excess_slowdown(dist, rate, equal), 1e-12))
    lo, hi = start - 2.0, start + 2.0
    for _ in range(200):
        if residual(lo) > 0.0:
            break
        lo -= 4.0
    for _ in range(200):
        if residual(hi) < 0.0:
            break
        hi += 4.0
    root = scipy.optimize.brentq(residual, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps)
    return tuple(_chain(dist, rate, hosts, math.exp(root))[0])


rule = cutoff_rule("fair", fair_cutoffs)
POLICY = sita_policy("sita_u_fair", rule, params=FitParams, check=check_fit)
