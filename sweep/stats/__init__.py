"""Steady-state statistics shared by the families and the analysis (DESIGN §6)."""

from sweep.stats.batch_means import (
    batch_means,
    ci_halfwidth,
    lag1_autocorrelation,
    means_from_sums,
    trend_pvalue,
)

__all__ = ["batch_means", "ci_halfwidth", "lag1_autocorrelation", "means_from_sums",
           "trend_pvalue"]
