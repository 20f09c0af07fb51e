"""Analysis of sweep Datasets: confidence intervals, ratios, saturation, sensitivity (docs/design.md §1, §5).

The public surface notebooks use; the paper figures live in the papers' packages
(``sweep/papers/sh00/figures.py``, ...) registered with :mod:`sweep.analysis.figures`.
"""

from sweep.analysis.compare import confidence_interval, job_quantity, ratio, size_class_means
from sweep.analysis.saturation import saturation, saturation_search
from sweep.analysis.sensitivity import sensitivity, sensitivity_plot

__all__ = ["confidence_interval", "job_quantity", "ratio", "saturation", "saturation_search",
           "sensitivity", "sensitivity_plot", "size_class_means"]
