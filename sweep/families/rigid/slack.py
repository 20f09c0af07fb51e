"""Slack-based priority backfilling (Talby & Feitelson 1999, seed 001 §2; MODEL_NOTES §2).

Every waiting job has a scheduled start ``te`` in a profile of scheduled jobs
(running jobs hold their processors until their requested end, MODEL_NOTES §2).

insert(j) (§2.1, §2.4), at j's arrival: ``p = (UP + PP + SP)/3`` with SP = ½,
slack ``s = s0 = (1 − p)·SF·AWT`` (§2.2). For every time slot ``ts`` of the
profile from NOW on (NOW, running jobs' requested ends, waiting jobs' starts and
ends) at which j fits beside the running jobs and the waiting jobs scheduled
before ``ts``: put j at ``ts``, take out every waiting job scheduled at or after
``ts`` and re-place them one by one, each at its earliest feasible start, in the
heuristic's order (§2.4): ``ast`` ascending scheduled time, ``aat`` ascending
arrival, ``du`` descending n·t, ``dc`` descending cost of a 1 s delay, ``dp``
descending priority (ties: ascending arrival, for every heuristic). Price::

    (ts − NOW)^α_t · n^α_u + Σ_moved n_i^α_u · t_i^α_t · (p_i/p)^α_p · (s0_i/s_i)^e

infinite if some ``t_i > s_i``; ``e = α_p·α_f`` as printed (``fairness_exponent=
"printed"``) or ``α_f`` (``"alpha_f"``, MODEL_NOTES §2). The cheapest schedule
wins; ties go to the fewest moved jobs, then to the earliest ``ts``. Moved jobs
lose slack: ``s_i −= t_i`` (a job moved up gains it). Then SP = min((te − NOW)/
(2·AWT), 1) once, and p, s0 and s are recomputed from it (s = s0: j has used none).

Resolved ambiguities (documented departures):

- a negative delay ``t_i`` (moved up) gives a negative cost: ``t_i^α_t`` is read
  as ``sign(t_i)·|t_i|^α_t``;
- ``s0_i/s_i`` uses ``max(s_i, 1 s)`` so a job with no slack left has a large,
  finite weight;
- Remove(j): at a timestamp with completions the completed jobs leave the
  profile and the "dummy timeless job" of §2.1 is inserted (n = 0, t = 0, a
  priority ratio of 1), i.e. the same search compresses the schedule for a profit;
- if no slot has a finite price (possible for heuristics other than ``ast``),
  j takes conservative's slot: its earliest fit with every other job kept;
- a job over quota (PP = −∞, infinite slack) is not supported yet.

Arrivals at one timestamp are inserted one by one in trace order; a job whose
scheduled start is now starts (MODEL_NOTES §2's event order).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from sweep.families.rigid import _core
from sweep.families.rigid._policy import Policy, register_policy

HEURISTICS = ("ast", "aat", "du", "dc", "dp")
FAIRNESS = ("printed", "alpha_f")


@dataclass(frozen=True)
class SlackParams:
    """Seed 001 §3.2's parameters by default: α = 1, SF = 3, AWT = 2401 s, AST."""

    slack_factor: float = 3.0
    awt: float = 2401.0
    alpha_u: float = 1.0
    alpha_t: float = 1.0
    alpha_p: float = 1.0
    alpha_f: float = 1.0
    heuristic: str = "ast"
    fairness_exponent: str = "printed"

    def __post_init__(self) -> None:
        if self.heuristic not in HEURISTICS:
            raise ValueError(f"policy.heuristic must be one of {', '.join(HEURISTICS)}, "
                             f"got {self.heuristic!r}")
        if self.fairness_exponent not in FAIRNESS:
            raise ValueError(f"policy.fairness_exponent must be one of {', '.join(FAIRNESS)}, "
                             f"got {self.fairness_exponent!r}")
        for name in ("alpha_u", "alpha_t", "alpha_p", "alpha_f"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"policy.{name} must be in [0, 1], got {getattr(self, name)}")
        if self.slack_factor < 0 or self.awt <= 0:
            raise ValueError("policy.slack_factor must be >= 0 and policy.awt > 0")


@njit(cache=True)
def _cost(i, delay, p_new, procs, p, s0, s, a):
    """§2.3: the cost of moving job ``i`` by ``delay`` in favour of a job of priority p_new."""
    ratio = 1.0 if np.isnan(p_new) else p[i] / p_new
    weight = s0[i] / max(s[i], 1.0)
    return (procs[i] ** a[0] * np.sign(delay) * abs(delay) ** a[1] * ratio ** a[2]
            * weight ** a[3])


@njit(cache=True)
def _order(w, nw, te, procs, req, p, s0, s, p_new, a, heuristic):
    """The waiting jobs ``w[:nw]`` in the heuristic's order (ties: arrival)."""
    key = np.empty(nw)
    for k in range(nw):
        i = w[k]
        if heuristic == 0:
            key[k] = te[i]
        elif heuristic == 1:
            key[k] = i
        elif heuristic == 2:
            key[k] = -procs[i] * req[i]
        elif heuristic == 3:
            key[k] = -_cost(i, 1.0, p_new, procs, p, s0, s, a)
        else:
            key[k] = -p[i]
    return w[:nw][np.argsort(key, kind="mergesort")]


@njit(cache=True)
def _insert(j, t, w, nw, m0, times, free, t2, f2, te, new_te, best_te, req, procs, p, s0, s,
            a, heuristic):
    """insert(j) of §2.1, or the dummy timeless job when ``j < 0`` (module docstring)."""
    n_j = procs[j] if j >= 0 else 0
    d_j = req[j] if j >= 0 else 0.0
    p_new = p[j] if j >= 0 else np.nan
    order = _order(w, nw, te, procs, req, p, s0, s, p_new, a, heuristic)
    slots = np.empty(m0 + 2 * nw)
    slots[:m0] = times[:m0]
    for k in range(nw):
        slots[m0 + 2 * k] = te[w[k]]
        slots[m0 + 2 * k + 1] = te[w[k]] + req[w[k]]
    slots = np.unique(slots)
    best, best_moved, best_ts = np.inf, nw + 1, np.nan
    for ts in slots:
        t2[:m0], f2[:m0] = times[:m0], free[:m0]
        m = m0
        for k in range(nw):
            if te[w[k]] < ts:
                m = _core.add_interval(t2, f2, m, te[w[k]], te[w[k]] + req[w[k]], -procs[w[k]])
        if not _core.fits_at(t2, f2, m, ts, n_j, d_j):
            continue
        m = _core.add_interval(t2, f2, m, ts, ts + d_j, -n_j)
        price = (ts - t) ** a[1] * n_j ** a[0] if j >= 0 else 0.0
        moved = 0
        for i in order:
            new_te[i] = te[i]
            if te[i] < ts:
                continue
            new_te[i] = _core.earliest_fit(t2, f2, m, procs[i], req[i])
            delay = new_te[i] - te[i]
            if delay > s[i]:
                price = np.inf
                break
            m = _core.add_interval(t2, f2, m, new_te[i], new_te[i] + req[i], -procs[i])
            if delay != 0:
                moved += 1
                price += _cost(i, delay, p_new, procs, p, s0, s, a)
        if price < best or (price == best and moved < best_moved):
            best, best_moved, best_ts = price, moved, ts
            for i in order:
                best_te[i] = new_te[i]
    if best == np.inf:  # conservative's slot, every other job kept (module docstring)
        t2[:m0], f2[:m0] = times[:m0], free[:m0]
        m = m0
        for k in range(nw):
            m = _core.add_interval(t2, f2, m, te[w[k]], te[w[k]] + req[w[k]], -procs[w[k]])
        best_ts = _core.earliest_fit(t2, f2, m, n_j, d_j)
        for k in range(nw):
            best_te[w[k]] = te[w[k]]
    for k in range(nw):
        i = w[k]
        s[i] -= best_te[i] - te[i]
        te[i] = best_te[i]
    if j >= 0:
        te[j] = best_ts


@njit(cache=True)
def _slack(submit, run, req, procs, base, processors, sf, awt, a, heuristic):
    n = submit.size
    state = _core.new_state(n, processors)
    start, queue, running, cnt, times, free = state
    t2, f2 = np.empty_like(times), np.empty_like(free)
    te, new_te, best_te = np.full(n, np.nan), np.empty(n), np.empty(n)
    p, s0, s = np.zeros(n), np.zeros(n), np.zeros(n)
    t, done, new = _core.advance(np.inf, submit, run, procs, *state)
    while t < np.inf:
        nq = cnt[_core.WAITING]
        m0 = _core.running_profile(t, req, procs, start, running, cnt, times, free)
        if done:
            _insert(-1, t, queue, nq - new, m0, times, free, t2, f2, te, new_te, best_te,
                    req, procs, p, s0, s, a, heuristic)
        for k in range(nq - new, nq):
            j = queue[k]
            p[j] = (base[j] + 0.5) / 3.0
            s0[j] = s[j] = (1.0 - p[j]) * sf * awt
            _insert(j, t, queue, k, m0, times, free, t2, f2, te, new_te, best_te,
                    req, procs, p, s0, s, a, heuristic)
            p[j] = (base[j] + min((te[j] - t) / (2.0 * awt), 1.0)) / 3.0  # SP, once
            s0[j] = s[j] = (1.0 - p[j]) * sf * awt
        wake = np.inf
        for k in range(nq):
            j = queue[k]
            if te[j] == t:
                _core.start_job(j, t, req, procs, start, running, cnt)
            elif te[j] < wake:
                wake = te[j]
        _core.drop_started(start, queue, cnt)
        t, done, new = _core.advance(wake, submit, run, procs, *state)
    return start


def schedule(submit: np.ndarray, run: np.ndarray, requested: np.ndarray, procs: np.ndarray,
             priority: np.ndarray, processors: int, params: SlackParams) -> np.ndarray:
    """Start times under slack-based priority backfilling; ``priority`` is UP + PP per job."""
    exponent = params.alpha_p * params.alpha_f if params.fairness_exponent == "printed" \
        else params.alpha_f
    a = np.array([params.alpha_u, params.alpha_t, params.alpha_p, exponent])
    return _slack(submit, run, requested, procs, np.asarray(priority, dtype=np.float64),
                  processors, params.slack_factor, params.awt, a,
                  HEURISTICS.index(params.heuristic))


register_policy(Policy("slack", schedule, SlackParams))
