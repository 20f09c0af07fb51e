"""Lognormal service times of a given mean and squared coefficient of variation.

``X = exp(N(mu, sigma^2))`` with ``sigma^2 = ln(1 + C^2)`` and ``mu = ln(mean) - sigma^2 / 2``, so
that ``E[X] = mean`` and ``Var[X] / E[X]^2 = C^2`` (Johnson, Kotz & Balakrishnan 1994, ch. 14).
Every closed form the dispatch family needs (partial moments for the SITA cutoffs, ``E[1/X]``,
finite here) is sweep's :class:`~sweep.workloads.TruncatedLognormal`'s, untruncated: this kind
only names the parametrisation. Used as ``workload=lognormal workload.scv=4``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sweep.workloads import DistributionKind, TruncatedLognormal
from sweep.workloads.distributions import ParameterError

#: The version of sweep's plugin contract this module was written for (docs/plugins.md).
SWEEP_CONTRACT = 1


@dataclass(frozen=True)
class LognormalOptions:
    """``lognormal``: sizes of mean ``mean`` (s) and squared coefficient of variation ``scv``."""

    mean: float = 1.0
    scv: float = 1.0


def lognormal(mean: float, scv: float) -> TruncatedLognormal:
    """The lognormal distribution of mean ``mean`` and ``C^2 = scv`` (module docstring)."""
    for name, value in (("mean", mean), ("scv", scv)):
        if not (value > 0 and math.isfinite(value)):
            raise ParameterError("lognormal", name, "> 0 and finite", value)
    sigma2 = math.log1p(scv)
    return TruncatedLognormal(math.log(mean) - sigma2 / 2, math.sqrt(sigma2), 0.0, math.inf)


LOGNORMAL = DistributionKind("lognormal", LognormalOptions, lognormal)
