"""Compiled twins of :mod:`sweep.stats.batch_means` for stopping rules checked inside a kernel.

A kernel that cuts its output into batches can test, after each batch, whether
the confidence interval is narrow enough or the output keeps growing (DESIGN
§6), without returning to Python. These functions compute exactly what
:func:`~sweep.stats.batch_means.ci_halfwidth`,
:func:`~sweep.stats.batch_means.trend_pvalue` and (with one control)
:func:`~sweep.stats.batch_means.controlled_mean` compute, the Student-t quantile
being passed in (``scipy.stats.t.ppf`` cannot be called from numba).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["controlled_halfwidth", "mann_kendall_pvalue", "t_halfwidth"]


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
def controlled_halfwidth(means: np.ndarray, controls: np.ndarray, control_mean: float,
                         quantile: float) -> tuple[float, float]:
    """:func:`~sweep.stats.batch_means.controlled_mean` for one control: ``(â, quantile · se(â))``.

    ``quantile`` is ``t_{k−2}``; with one control the least squares are closed
    form: ``β̂ = S_XY / S_XX``, ``â = Ȳ − β̂ (X̄ − μ)``, ``se² = s² (1/k + (X̄ − μ)² / S_XX)``.
    NaN below 4 batch means or when the controls do not vary.
    """
    k = means.size
    if k < 4:
        return np.nan, np.nan
    ybar, xbar = means.mean(), controls.mean()
    sxx, sxy = 0.0, 0.0
    for i in range(k):
        sxx += (controls[i] - xbar) ** 2
        sxy += (controls[i] - xbar) * (means[i] - ybar)
    if sxx == 0.0:
        return np.nan, np.nan
    beta = sxy / sxx
    estimate = ybar - beta * (xbar - control_mean)
    rss = 0.0
    for i in range(k):
        rss += (means[i] - ybar - beta * (controls[i] - xbar)) ** 2
    se = math.sqrt(rss / (k - 2) * (1.0 / k + (xbar - control_mean) ** 2 / sxx))
    return estimate, quantile * se


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
