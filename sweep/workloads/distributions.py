"""Service-time distributions with closed forms.

One interface, several members, in the manner of ``scipy.stats``: the base class
:class:`Distribution` derives the public methods from a few private ones that a
member supplies (see its docstring). Every member has analytic ``moment`` and
``partial_moment``, because the dispatch family's analysis needs them
(docs/model-notes.md §3): Pollaczek–Khinchine needs ``E[X²]``, mean slowdown needs
``E[1/X]``, and SITA cutoffs need the load, job fraction, ``E[X²]`` and ``E[1/X]``
of the jobs in a size interval, i.e. ``E[X^k ; lo < X <= hi]``.

Randomness is an argument: ``sample`` takes the caller's
``numpy.random.Generator`` and draws the whole block at once.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import scipy  # its submodules load on first use: a sweep's start-up does not wait

__all__ = [
    "BoundedPareto",
    "Distribution",
    "Empirical",
    "Exponential",
    "Hyperexp2",
    "Mixture",
    "ParameterError",
    "TruncatedLognormal",
]


class ParameterError(ValueError):
    """A parameter outside its allowed range; the one-line message names both.

    ``parameter``, ``allowed`` and ``value`` let a config layer restate it under
    the option's own name.
    """

    def __init__(self, owner: str, parameter: str, allowed: str, value: object) -> None:
        super().__init__(f"{owner}: {parameter} must be {allowed}, got {value!r}")
        self.parameter, self.allowed, self.value = parameter, allowed, value


class Distribution(ABC):
    """A positive service-time distribution with closed-form moments.

    A member supplies:

    - ``support`` (property): ``(lo, hi)``, the closed interval holding all the mass;
    - ``_cdf(x)``: the cdf at an array ``x`` already clipped into the support;
    - ``_ppf(q)``: the quantile function at an array ``q`` in ``(0, 1)`` (the
      base class maps 0 and 1 to the ends of the support);
    - ``_partial_moment(k, lo, hi)``: ``E[X^k ; lo < X <= hi]`` for ``lo < hi``,
      bounds possibly outside the support or infinite (continuous members clip
      them with ``_clip_to_support``);

    and may override ``_sample(rng, size)`` (default: inverse transform of
    ``rng.random(size)``). Everything public is derived from these.
    """

    @property
    @abstractmethod
    def support(self) -> tuple[float, float]:
        """``(lo, hi)``: the smallest closed interval holding all the mass."""

    @abstractmethod
    def _cdf(self, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _ppf(self, q: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _partial_moment(self, k: float, lo: float, hi: float) -> float: ...

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return self._ppf(rng.random(size))

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent draws (float64), all from ``rng``."""
        if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
            raise ValueError(f"size must be a non-negative integer, got {size!r}")
        return np.asarray(self._sample(rng, int(size)), dtype=np.float64)

    def cdf(self, x: float | np.ndarray) -> float | np.ndarray:
        """``P(X <= x)``, elementwise."""
        x = np.asarray(x, dtype=np.float64)
        lo, hi = self.support
        inside = self._cdf(np.clip(x, lo, hi))
        return _like_input(np.where(x < lo, 0.0, np.where(x >= hi, 1.0, inside)), x)

    def ppf(self, q: float | np.ndarray) -> float | np.ndarray:
        """The smallest ``x`` with ``cdf(x) >= q``, elementwise, for ``q`` in ``[0, 1]``."""
        q = np.asarray(q, dtype=np.float64)
        if not np.all((q >= 0.0) & (q <= 1.0)):
            raise ValueError("q must lie in [0, 1]")
        flat = q.reshape(-1)
        lo, hi = self.support
        out = np.where(flat == 0.0, lo, hi)
        interior = (flat > 0.0) & (flat < 1.0)
        out[interior] = self._ppf(flat[interior])
        return _like_input(out.reshape(q.shape), q)

    def moment(self, k: float) -> float:
        """``E[X^k]`` for real ``k`` (``inf`` where it diverges, e.g. ``E[1/X]`` of an exponential)."""
        return self.partial_moment(k, -math.inf, math.inf)

    def partial_moment(self, k: float, lo: float, hi: float) -> float:
        """``E[X^k ; lo < X <= hi]``: the integral of ``x^k`` over ``(lo, hi]``.

        With ``k = 0`` this is ``cdf(hi) - cdf(lo)``; ``k = 1`` gives the load
        carried by jobs of that size per unit arrival rate. Partial moments over
        a partition of the line add up to ``moment(k)``.
        """
        if not math.isfinite(k):
            raise ValueError(f"k must be finite, got {k!r}")
        if math.isnan(lo) or math.isnan(hi) or lo > hi:
            raise ValueError(f"partial_moment needs lo <= hi, got lo={lo!r}, hi={hi!r}")
        if lo == hi:
            return 0.0
        return float(self._partial_moment(float(k), float(lo), float(hi)))

    @property
    def mean(self) -> float:
        """``E[X]``."""
        return self.moment(1)

    @property
    def variance(self) -> float:
        """``E[X²] - E[X]²``."""
        return self.moment(2) - self.mean**2

    @property
    def scv(self) -> float:
        """Squared coefficient of variation ``Var[X] / E[X]²`` (``C²`` in the papers)."""
        return self.moment(2) / self.mean**2 - 1.0

    def _clip_to_support(self, lo: float, hi: float) -> tuple[float, float] | None:
        """``(lo, hi)`` intersected with the support, ``None`` when that is empty."""
        support_lo, support_hi = self.support
        lo, hi = max(lo, support_lo), min(hi, support_hi)
        return (lo, hi) if lo < hi else None


class Exponential(Distribution):
    """Exponential with the given mean: ``F(x) = 1 - exp(-x / mean)``.

    ``E[X^k] = mean^k Γ(k + 1)`` for ``k > -1``; ``E[1/X]`` diverges (``inf``).
    """

    def __init__(self, mean: float) -> None:
        _require(mean > 0 and math.isfinite(mean), "Exponential", "mean", "> 0 and finite", mean)
        self._scale = float(mean)

    def __repr__(self) -> str:
        return f"Exponential(mean={self._scale!r})"

    @property
    def support(self) -> tuple[float, float]:
        return (0.0, math.inf)

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        return -np.expm1(-x / self._scale)

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return -self._scale * np.log1p(-q)

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.exponential(self._scale, size)

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        interval = self._clip_to_support(lo, hi)
        if interval is None:
            return 0.0
        lo, hi = interval
        return self._scale**k * _gamma_integral(k + 1.0, lo / self._scale, hi / self._scale)


class Mixture(Distribution):
    """``X`` is drawn from ``components[i]`` with probability ``weights[i]``.

    Supports may overlap. Every closed form is the weighted sum of the
    components'; the quantile function is found by vectorised bisection between
    the smallest and largest component quantiles (which bracket it).
    """

    def __init__(self, weights: Sequence[float], components: Sequence[Distribution]) -> None:
        weights = np.asarray(weights, dtype=np.float64)
        components = tuple(components)
        _require(
            weights.ndim == 1 and len(weights) == len(components) > 0,
            "Mixture",
            "weights",
            "one weight per component, at least one",
            weights.tolist(),
        )
        _require(
            bool(np.all(weights >= 0)) and abs(weights.sum() - 1.0) <= 1e-9,
            "Mixture",
            "weights",
            ">= 0 and summing to 1",
            weights.tolist(),
        )
        _require(
            all(isinstance(component, Distribution) for component in components),
            "Mixture",
            "components",
            "Distribution instances",
            components,
        )
        self.weights = tuple(float(w) for w in weights / weights.sum())
        self.components = components

    def __repr__(self) -> str:
        return f"Mixture(weights={list(self.weights)!r}, components={list(self.components)!r})"

    @property
    def support(self) -> tuple[float, float]:
        supports = [component.support for component in self.components]
        return (min(lo for lo, _ in supports), max(hi for _, hi in supports))

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        return sum(w * c.cdf(x) for w, c in zip(self.weights, self.components, strict=True))

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        quantiles = np.array([component.ppf(q) for component in self.components])
        lower, upper = quantiles.min(axis=0), quantiles.max(axis=0)
        for _ in range(200):
            open_ = upper - lower > 4 * np.finfo(np.float64).eps * upper
            if not np.any(open_):
                break
            with np.errstate(invalid="ignore"):
                geometric = np.sqrt(lower * upper)
            middle = np.where(
                (lower > 0) & np.isfinite(geometric), geometric, 0.5 * (lower + upper)
            )
            below = self._cdf(middle) < q
            lower = np.where(open_ & below, middle, lower)
            upper = np.where(open_ & ~below, middle, upper)
        return upper

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Every slot from the heaviest component, then the others' slots overwritten: one
        scatter for the few jobs of the light components instead of one for every job."""
        which = np.searchsorted(np.cumsum(self.weights)[:-1], rng.random(size), side="right")
        heaviest = int(np.argmax(self.weights))
        out = self.components[heaviest].sample(rng, size)
        for index, component in enumerate(self.components):
            if index != heaviest:
                chosen = np.flatnonzero(which == index)
                out[chosen] = component.sample(rng, len(chosen))
        return out

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        return sum(
            w * c.partial_moment(k, lo, hi)
            for w, c in zip(self.weights, self.components, strict=True)
        )


class Hyperexp2(Mixture):
    """Two-phase hyperexponential with balanced means (docs/model-notes.md §1).

    ``p1 = (1 + sqrt((C² - 1) / (C² + 1))) / 2``, rates ``μ1 = 2 p1 / mean`` and
    ``μ2 = 2 (1 - p1) / mean``, so each phase carries half the load; ``scv = C²``
    must be at least 1 (``scv = 1`` is the exponential).
    """

    def __init__(self, mean: float, scv: float) -> None:
        _require(mean > 0 and math.isfinite(mean), "Hyperexp2", "mean", "> 0 and finite", mean)
        _require(scv >= 1 and math.isfinite(scv), "Hyperexp2", "scv", ">= 1 and finite", scv)
        p1 = float(_balanced_p1(scv))
        super().__init__(
            [p1, 1.0 - p1], [Exponential(mean / (2 * p1)), Exponential(mean / (2 * (1 - p1)))]
        )
        self._parameters = (float(mean), float(scv))

    def __repr__(self) -> str:
        mean, scv = self._parameters
        return f"Hyperexp2(mean={mean!r}, scv={scv!r})"

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        first, second = (c.mean for c in self.components)
        return _draw_hyperexp2(rng, self.weights[0], first, second, size)

    @staticmethod
    def sample_each(rng: np.random.Generator, mean: float | np.ndarray, cv: float | np.ndarray,
                    size: int) -> np.ndarray:
        """``size`` draws, draw ``i`` from ``Hyperexp2(mean[i], cv[i]²)``: per-job parameters.

        ``mean`` and ``cv`` are numbers or arrays of length ``size`` (a job's own
        mean and CV, e.g. a demand that depends on the job's size). The same
        uniforms as :meth:`sample`, in the same order: for constant parameters
        the draws equal ``Hyperexp2(mean, cv**2).sample(rng, size)``.
        """
        scv = np.asarray(cv, dtype=np.float64) ** 2
        p1 = _balanced_p1(scv)
        mean = np.asarray(mean, dtype=np.float64)
        return _draw_hyperexp2(rng, p1, mean / (2 * p1), mean / (2 * (1 - p1)), size)


def _balanced_p1(scv: float | np.ndarray) -> np.ndarray:
    """The first phase's probability ``p1 = (1 + sqrt((C² − 1)/(C² + 1)))/2`` (balanced means)."""
    return 0.5 * (1.0 + np.sqrt((scv - 1.0) / (scv + 1.0)))


def _draw_hyperexp2(rng: np.random.Generator, p1: float | np.ndarray, first: float | np.ndarray,
                    second: float | np.ndarray, size: int) -> np.ndarray:
    """A unit exponential (first ``size`` draws) scaled by the mean of the phase a uniform picks
    (next ``size`` draws): no masked scatter, ~2x faster than :meth:`Mixture._sample`."""
    return rng.standard_exponential(size) * np.where(rng.random(size) < p1, first, second)


class BoundedPareto(Distribution):
    """Bounded Pareto ``B(k, p, α)`` (Harchol-Balter, Crovella & Murta; docs/model-notes.md §3).

    Density ``α k^α x^(-α-1) / (1 - (k/p)^α)`` on ``[k, p]``, so
    ``E[X^j ; a < X <= b] = α k^j ((b/k)^(j-α) - (a/k)^(j-α)) / ((j - α)(1 - (k/p)^α))``
    (``α k^j ln(b/a) / (1 - (k/p)^α)`` when ``j = α``).
    """

    def __init__(self, k: float, p: float, alpha: float) -> None:
        _require(k > 0 and math.isfinite(k), "BoundedPareto", "k", "> 0 and finite", k)
        _require(p > k and math.isfinite(p), "BoundedPareto", "p", f"> k = {k} and finite", p)
        _require(
            alpha > 0 and math.isfinite(alpha), "BoundedPareto", "alpha", "> 0 and finite", alpha
        )
        self.k, self.p, self.alpha = float(k), float(p), float(alpha)
        self._mass = -math.expm1(self.alpha * math.log(self.k / self.p))  # 1 - (k/p)^α

    def __repr__(self) -> str:
        return f"BoundedPareto(k={self.k!r}, p={self.p!r}, alpha={self.alpha!r})"

    @property
    def support(self) -> tuple[float, float]:
        return (self.k, self.p)

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        return -np.expm1(self.alpha * np.log(self.k / x)) / self._mass

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        return np.minimum(self.k * np.exp(-np.log1p(-q * self._mass) / self.alpha), self.p)

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        interval = self._clip_to_support(lo, hi)
        if interval is None:
            return 0.0
        lo, hi = interval
        exponent = k - self.alpha
        log_lo, log_hi = math.log(lo / self.k), math.log(hi / self.k)
        if exponent == 0:
            integral = log_hi - log_lo
        else:
            integral = (math.expm1(exponent * log_hi) - math.expm1(exponent * log_lo)) / exponent
        return self.alpha * self.k**k * integral / self._mass


class TruncatedLognormal(Distribution):
    """Lognormal ``exp(N(mu, sigma²))`` conditioned on ``lo <= X <= hi`` (docs/model-notes.md §3).

    With ``z(x) = (ln x - mu) / sigma`` and ``Z = Φ(z(hi)) - Φ(z(lo))``:
    ``E[X^k ; a < X <= b] = exp(k mu + k² sigma² / 2) (Φ(z(b) - k sigma) - Φ(z(a) - k sigma)) / Z``.
    ``lo = 0`` and ``hi = inf`` give the untruncated lognormal.
    """

    def __init__(self, mu: float, sigma: float, lo: float, hi: float) -> None:
        name = "TruncatedLognormal"
        _require(math.isfinite(mu), name, "mu", "finite", mu)
        _require(sigma > 0 and math.isfinite(sigma), name, "sigma", "> 0 and finite", sigma)
        _require(lo >= 0 and math.isfinite(lo), name, "lo", ">= 0 and finite", lo)
        _require(hi > lo, name, "hi", f"> lo = {lo}", hi)
        self.mu, self.sigma, self.lo, self.hi = float(mu), float(sigma), float(lo), float(hi)
        self._z_lo, self._z_hi = self._z(self.lo), self._z(self.hi)
        self._mass = float(_normal_mass(self._z_lo, self._z_hi))
        _require(self._mass > 0, name, "lo, hi", "an interval with positive mass", (lo, hi))

    def __repr__(self) -> str:
        return (
            f"TruncatedLognormal(mu={self.mu!r}, sigma={self.sigma!r}, "
            f"lo={self.lo!r}, hi={self.hi!r})"
        )

    @property
    def support(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    def _z(self, x: float | np.ndarray) -> float | np.ndarray:
        with np.errstate(divide="ignore"):
            return (np.log(x) - self.mu) / self.sigma

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        return _normal_mass(self._z_lo, self._z(x)) / self._mass

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """An untruncated lognormal draw where it falls inside ``[lo, hi]``, else an inverse-transform
        draw: exact (either way the value has the truncated law), and several times faster than
        the inverse transform (``ndtri``) for every job when most of the mass is inside."""
        draws = np.exp(self.mu + self.sigma * rng.standard_normal(size))
        outside = np.flatnonzero((draws < self.lo) | (draws > self.hi))
        draws[outside] = self._ppf(rng.random(len(outside)))
        return draws

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        if self._z_lo > 0:  # upper tail: work with survival probabilities
            z = -scipy.special.ndtri(scipy.special.ndtr(-self._z_lo) - q * self._mass)
        else:
            z = scipy.special.ndtri(scipy.special.ndtr(self._z_lo) + q * self._mass)
        return np.clip(np.exp(self.mu + self.sigma * z), self.lo, self.hi)

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        interval = self._clip_to_support(lo, hi)
        if interval is None:
            return 0.0
        lo, hi = interval
        shift = k * self.sigma
        mass = _normal_mass(self._z(lo) - shift, self._z(hi) - shift)
        return math.exp(k * self.mu + 0.5 * shift**2) * float(mass) / self._mass


class Empirical(Distribution):
    """The empirical distribution of observed sizes (e.g. a trace's run times).

    ``sample`` bootstraps (draws with replacement); moments are sample moments,
    ``E[X^k] = mean(values^k)``, and partial moments are sums over the values in
    the interval divided by their count. ``values`` keeps the given order (a
    family may replay the trace in order) and is read-only.
    """

    def __init__(self, values: Sequence[float] | np.ndarray) -> None:
        values = np.array(values, dtype=np.float64)
        _require(
            values.ndim == 1 and len(values) > 0,
            "Empirical",
            "values",
            "a non-empty 1-D array",
            f"shape {values.shape}",
        )
        _require(
            bool(np.all(np.isfinite(values) & (values > 0))),
            "Empirical",
            "values",
            "finite and > 0",
            f"min {values.min()}",
        )
        values.flags.writeable = False
        self.values = values
        self._sorted = np.sort(values)
        self._cumulative = np.arange(1, len(values) + 1) / len(values)

    def __repr__(self) -> str:
        return f"Empirical(<{len(self.values)} values>)"

    @property
    def support(self) -> tuple[float, float]:
        return (float(self._sorted[0]), float(self._sorted[-1]))

    def _cdf(self, x: np.ndarray) -> np.ndarray:
        return np.searchsorted(self._sorted, x, side="right") / len(self._sorted)

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        index = np.searchsorted(self._cumulative, q, side="left")
        return self._sorted[np.minimum(index, len(self._sorted) - 1)]

    def _sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return self.values[rng.integers(0, len(self.values), size)]

    def _partial_moment(self, k: float, lo: float, hi: float) -> float:
        start = np.searchsorted(self._sorted, lo, side="right")
        stop = np.searchsorted(self._sorted, hi, side="right")
        return float(np.sum(self._sorted[start:stop] ** k)) / len(self._sorted)


def _require(condition: bool, owner: str, parameter: str, allowed: str, value: object) -> None:
    """Raise a :class:`ParameterError` naming the parameter and its allowed range."""
    if not condition:
        raise ParameterError(owner, parameter, allowed, value)


def _like_input(result: np.ndarray, argument: np.ndarray) -> float | np.ndarray:
    """A float for a scalar argument, the array otherwise."""
    return float(result) if argument.ndim == 0 else result


def _normal_mass(z_lo: float | np.ndarray, z_hi: float | np.ndarray) -> np.ndarray:
    """``Φ(z_hi) - Φ(z_lo)``, taken from the upper tail when ``z_lo > 0`` to keep digits."""
    return np.where(
        np.asarray(z_lo) > 0,
        scipy.special.ndtr(-np.asarray(z_lo)) - scipy.special.ndtr(-np.asarray(z_hi)),
        scipy.special.ndtr(z_hi) - scipy.special.ndtr(z_lo),
    )


def _gamma_integral(s: float, lo: float, hi: float) -> float:
    """``∫_lo^hi t^(s-1) e^(-t) dt`` for ``0 <= lo < hi <= inf`` and real ``s``.

    ``inf`` when ``s <= 0`` and ``lo = 0`` (the integral diverges at 0).
    """
    if s > 0:
        if lo < s:  # lower regularised gamma keeps digits below the mode
            return math.gamma(s) * float(scipy.special.gammainc(s, hi) - scipy.special.gammainc(s, lo))
        return math.gamma(s) * float(scipy.special.gammaincc(s, lo) - scipy.special.gammaincc(s, hi))
    if lo == 0:
        return math.inf
    return _upper_gamma(s, lo) - _upper_gamma(s, hi)


def _upper_gamma(s: float, x: float) -> float:
    """``Γ(s, x) = ∫_x^inf t^(s-1) e^(-t) dt`` for ``x > 0``, any real ``s``.

    ``s > 0`` via the regularised function, ``s = 0`` is ``E1(x)``, and ``s < 0``
    by the recurrence ``Γ(s, x) = (Γ(s + 1, x) - x^s e^(-x)) / s``.
    """
    if math.isinf(x):
        return 0.0
    if s > 0:
        return math.gamma(s) * float(scipy.special.gammaincc(s, x))
    if s == 0:
        return float(scipy.special.exp1(x))
    return (_upper_gamma(s + 1.0, x) - x**s * math.exp(-x)) / s
