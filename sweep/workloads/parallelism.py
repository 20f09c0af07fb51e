"""Job-parallelism distributions: how many processors a job can use.

:class:`BoundedGeometric` is the form of Chiang & Vernon's (1996, §3.2.2,
Figure 4) Distributions 1–4 of the maximum parallelism ``N`` of a malleable
job: powers of two, geometric below a cut-off, plus a mass at the machine
size. It is a :class:`~sweep.workloads.distributions.Distribution` like the
service-time members, with the same closed forms (``moment``,
``partial_moment``, ``cdf``, ``ppf``), on a discrete support.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweep.workloads.distributions import Distribution, ParameterError

__all__ = ["BoundedGeometric"]


@dataclass(frozen=True)
class BoundedGeometric(Distribution):
    """Bounded-geometric job parallelism (Chiang & Vernon 1996, §3.2.2; a reconstruction).

    With probability ``p_nmax`` a job has ``n_max`` processors; otherwise
    ``N = 2^k`` with ``k ~ Geometric(p)`` on ``k = 0, 1, …``, and ``N = n_star``
    when ``2^k > n_max`` (the geometric tail folded onto ``n_star``). The paper
    prints only the shape and the means; the parameters of its Distributions
    1–4 are fitted to Figure 4 (:data:`sweep.families.malleable._workload.PARALLELISM`).
    ``E[N^k] = Σ_n pmf(n) n^k`` over the powers of two up to ``n_max``.
    """

    p: float
    p_nmax: float
    n_star: int = 32
    n_max: int = 128

    def __post_init__(self) -> None:
        for name, value in (("p", self.p), ("p_nmax", self.p_nmax)):
            if not 0 <= value <= 1:
                raise ParameterError("BoundedGeometric", name, "in [0, 1]", value)
        if self.n_max < 1 or 2 ** int(np.log2(self.n_max)) != self.n_max:
            raise ParameterError("BoundedGeometric", "n_max", "a power of two", self.n_max)
        if self.n_star not in self.values:
            raise ParameterError("BoundedGeometric", "n_star", f"a power of two <= {self.n_max}",
                                 self.n_star)

    @property
    def values(self) -> np.ndarray:
        """The support: the powers of two up to ``n_max``."""
        return 2 ** np.arange(int(np.log2(self.n_max)) + 1)

    @property
    def pmf(self) -> np.ndarray:
        """Probabilities of :attr:`values`."""
        k = np.arange(self.values.size)
        geometric = self.p * (1 - self.p) ** k
        pmf = (1 - self.p_nmax) * geometric
        pmf[self.values == self.n_star] += (1 - self.p_nmax) * (1 - geometric.sum())
        pmf[-1] += self.p_nmax
        return pmf

    @property
    def support(self) -> tuple[float, float]:
        return (1.0, float(self.n_max))

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        cumulative = np.cumsum(self.pmf)
        index = np.searchsorted(self.values, x, side="right") - 1
        return np.where(index >= 0, cumulative[np.maximum(index, 0)], 0.0)

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        cumulative = np.cumsum(self.pmf)
        index = np.searchsorted(cumulative / cumulative[-1], q, side="left")
        return self.values[np.minimum(index, self.values.size - 1)].astype(np.float64)

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """One uniform per draw, the value whose cumulative interval holds it."""
        cumulative = np.cumsum(self.pmf)
        index = np.searchsorted(cumulative / cumulative[-1], rng.random(size), side="right")
        return self.values[np.minimum(index, self.values.size - 1)]

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        values = self.values
        inside = (values > lo) & (values <= hi)
        return float(np.dot(self.pmf[inside], values[inside].astype(np.float64) ** k))

    def sizes(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` draws as integers (int64), the same draws as :meth:`sample`."""
        return self._sample(rng, size).astype(np.int64)
