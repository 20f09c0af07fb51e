"""SITA-U rule of thumb (SH00 §4.4): host 1 gets the fraction ρ/2 of the load (h = 2).

For h = 2 this is the paper's rule: at system load ρ the short jobs, sent to
host 1, carry the fraction ρ/2 of the work (so host 1 runs at load ρ²), the
long jobs the rest. The paper states it for two hosts only.

**Reconstruction for h > 2** (not in the paper): host 1 gets the fraction ρ/h
of the work, so that it again runs at load ρ², and hosts 2..h split the rest
equally, SITA-E style. This reduces to ρ/2 at h = 2, keeps every host below
load 1 whenever ρ < 1 (host j ≥ 2 runs at ρ(h − ρ)/(h − 1) < 1), and becomes
SITA-E at ρ = 1; above ρ = 1 (saturated in any case) the fraction stays 1/h.
(Giving host 1 the fraction ρ/2 for any h would overload it once ρ ≥ sqrt(2/h).)

Parameter ``host1_fraction``: ``null`` for the rule, or a number in (0, 1) to
fix host 1's fraction of the work (a sweepable degree of unbalancing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import param
from sweep.families.dispatch import cutoffs_at_work_fractions, sita_policy
from sweep.workloads import Distribution


def host1_fraction(hosts: int, load: float, given: float | None) -> float:
    """Host 1's fraction of the work: ``given``, else ``min(ρ, 1) / h``."""
    return float(given) if given is not None else min(load, 1.0) / hosts


def rule(dist: Distribution, hosts: int, load: float,
         params: Mapping[str, Any]) -> tuple[float, ...]:
    """Cutoffs giving host 1 :func:`host1_fraction` of the work, the others equal shares."""
    if hosts == 1:
        return ()
    first = host1_fraction(hosts, load, params["host1_fraction"])
    fractions = np.concatenate([[first], np.full(hosts - 1, (1.0 - first) / (hosts - 1))])
    return cutoffs_at_work_fractions(dist, fractions)


@dataclass(frozen=True)
class RuleParams:
    """``host1_fraction``: ``null`` for the rule (ρ/h), or host 1's fixed fraction of the work."""

    host1_fraction: float | None = param(None, gt=0, lt=1, nullable=True,
                                         doc="null: the rule rho/h; else host 1's share of the work")


POLICY = sita_policy("sita_u_rule", rule, params=RuleParams)
