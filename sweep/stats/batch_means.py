"""Steady-state statistics from batch means (docs/design.md §6).

A long run of one replication is cut into ``k`` consecutive batches of equal
length; when the batches are long against the correlation time of the output
process, the batch means are nearly independent and nearly normal, so a
Student-t interval on them estimates the steady-state mean (Law & Kelton,
*Simulation Modeling and Analysis*, §9.5.3). The same batch means feed a
trend test: a run whose batch means keep growing has not reached steady state
(a point past saturation).

Everything here works on small arrays (one value per batch) and is family
agnostic: a simulator accumulates per-batch sums and counts in its kernel and
hands them over.
"""

from __future__ import annotations

import math

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

__all__ = [
    "batch_means",
    "ci_halfwidth",
    "controlled_mean",
    "growing",
    "means_from_sums",
    "trend_pvalue",
]


def batch_means(values: np.ndarray, batches: int) -> np.ndarray:
    """Means of ``batches`` consecutive equal batches of ``values``.

    The last ``len(values) % batches`` observations are dropped so that all
    batches have the same length; at least one observation per batch is needed.
    """
    values = np.asarray(values, dtype=np.float64)
    if batches < 1 or len(values) < batches:
        raise ValueError(f"batches must be in [1, {len(values)}], got {batches}")
    length = len(values) // batches
    return values[: length * batches].reshape(batches, length).mean(axis=1)


def means_from_sums(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Batch means from per-batch sums and counts, keeping only the full batches.

    A batch is full when its count equals the largest count (the last batch of a
    run is often short and would carry a different variance).
    """
    sums = np.asarray(sums, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    if counts.size == 0 or counts.max() <= 0:
        return np.empty(0)
    full = counts == counts.max()
    return sums[full] / counts[full]


def ci_halfwidth(means: np.ndarray, level: float = 0.90) -> float:
    """Half-width of the ``level`` Student-t confidence interval of the mean of ``means``.

    ``t_{k-1, (1+level)/2} · s / sqrt(k)`` for ``k`` batch means with sample
    standard deviation ``s``; NaN with fewer than two batches.
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    means = np.asarray(means, dtype=np.float64)
    k = means.size
    if k < 2:
        return math.nan
    quantile = scipy.stats.t.ppf(0.5 + level / 2.0, k - 1)
    return float(quantile * means.std(ddof=1) / math.sqrt(k))


def controlled_mean(means: np.ndarray, controls: np.ndarray, control_means: np.ndarray | float,
                    level: float = 0.90) -> tuple[float, float]:
    """Control-variate estimate of the mean of ``means`` and its ``level`` confidence half-width.

    ``controls`` (``k`` batch means of ``q`` other outputs, shape ``(k,)`` or
    ``(k, q)``) have known expectations ``control_means``. The regression
    ``Y_i = a + β·(X_i − μ) + e_i`` by least squares gives the estimate ``â``
    (the batch mean corrected by how far the controls strayed from theirs) and
    the interval ``â ± t_{k−1−q} · sqrt(s² [(ZᵀZ)⁻¹]₀₀)`` with ``s²`` the
    residual variance on ``k − 1 − q`` degrees of freedom — exact for jointly
    normal batch means (Lavenberg, Moeller & Welch, *Oper. Res.* 30(1), 1982;
    Law & Kelton, *Simulation Modeling and Analysis*, §11.4). A control strongly
    correlated with the output (a job's service demand against its response
    time) removes most of the variance that the rare huge jobs of a heavy-
    tailed workload put into the plain batch means. NaN with ``k < q + 3``.
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    means = np.asarray(means, dtype=np.float64)
    centred = np.asarray(controls, dtype=np.float64).reshape(means.size, -1) - np.asarray(control_means)
    k, q = centred.shape
    if k < q + 3:
        return math.nan, math.nan
    design = np.column_stack([np.ones(k), centred])
    coef, *_ = np.linalg.lstsq(design, means, rcond=None)
    residual = means - design @ coef
    variance = float(residual @ residual) / (k - 1 - q) * np.linalg.inv(design.T @ design)[0, 0]
    return float(coef[0]), float(scipy.stats.t.ppf(0.5 + level / 2.0, k - 1 - q) * math.sqrt(variance))


def trend_pvalue(means: np.ndarray) -> float:
    """One-sided Mann–Kendall p-value for an *increasing* trend across batch means.

    ``S = Σ_{i<j} sign(x_j − x_i)``; under no trend ``S`` is approximately normal
    with mean 0 and variance ``k(k−1)(2k+5)/18`` (ties ignored), tested with a
    continuity correction (Mann 1945; Kendall 1975). A small value says the
    output keeps growing: the run has not reached steady state. Rank-based, so
    a single huge batch (heavy-tailed sizes) cannot fake a trend. NaN with
    fewer than three batches.
    """
    means = np.asarray(means, dtype=np.float64)
    k = means.size
    if k < 3:
        return math.nan
    s = float(np.sign(means[None, :] - means[:, None])[np.triu_indices(k, 1)].sum())
    variance = k * (k - 1) * (2 * k + 5) / 18.0
    z = (s - 1.0) / math.sqrt(variance) if s > 0 else (s + 1.0) / math.sqrt(variance)
    return float(scipy.stats.norm.sf(z))


def growing(means: np.ndarray, alpha: float, enough: int) -> bool:
    """Whether a run's batch means say it never reached steady state: fewer than ``enough``
    finite means (it stopped early: the in-system cap), or, the first mean dropped as warm-up,
    an increasing trend at level ``alpha`` (:func:`trend_pvalue`)."""
    means = np.asarray(means, dtype=np.float64)
    means = means[np.isfinite(means)]
    return bool(means.size < enough or trend_pvalue(means[1:]) < alpha)
