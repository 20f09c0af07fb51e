"""Compiled twins of :mod:`sweep.stats.batch_means` for stopping rules checked inside a kernel.

A kernel that cuts its output into batches can test, after each batch, whether
the confidence interval is narrow enough or the output keeps growing (DESIGN
§6), without returning to Python. These functions compute exactly what
:func:`~sweep.stats.batch_means.ci_halfwidth` and
:func:`~sweep.stats.batch_means.trend_pvalue` compute, the Student-t quantile
being passed in (``scipy.stats.t.ppf`` cannot be called from numba).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["mann_kendall_pvalue", "t_halfwidth"]


@njit(cache=True)
def t_halfwidth(means: np.ndarray, quantile: float) -> float:
    """``quantile · s / sqrt(k)`` for ``k ≥ 2`` batch means with sample deviation ``s``; NaN below."""
    k = means.size
    if k < 2:
        return np.nan
    mean = means.mean()
    ss = 0.0
    for x in means:
        ss += (x - mean) ** 2
    return quantile * math.sqrt(ss / (k - 1)) / math.sqrt(k)


@njit(cache=True)
def mann_kendall_pvalue(means: np.ndarray) -> float:
    """One-sided Mann–Kendall p-value for an increasing trend (as ``trend_pvalue``); NaN below 3."""
    k = means.size
    if k < 3:
        return np.nan
    s = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            d = means[j] - means[i]
            s += 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    sd = math.sqrt(k * (k - 1) * (2 * k + 5) / 18.0)
    z = (s - 1.0) / sd if s > 0 else (s + 1.0) / sd
    return 0.5 * math.erfc(z / math.sqrt(2.0))
