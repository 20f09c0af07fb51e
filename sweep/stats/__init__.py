"""Steady-state statistics shared by the families and the analysis (DESIGN §6)."""

from sweep.stats.batch_means import (
    batch_means,
    ci_halfwidth,
    controlled_mean,
    means_from_sums,
    trend_pvalue,
)
from sweep.stats.sequential import controlled_halfwidth, mann_kendall_pvalue, t_halfwidth

__all__ = ["batch_means", "ci_halfwidth", "controlled_halfwidth", "controlled_mean",
           "mann_kendall_pvalue", "means_from_sums", "t_halfwidth", "trend_pvalue"]
