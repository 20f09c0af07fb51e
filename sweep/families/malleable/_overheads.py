"""Per-job execution-overhead parameters drawn at random (CV96 §3.2.4, §4.3; docs/model-notes.md §1).

Two forms, each a ``workload.speedup`` option:

- eq. 8 with a random ``δ`` (``pws = δ``, ``φ' = 1/(1+δ)``, ``β' = 0``):
  ``delta: {dist: uniform, low: 100, high: 200, by_work: true}`` is eq. 12,
  ``δ_j|w ~ U(100 w/W̄, 200 w/W̄)`` (Figure 7a; ``by_work: false``: Figure 7b);
  ``delta: {dist: hyperexp2, mean: 100, cv: 5, by_work: true}`` is Figure 9a's
  ``δ_j|w ~ Hyperexp2(100 w/W̄, 5)`` (9b without ``by_work``). ``W̄`` is the
  workload's ``demand_mean``, so ``E[δ]`` is the printed mean (150 for eq. 12).
- ``model: eq13`` (``c1``, ``c2``; 0.75 and 0.5 in Figures 10–11): eq. 5 with
  ``φ' ~ U(0, (1/c1 − 1)/(N_j − 1))`` (eq. 13) and then
  ``β' ~ U(0, min((1/c2 − 1)/(N_j(N_j − 1)) − φ'/N_j, (1 − φ')/N_j²))`` (eq. 14),
  whose second bound is eq. 10 (``N_j ≤ M_j``: the speedup does not fall before
  ``N_j``); ``N_j = 1`` has no overhead. The efficiency on ``N_j`` processors is
  then about ``U(c2, E)`` with ``E ~ U(c1, 1)`` the efficiency without ``β'``.

Both draw from their own streams (δ from one, φ' and β' from one each; the
malleable workload's ``QUANTITIES``), with one uniform (or one exponential and
one uniform) per job, whatever the policy (docs/design.md §4).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from sweep.workloads.distributions import Hyperexp2

__all__ = ["draw_delta", "draw_eq13", "validate_delta"]

_DELTA = {"uniform": {"low", "high"}, "hyperexp2": {"mean", "cv"}}


def _positive(cfg: Mapping[str, Any], key: str, lo: float = 0.0) -> float:
    value = cfg.get(key)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value >= lo:
        raise ValueError(f"workload.speedup.delta.{key} must be a number >= {lo}, got {value!r}")
    return float(value)


def validate_delta(cfg: Any) -> None:
    """Raise ValueError (one line) unless ``cfg`` is a number >= 0 or a δ distribution (module docstring)."""
    if isinstance(cfg, numbers.Real) and not isinstance(cfg, bool):
        if cfg < 0:
            raise ValueError(f"workload.speedup.delta must be >= 0, got {cfg!r}")
        return
    if not isinstance(cfg, Mapping) or cfg.get("dist") not in _DELTA:
        dist = cfg.get("dist") if isinstance(cfg, Mapping) else cfg
        raise ValueError(f"workload.speedup.delta must be a number or have dist one of {list(_DELTA)}, "
                         f"got {dist!r}")
    allowed = _DELTA[cfg["dist"]] | {"dist", "by_work"}
    unknown = sorted(set(cfg) - allowed)
    if unknown:
        raise ValueError(f"workload.speedup.delta.{unknown[0]} is not an option of dist {cfg['dist']}; "
                         f"allowed: {sorted(allowed - {'dist'})}")
    if not isinstance(cfg.get("by_work", False), bool):
        raise ValueError(f"workload.speedup.delta.by_work must be true or false, got {cfg['by_work']!r}")
    if cfg["dist"] == "uniform":
        if _positive(cfg, "high") < _positive(cfg, "low"):
            raise ValueError(f"workload.speedup.delta.high must be >= low, got {cfg['high']!r}")
    else:
        _positive(cfg, "mean")
        _positive(cfg, "cv", 1.0)


def draw_delta(cfg: Mapping[str, Any], work: np.ndarray, mean_work: float,
               rng: np.random.Generator) -> np.ndarray:
    """``δ_j`` per job: uniform or Hyperexp2, scaled by ``w/W̄`` with ``by_work`` (eq. 12)."""
    size = work.size
    if cfg["dist"] == "uniform":
        delta = cfg["low"] + (cfg["high"] - cfg["low"]) * rng.random(size)
    else:
        delta = Hyperexp2.sample_each(rng, float(cfg["mean"]), float(cfg["cv"]), size)
    return delta * (work / mean_work) if cfg.get("by_work", False) else delta


def draw_eq13(c1: float, c2: float, n: np.ndarray, rng_phi: np.random.Generator,
              rng_beta: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``(φ', β')`` per job from eqs. 13–14 (module docstring); zero where ``N_j = 1``.

    One uniform per job from each generator (a stream per quantity).
    """
    n = n.astype(np.float64)
    many = n > 1
    m1 = np.where(many, n - 1.0, 1.0)
    phi = np.where(many, rng_phi.random(n.size) * (1.0 / c1 - 1.0) / m1, 0.0)
    bound = np.minimum((1.0 / c2 - 1.0) / (n * m1) - phi / n, (1.0 - phi) / n**2)
    beta = np.where(many, rng_beta.random(n.size) * np.maximum(bound, 0.0), 0.0)
    return phi, beta
