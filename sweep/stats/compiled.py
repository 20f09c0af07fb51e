"""Compiled twins of :mod:`sweep.stats.batch_means`, of the same names, for stopping rules in a kernel.

A kernel that cuts its output into batches can test, after each batch, whether
the confidence interval is narrow enough or the output keeps growing (DESIGN
§6), in compiled code. These functions compute exactly what
:func:`~sweep.stats.batch_means.ci_halfwidth`,
:func:`~sweep.stats.batch_means.trend_pvalue` and
:func:`~sweep.stats.batch_means.controlled_mean` compute, the Student-t quantile
being passed in (``scipy.stats.t.ppf`` cannot be called from numba). Each has
its twin's name: call them as ``compiled.ci_halfwidth`` etc.
"""

from __future__ import annotations

import math

import numpy as np

from sweep._numba import jit

__all__ = ["ci_halfwidth", "controlled_mean", "trend_pvalue"]


@jit()
def ci_halfwidth(means: np.ndarray, quantile: float) -> float:
    """``quantile · s / sqrt(k)`` for ``k ≥ 2`` batch means with sample deviation ``s``; NaN below."""
    k = means.size
    if k < 2:
        return np.nan
    mean = means.mean()
    ss = 0.0
    for x in means:
        ss += (x - mean) ** 2
    return quantile * math.sqrt(ss / (k - 1)) / math.sqrt(k)


@jit()
def controlled_mean(means: np.ndarray, controls: np.ndarray, control_means: np.ndarray,
                         quantile: float) -> tuple[float, float]:
    """:func:`~sweep.stats.batch_means.controlled_mean`: ``(â, quantile · se(â))``.

    ``controls`` has shape ``(k, q)``, ``control_means`` ``(q,)``; ``quantile``
    is ``t_{k−1−q}``. The least squares by the normal equations of the design
    ``Z = [1, X − μ]``: ``â`` the intercept, ``se² = s² [(ZᵀZ)⁻¹]₀₀``. NaN below
    ``q + 3`` batch means or when the controls are (nearly) collinear or constant.
    """
    k, q = controls.shape
    if k < q + 3:
        return np.nan, np.nan
    design = np.ones((k, q + 1))
    for i in range(k):
        for c in range(q):
            design[i, c + 1] = controls[i, c] - control_means[c]
    gram = design.T @ design
    scale = 1.0
    for c in range(q + 1):
        scale *= gram[c, c]
    if not np.linalg.det(gram) > 1e-12 * scale:  # Hadamard: det ≤ Π diag, equality when orthogonal
        return np.nan, np.nan
    inverse = np.linalg.inv(gram)
    coef = inverse @ (design.T @ means)
    residual = means - design @ coef
    se = math.sqrt(residual @ residual / (k - 1 - q) * inverse[0, 0])
    return coef[0], quantile * se


@jit()
def trend_pvalue(means: np.ndarray) -> float:
    """One-sided Mann–Kendall p-value for an increasing trend; NaN below 3 batch means."""
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
