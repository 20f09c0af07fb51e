"""SITA-U-opt (SH00 §4.1): cutoffs that minimise the mean slowdown.

Minimises ``E[S] − 1 = Σ_i λ E[X²;i] E[1/X;i] / (2(1 − ρ_i))`` (P-K per host,
``_sita.mean_excess_slowdown``) over the h − 1 cutoffs, "limited by the fact
that neither host machine is allowed to exceed a load of 1". Nelder–Mead on
log-cutoffs (infeasible or unordered cutoffs score inf) started from SITA-E's
and SITA-U-fair's cutoffs and, for h = 2, from the best of a 513-point log grid
over the support; the best end point wins, so the result is never worse than
SITA-E or SITA-U-fair. Needs ``E[1/X] < inf``. At ρ ≥ 1 no cutoffs are
feasible: SITA-E's are used and the point is saturated.
"""

from __future__ import annotations

import math

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

from sweep.families.dispatch import (
    FitParams,
    check_fit,
    cutoff_rule,
    finite_upper,
    mean_excess_slowdown,
    sita_policy,
    sita_u_fair,
)
from sweep.workloads import Distribution

_GRID = 513


def optimal_cutoffs(dist: Distribution, hosts: int, rate: float,
                    equal: tuple[float, ...]) -> tuple[float, ...]:
    """Cutoffs minimising the P-K mean slowdown, every host's load below 1."""
    lo = dist.support[0] if dist.support[0] > 0 else float(dist.ppf(1e-12))
    hi = finite_upper(dist)

    def objective(log_cutoffs: np.ndarray) -> float:
        if np.any(np.diff(log_cutoffs) < 0):
            return math.inf
        return mean_excess_slowdown(dist, rate, tuple(np.exp(log_cutoffs)))

    starts = [equal, sita_u_fair.fair_cutoffs(dist, hosts, rate, equal)]
    if hosts == 2:
        grid = np.linspace(math.log(lo), math.log(hi), _GRID)
        scores = [objective(np.array([x])) for x in grid]
        starts.append((math.exp(grid[int(np.argmin(scores))]),))
    best = None
    for start in starts:
        x0 = np.log(np.clip(np.asarray(start, dtype=np.float64), lo, hi))
        if not math.isfinite(objective(x0)):
            continue
        found = scipy.optimize.minimize(objective, x0, method="Nelder-Mead",
                                  options={"xatol": 1e-9, "fatol": 1e-10, "maxiter": 4000})
        if best is None or found.fun < best.fun:
            best = found
    return equal if best is None else tuple(float(c) for c in np.exp(best.x))


rule = cutoff_rule("opt", optimal_cutoffs)
POLICY = sita_policy("sita_u_opt", rule, params=FitParams, check=check_fit)
