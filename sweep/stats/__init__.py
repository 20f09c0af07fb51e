"""Steady-state statistics shared by the families and the analysis.

:mod:`sweep.stats.compiled` holds the numba twins of the same names, for kernels.
"""

from sweep.stats.batch_means import (
    batch_means,
    ci_halfwidth,
    controlled_mean,
    growing,
    means_from_sums,
    trend_pvalue,
)

__all__ = ["batch_means", "ci_halfwidth", "controlled_mean", "growing", "means_from_sums", "trend_pvalue"]
