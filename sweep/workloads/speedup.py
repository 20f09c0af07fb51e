"""Speedup models of malleable jobs (CV96 §3.2.1; docs/model-notes.md §1).

Every model here gives a job's execution time on ``n`` processors in one form,

    T(n) = a/n + b + c·n,

with per-job coefficients ``(a, b, c)`` computed from its work ``W``:

- eq. 1/2 (Sevcik): ``T(n) = φW/n + α + nβ`` → ``a = φW, b = α, c = β``;
- eq. 4/5 (the paper's revision): ``T'(n) = (1 + (n−1)φ')W/n + α + (n−1)β'W``
  → ``a = (1−φ')W, b = φ'W + α − β'W, c = β'W``; with ``α = 0`` this is eq. 5.
  docs/model-notes.md §1's Figure 5/8 workload writes the communication cost in
  seconds, ``(n−1)β``: ``beta`` adds ``β`` to ``c`` and takes it off ``b``;
- eq. 8: ``S(n) = (δ+1)n/(δ+n)``, i.e. eq. 5 with ``β' = 0`` and ``φ' = 1/(1+δ)``
  (eq. 9) → ``a = δW/(δ+1), b = W/(δ+1), c = 0``;
- linear: ``T(n) = W/n``.

The speedup is ``S(n) = W/T(n)``. The same formula gives ``T`` for a real
``n`` (fractional equipartition). ``M`` (eqs. 3 and 6) is ``sqrt(a/c)``, infinite
when ``c = 0``. ``pws`` (§1, footnote 1) is the smallest integer ``n`` in
``[1, cap]`` maximising ``S(n)²/n``, i.e. minimising ``n·T(n)²``; its derivative
vanishes at ``3c·n² + b·n − a = 0``, so the real optimum is
``n* = (−b + sqrt(b² + 12ac)) / (6c)`` (``a/b`` when ``c = 0``), and the answer is
the better of the two integers around it (docs/model-notes.md §1). With eq. 8, pws = δ.

Parameters may be arrays (one value per job) broadcast against ``work``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "Eq2",
    "Eq5",
    "Eq8",
    "Linear",
    "Speedup",
    "average_parallelism",
    "beta_prime_at_max",
    "execution_time",
    "maximum_point",
    "pws",
]

Coefficients = tuple[np.ndarray, np.ndarray, np.ndarray]


def execution_time(n: ArrayLike, a: ArrayLike, b: ArrayLike, c: ArrayLike) -> np.ndarray:
    """``T(n) = a/n + b + c·n``, elementwise."""
    n = np.asarray(n, dtype=np.float64)
    return np.asarray(a) / n + np.asarray(b) + np.asarray(c) * n


def maximum_point(a: ArrayLike, c: ArrayLike) -> np.ndarray:
    """``M = sqrt(a/c)``, where the speedup peaks (eqs. 3 and 6); ``inf`` where ``c = 0``."""
    a, c = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(c, dtype=np.float64))
    with np.errstate(divide="ignore"):
        return np.where(c > 0, np.sqrt(a / np.where(c > 0, c, 1.0)), np.inf)


def pws(a: ArrayLike, b: ArrayLike, c: ArrayLike, cap: ArrayLike) -> np.ndarray:
    """Processor working set: the smallest integer ``n`` in ``[1, cap]`` maximising ``S(n)²/n``.

    ``n·T(n)²`` is unimodal in ``n > 0`` (its derivative has one positive root,
    ``n*``), so the minimiser over the integers is ``floor(n*)`` or
    ``ceil(n*)``, clipped to ``[1, cap]``; the smaller wins a tie.
    """
    a, b, c, cap = (np.asarray(x, dtype=np.float64) for x in np.broadcast_arrays(a, b, c, cap))
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(c > 0, (-b + np.sqrt(b * b + 12.0 * a * c)) / (6.0 * np.where(c > 0, c, 1)),
                        np.where(b > 0, a / np.where(b > 0, b, 1), np.inf))
    lo = np.clip(np.floor(root), 1.0, cap)
    hi = np.clip(np.ceil(root), 1.0, cap)

    def cost(n: np.ndarray) -> np.ndarray:
        return n * execution_time(n, a, b, c) ** 2

    return np.where(cost(hi) < cost(lo), hi, lo).astype(np.int64)


def beta_prime_at_max(phi_prime: ArrayLike, n: ArrayLike) -> np.ndarray:
    """``β' = (1 − φ')/n²``: the bound of eq. 10, where the speedup peaks at exactly ``n``.

    CV96 Figure 6 (footnote 5) sets ``β'`` this way, so that ``N_j = M_j``.
    """
    return (1.0 - np.asarray(phi_prime, dtype=np.float64)) / np.asarray(n, dtype=np.float64) ** 2


class Speedup(ABC):
    """A speedup model: per-job coefficients of ``T(n) = a/n + b + c·n`` from the work.

    A member supplies ``coefficients(work)``; everything else derives from it.
    """

    @abstractmethod
    def coefficients(self, work: ArrayLike) -> Coefficients:
        """``(a, b, c)`` for jobs of work ``work`` (arrays of one shape)."""

    def time(self, n: ArrayLike, work: ArrayLike) -> np.ndarray:
        """Execution time on ``n`` processors."""
        return execution_time(n, *self.coefficients(work))

    def speedup(self, n: ArrayLike, work: ArrayLike) -> np.ndarray:
        """``S(n) = W / T(n)`` (eqs. 2, 5, 8)."""
        return np.asarray(work, dtype=np.float64) / self.time(n, work)

    def maximum(self, work: ArrayLike) -> np.ndarray:
        """``M``, the real ``n`` where the speedup peaks (eqs. 3, 6)."""
        a, _, c = self.coefficients(work)
        return maximum_point(a, c)

    def pws(self, work: ArrayLike, cap: ArrayLike) -> np.ndarray:
        """The processor working set, at most ``cap`` (see :func:`pws`)."""
        return pws(*self.coefficients(work), cap)


def _coefficients(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> Coefficients:
    return tuple(np.array(x, dtype=np.float64) for x in np.broadcast_arrays(a, b, c))


@dataclass(frozen=True)
class Linear(Speedup):
    """Perfect speedup, ``T(n) = W/n``."""

    def coefficients(self, work: ArrayLike) -> Coefficients:
        work = np.asarray(work, dtype=np.float64)
        return _coefficients(work, 0.0, 0.0)


@dataclass(frozen=True)
class Eq2(Speedup):
    """Sevcik's ``T(n) = φW/n + α + nβ`` (CV96 eqs. 1–3); ``φ ≥ 1``, ``α, β ≥ 0`` (s)."""

    phi: ArrayLike = 1.0
    alpha: ArrayLike = 0.0
    beta: ArrayLike = 0.0

    def coefficients(self, work: ArrayLike) -> Coefficients:
        work = np.asarray(work, dtype=np.float64)
        return _coefficients(np.multiply(self.phi, work), self.alpha, self.beta)


@dataclass(frozen=True)
class Eq5(Speedup):
    """``T'(n) = (1 + (n−1)φ')W/n + α + (n−1)(β'W + β)`` (CV96 eqs. 4–6).

    ``0 ≤ φ', β' ≤ 1``; ``α = 0`` gives eq. 5. ``beta`` is a communication cost in
    seconds per extra processor, the form of the Figure 5/8 workload
    (reconstructed, docs/model-notes.md §1); the paper's eq. 4 has ``beta = 0``.
    """

    phi_prime: ArrayLike = 0.0
    beta_prime: ArrayLike = 0.0
    alpha: ArrayLike = 0.0
    beta: ArrayLike = 0.0

    def coefficients(self, work: ArrayLike) -> Coefficients:
        work = np.asarray(work, dtype=np.float64)
        comm = np.multiply(self.beta_prime, work) + self.beta
        return _coefficients((1.0 - np.asarray(self.phi_prime)) * work,
                             np.multiply(self.phi_prime, work) + self.alpha - comm, comm)


@dataclass(frozen=True)
class Eq8(Speedup):
    """``S(n) = (δ+1)n/(δ+n)`` (CV96 eq. 8): eq. 5 with ``β' = 0``, ``φ' = 1/(1+δ)`` (eq. 9)."""

    delta: ArrayLike = 1.0

    def coefficients(self, work: ArrayLike) -> Coefficients:
        work = np.asarray(work, dtype=np.float64)
        scale = work / (np.asarray(self.delta, dtype=np.float64) + 1.0)
        return _coefficients(np.multiply(self.delta, scale), scale, 0.0)


def average_parallelism(a: ArrayLike, b: ArrayLike, c: ArrayLike, cap: ArrayLike) -> np.ndarray:
    """``avg``: ``W / T_min`` rounded to an integer in ``[1, cap]`` (EQS-AVG; **reconstructed**).

    ``T_min`` is the least ``T(x)`` over real ``x`` in ``[1, cap]``, reached at
    ``min(max(M, 1), cap)`` with ``M = sqrt(a/c)`` (eqs. 3, 6); ``W = a + b + c``
    (``T(1)``). CV96 §4.2 uses EQS-AVG of its ref. [4] without defining
    ``avg`` for these speedup models; the average parallelism of a program is
    its speedup on unboundedly many processors, here bounded by ``N_j``.
    """
    a, b, c, cap = (np.asarray(x, dtype=np.float64) for x in np.broadcast_arrays(a, b, c, cap))
    x = np.clip(maximum_point(a, c), 1.0, cap)
    avg = (a + b + c) / execution_time(x, a, b, c)
    return np.clip(np.rint(avg), 1.0, cap).astype(np.int64)
