"""Job streams: service-time distributions, arrival processes and trace readers.

Nothing here knows of Ray, Hydra, xarray or of any family.

- :mod:`~sweep.workloads.swf`: the Standard Workload Format reader;
- :mod:`~sweep.workloads.traces`: traces of any format an installed reader claims;
- :mod:`~sweep.workloads.distributions`: service-time distributions with closed forms;
- :mod:`~sweep.workloads.parallelism`: job-parallelism distributions (the same interface);
- :mod:`~sweep.workloads.named`: the workloads of SH00 (C90, J90, CTC);
- :mod:`~sweep.workloads.config`: a distribution from a ``conf/workload`` config.
- :mod:`~sweep.workloads.stream`: job columns drawn in fixed blocks, handed out in any split.

An installed package adds distribution kinds (:class:`DistributionKind`) and trace readers
(:class:`TraceReader`) through the ``sweep.workloads`` entry point group (docs/plugins.md).
"""

from sweep.workloads.config import DistributionKind, make_distribution, validate_workload
from sweep.workloads.distributions import (
    BoundedPareto,
    Distribution,
    Empirical,
    Exponential,
    Hyperexp2,
    Mixture,
    TruncatedLognormal,
)
from sweep.workloads.named import c90, j90, resolve_trace_path, trace_sizes
from sweep.workloads.parallelism import BoundedGeometric
from sweep.workloads.swf import SWFError, SWFTrace, read_swf
from sweep.workloads.traces import TraceReader, read_trace, trace_from_columns

__all__ = [
    "BoundedGeometric",
    "BoundedPareto",
    "Distribution",
    "DistributionKind",
    "Empirical",
    "Exponential",
    "Hyperexp2",
    "Mixture",
    "SWFError",
    "SWFTrace",
    "TraceReader",
    "TruncatedLognormal",
    "c90",
    "j90",
    "make_distribution",
    "read_swf",
    "read_trace",
    "resolve_trace_path",
    "trace_from_columns",
    "trace_sizes",
    "validate_workload",
]
