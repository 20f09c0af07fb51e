"""The job stream of a dispatch point: Poisson arrivals, sizes from the workload.

SH00 §2.2: sizes come from the workload (a distribution, or a trace's run
times), arrivals are Poisson "as in the paper", at rate ``λ = ρ h / E[X]`` for
offered load ρ on h hosts. Trace workloads are resampled (``sampling:
bootstrap``) or replayed in trace order, cyclically (``sampling: trace_order``);
their SITA cutoffs come from the first ``cutoff_fraction`` of the trace (the
paper fit its cutoffs on half of the trace, §4.1); jobs are drawn from the
whole trace (``sizes_from: whole``) or from the rest only (``rest``: the
cutoffs evaluated out of sample). ``max_run_time`` (the center's runtime
limit) is applied first, by ``sweep.workloads``.

Common random numbers (docs/design.md §4): the stream is drawn in fixed blocks of
``DRAW_BLOCK`` jobs (:class:`sweep.workloads.stream.BlockStream`) from two children
of the replication's generator (interarrival times, sizes), so job ``j`` gets the same numbers for every
policy, every chunk size and every run length. Policies draw their own
randomness from a third child.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from sweep.workloads import Distribution, Empirical, make_distribution
from sweep.workloads.stream import DRAW_BLOCK, BlockStream, accumulate


def freeze(value: Any) -> Hashable:
    """A hashable, order-independent copy of a config value (dicts, lists, scalars)."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Workload:
    """What a dispatch point needs of its workload.

    ``sizes``: the distribution jobs are drawn from; ``cutoffs``: the one SITA
    cutoffs are computed from (the same, except for traces); ``trace_order``:
    replay ``sizes.values`` in order instead of sampling; ``key``: hashable
    identity for caches.
    """

    sizes: Distribution
    cutoffs: Distribution
    trace_order: bool = False
    key: Hashable = None

    @property
    def mean(self) -> float:
        """``E[X]``, which fixes the arrival rate for a given load."""
        return self.sizes.mean

    def rate(self, load: float, hosts: int) -> float:
        """Poisson arrival rate ``λ = ρ h / E[X]`` (SH00 §3.3)."""
        return load * hosts / self.mean


def workload_of(cfg: Mapping[str, Any]) -> Workload:
    """The :class:`Workload` of a workload config section (cached: traces load once)."""
    return _workload(freeze(cfg))


@lru_cache(maxsize=64)
def _workload(key: Hashable) -> Workload:
    cfg = dict(key)
    sizes = make_distribution(cfg)
    if cfg.get("kind") != "trace":
        return Workload(sizes, sizes, key=key)
    values = sizes.values
    fitted = max(1, int(len(values) * float(cfg.get("cutoff_fraction", 0.5))))
    if cfg.get("sizes_from", "whole") == "rest":
        sizes = Empirical(values[fitted:])
    return Workload(sizes, Empirical(values[:fitted]),
                    trace_order=cfg.get("sampling", "bootstrap") == "trace_order", key=key)


class JobStream(BlockStream):
    """Arrival times and sizes (:class:`~sweep.workloads.stream.BlockStream`), drawn in fixed blocks."""

    def __init__(self, workload: Workload, rate: float, rng_arrivals: np.random.Generator,
                 rng_sizes: np.random.Generator) -> None:
        self._workload = workload
        self._scale = 1.0 / rate
        self._rng_arrivals, self._rng_sizes = rng_arrivals, rng_sizes
        self._clock = 0.0
        super().__init__(self._draw_arrivals_and_sizes)

    def _draw_arrivals_and_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        arrival = accumulate(self._rng_arrivals.standard_exponential(DRAW_BLOCK), self._scale,
                             self._clock)
        self._clock = float(arrival[-1])
        if self._workload.trace_order:
            values = self._workload.sizes.values
            size = values[(self.drawn + np.arange(DRAW_BLOCK)) % len(values)]
        else:
            size = self._workload.sizes.sample(self._rng_sizes, DRAW_BLOCK)
        return arrival, size
