"""The slack pass: slack-based priority backfilling (Talby & Feitelson 1999 §2).

Every waiting job has a scheduled start ``te`` in a profile of scheduled jobs
(running jobs hold their processors until their requested end,
:mod:`~sweep.families.rigid._core`).

insert(j) (§2.1, §2.4), at j's arrival: ``p = (UP + PP + SP)/3`` with SP = ½,
slack ``s = s0 = (1 − p)·SF·AWT`` (§2.2). Candidates, cheapest wins:

- conservative's schedule (§2.1: "always at least one schedule of finite
  price"): j at its earliest fit, nobody moved;
- for every time slot ``ts`` of the profile from NOW on (NOW, running jobs'
  requested ends, waiting jobs' starts and ends) at which j fits beside the
  running jobs and the waiting jobs scheduled before ``ts``: as §2.4 says,
  "delay all waiting jobs from ts to the profile's end by j.t, and insert j as
  the only job scheduled for time ts. Then, compress the schedule": each
  delayed job in turn, in the heuristic's order, moves to its earliest
  feasible start with every other job where it is then. A job therefore ends
  up at most ``j.t`` later than before (its delayed slot stays free), possibly
  earlier (``move_up``, below). Orders (§2.4): ``ast`` ascending scheduled time (before the delay),
  ``aat`` ascending arrival, ``du`` descending n·t, ``dc`` descending cost of a
  1 s delay, ``dp`` descending priority; ties by arrival for every heuristic.

Price (§2.1, §2.3)::

    (ts − NOW)^α_t · n^α_u + Σ_moved n_i^α_u · t_i^α_t · (p_i/p)^α_p · (s0_i/s_i)^e

infinite if some ``t_i > s_i``; ``e = α_p·α_f`` as printed (``fairness_exponent=
"printed"``) or ``α_f`` (``"alpha_f"``, another reading of the printed
formula). Equal prices go to the schedule that moves fewer jobs (``tie``),
then to the earliest ``ts``. Moved jobs' slacks change by ``s_i −= t_i``
(``moved_up_slack``). Then SP = min((te − NOW)/(2·AWT), 1) once, and p, s0 and
s are recomputed from it (s = s0: j has used none).

Readings of §2 that are options (issue 14; each default is the reading the
paper's text supports, not the one that fits its tables best; the fit of each
is measured in reproduction/tf99.md):

- ``completion``: what happens when a job ends before its requested time.
  §2.1 lists three events: "insert a new job, remove a *waiting* job, or
  start or end jobs when reaching the end of a time slot", the last being
  Tick(), "the same as in EASY and conservative backfilling: simply kill
  jobs that were supposed to terminate but didn't, and start executing jobs
  whose scheduled execution time is now". ``compress`` (default): Tick() as
  in conservative backfilling, whose schedule is compressed when a job ends
  early (Mu'alem & Feitelson 2001; :mod:`~sweep.families.rigid._passes`):
  every waiting job in submit order to its earliest feasible start, slacks
  untouched (§2.1 adjusts slacks in insert and Remove only). A conservative
  scheduler that never compresses waits 5456 s a year on KTH against the
  paper's 2401 s, so the paper's conservative compressed. ``tick``: Tick()
  read word for word, nothing is re-planned; holes are filled only by later
  insertions. ``remove``: an early end read as Remove(j), "remove the job,
  and insert a dummy timeless job" (n = 0, t = 0, priority ratio 1): the
  cheapest schedule over every ``ts``, for a profit (the behaviour before
  issue 14). With ``compress``, SF = 0, ``move_up=clamp`` and
  ``moved_up_slack=kept`` the schedule is conservative's, start for start.
- ``move_up``: a delayed job compressed to before its old start. ``allow``
  (default; §2.1: "Cost will be negative if t_i is negative (i.e. if the job
  is being moved up rather than being delayed)"), or ``clamp``: no earlier
  than its old start in an insertion (t_i ≥ 0); the dummy job of Remove()
  still compresses.
- ``moved_up_slack``: §2.1 "for all i = 1..k, j_i.s = j_i.s − t_i" with a
  negative t_i makes a moved-up job's slack grow, its deadline ``te + s``
  fixed: ``regained`` (default, as printed). ``kept``: only delays use slack,
  ``s −= max(t_i, 0)``.
- ``tie``: §2.3 "when two schedules are equally priced, we'll choose the
  schedule with the least number of moved jobs": ``moved`` counts jobs moved
  either way (default); ``delayed`` only delayed ones (before issue 14).
- ``zero_slack_weight``: the 0/0 below.
- ``awt_estimate``: ``fixed`` (§3.2: "The average wait time used for all
  months was the same — the yearly average") or ``running``, §3.2's "running
  average method to update the AWT dynamically", reconstructed (the paper
  gives no formula): the mean wait of the jobs started so far in the run,
  ``awt`` counting as the first of them.

Other resolved ambiguities (documented departures and readings):

- Re-placement is compression of the delayed schedule (the quote above), not
  a fresh re-placement of the delayed jobs from an empty tail. A fresh
  re-placement lets ``du``/``dc``/``dp`` push a job behind every job sorted
  before it; on KTH (monthly, 128 processors) it made ``du``, ``dc`` and
  ``dp`` worse than conservative, against §3.2 ("all heuristics improve
  conservative scheduling").
- A negative delay ``t_i`` (moved up) gives a negative cost (§2.1: "Cost will
  be negative if t_i is negative"): ``t_i^α_t`` is read as ``sign(t_i)·|t_i|^α_t``.
- ``s0_i/s_i`` uses ``max(s_i, 1 s)``, so a job with no slack left has a large,
  finite weight.
- ``s0_i = 0`` (p = 1: a job with UP = PP = 1 whose scheduled wait reached
  2·AWT) makes the fairness term 0/0. Read as 1 (``zero_slack_weight=
  "neutral"``, the default): a job that never had slack has used none of it,
  the limit of ``s0/s`` along ``s = s0``. The literal ``0/max(s, 1)`` = 0
  (``"zero"``) makes such jobs free to move and worthless to move up. On KTH
  with every fifth job at UP = PP = 1 it changes the yearly wait by 0.7%
  (1840.7 against 1827.7 s); with ``completion=remove`` it made high-priority
  jobs wait longer than the others (1774.7 against 1716.1 s).
- Quota (§2.2): PP = −∞ (``priority = -inf``, see ``workload.quota_every``
  in :mod:`~sweep.families.rigid._jobs`) gives p = −∞ and s0 = ∞. Such a job
  costs nothing to move, and when it is inserted no candidate may delay
  another job ("will only run when it's not disturbing any other job").

Arrivals at one timestamp are inserted one by one in trace order; a job whose
scheduled start is now starts (the event order of
:mod:`~sweep.families.rigid._core`). The pass keeps the queue in submit order:
its heuristics break ties by arrival.

How insert(j) is computed (issue 17; none of it changes a schedule: the start
times of 177 configurations of the TF99 presets and options on the KTH trace
are those of the direct computation, ``benchmarks/slack_identity.py``, and
``tests/naive/slack.py`` is the direct computation in plain Python). The slots
are visited in ascending order while two profiles are kept: the jobs scheduled
before the slot (they only grow) and the delayed jobs from the slot on (they
only shrink), so a slot's delayed schedule is one merge of the two rather than
a rebuild.

A slot is skipped, and a compression stopped, when a lower bound of its price
is above the best price so far by more than any rounding of the sums; then so
is every later slot (their own prices are no lower, their bounds no looser),
and the search ends. The bound of a moved job's cost is its cost at the
earliest start it could have (a cost grows with the delay), or 0 for a job
that cannot move up; no bound is used when some cost would fall with the delay
(a negative priority ratio, or a priority above 1, which makes ``s0``
negative). Most candidates from conservative's slot on lose, and they can win
only by moving a job up: on the whole KTH trace (AST, equal priorities), 144 of
the 19,319 that the search still evaluates from that slot on win, against 2,548
of the 27,510 before it (``python benchmarks/slack_counts.py``, which counts them
on this code run as Python). Which jobs can move up is settled by a proof, tried
at the first slot whose own price is above the best:

- a job delayed by at most ``j.t`` (a delayed job's slot stays free, so
  compression never moves it further) holds ``[te + j.t, te + t)``, its *core*,
  wherever it then starts; a job before the slot holds more;
- so if a job, tried beside the running jobs, the jobs before the slot and the
  cores of the jobs that are stuck, cannot start before its ``te``, it is stuck
  too: by induction over the compression order, it never moves up. The jobs
  that can are marked and their cores dropped, until no more is (the largest
  stuck set the test admits); a job left marked is bounded by its earliest
  start beside that same profile, a stuck one by 0;
- the profile only grows as the slot advances, so the proof holds for every
  later slot; at later slots the marked jobs are tried again. With nobody
  left to move up, the search ends at the next slot whose own price is above
  the best.

Nothing is allocated in the pass: its work room is in :class:`Plan`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sweep._numba import jit
from sweep.families import param
from sweep.families.rigid import _core
from sweep.families.rigid._core import Columns
from sweep.families.rigid._policy import Discipline

HEURISTICS = ("ast", "aat", "du", "dc", "dp")
AST, AAT, DU, DC, DP = range(len(HEURISTICS))
FAIRNESS = ("printed", "alpha_f")
ZERO_SLACK = ("neutral", "zero")
COMPLETION = ("compress", "remove", "tick")
COMPRESS, REMOVE, TICK = range(len(COMPLETION))
MOVE_UP = ("allow", "clamp")
TIE = ("moved", "delayed")
AWT_ESTIMATE = ("fixed", "running")
MOVED_UP_SLACK = ("regained", "kept")


def _alpha(doc: str) -> float:
    return param(1.0, ge=0, le=1, doc=doc)


@dataclass(frozen=True)
class SlackParams:
    """The slack pass's parameters; defaults are Talby & Feitelson 1999 §3.2's run (Table 1)."""

    slack_factor: float = param(3.0, ge=0, doc="SF of §2.2: slack = (1 − p)·SF·AWT; Table 2 sweeps it")
    awt: float = param(2401.0, gt=0, unit="seconds",
                       doc="AWT of §2.2, the average wait time that scales every slack (§3.2)")
    alpha_u: float = _alpha("α_u, the exponent of a moved job's size in the price (§2.3)")
    alpha_t: float = _alpha("α_t, the exponent of a delay in the price (§2.3)")
    alpha_p: float = _alpha("α_p, the exponent of the priority ratio in the price (§2.3)")
    alpha_f: float = _alpha("α_f, the fairness exponent of s0/s in the price (§2.3)")
    heuristic: str = param("ast", choices=HEURISTICS,
                           doc="the order in which delayed jobs are compressed (§2.4)")
    fairness_exponent: str = param("printed", choices=FAIRNESS,
                                   doc="printed: e = α_p·α_f as printed (§2.3); alpha_f: e = α_f")
    zero_slack_weight: str = param("neutral", choices=ZERO_SLACK,
                                   doc="s0/s of a job with s0 = 0: neutral 1, or the literal 0")
    completion: str = param("compress", choices=COMPLETION,
                            doc="at a completion: remove = Remove() of §2.1, the cheapest schedule "
                                "(a profit); compress = conservative backfilling's compression "
                                "(Tick() 'the same as in conservative backfilling'); tick = Tick() "
                                "read literally, re-plan nothing")
    move_up: str = param("allow", choices=MOVE_UP,
                         doc="a delayed job compressed earlier than its old start: allow (a negative "
                             "t_i, negative cost, §2.1) or clamp at the old start (t_i >= 0)")
    tie: str = param("moved", choices=TIE,
                     doc="equal prices: fewest jobs moved either way (moved, §2.3) or fewest delayed")
    moved_up_slack: str = param("regained", choices=MOVED_UP_SLACK,
                                doc="a job moved up by |t_i|: regained = s −= t_i as printed (§2.1), "
                                    "its slack grows; kept = only delays use slack, s −= max(t_i, 0)")
    awt_estimate: str = param("fixed", choices=AWT_ESTIMATE,
                              doc="fixed: awt throughout (§3.2); running: the mean wait of the jobs "
                                  "started so far, awt counting as one (§3.2's running average, "
                                  "reconstructed)")


class Weights(NamedTuple):
    """The price's exponents (§2.3): sizes, delays, priority ratio, fairness; and ``zero_weight``,
    the fairness term of a job with ``s0 = 0`` (module docstring)."""

    alpha_u: float
    alpha_t: float
    alpha_p: float
    fairness: float
    zero_weight: float


class Plan(NamedTuple):
    """Per job: scheduled start ``te`` (and two candidate copies), ``p``, ``s0``, slack ``s``.

    Work room, so that the pass allocates nothing: ``t2``, ``f2`` for the
    candidate schedule's availability profile, ``tb``, ``fb`` for the profile of
    the jobs scheduled before a candidate slot, ``ta``, ``ua`` for the processors
    used by the jobs from the slot on, each delayed by the new job's time, and
    ``tc``, ``uc`` for those used by their cores (:func:`_cores`);
    ``slots``, the candidate slots;
    ``order`` and ``key``, the waiting jobs in the heuristic's order and their keys;
    ``by_start``, positions in ``order`` by scheduled start; ``movable``, by position,
    whether a job may move up (:func:`_prove_stuck`);
    ``size_term``, ``ratio_term``, ``fairness_term``: per job, the factors of its cost
    (§2.3) that do not depend on its delay, for the insertion under way.
    """

    te: np.ndarray
    new_te: np.ndarray
    best_te: np.ndarray
    p: np.ndarray
    s0: np.ndarray
    s: np.ndarray
    t2: np.ndarray
    f2: np.ndarray
    tb: np.ndarray
    fb: np.ndarray
    ta: np.ndarray
    ua: np.ndarray
    tc: np.ndarray
    uc: np.ndarray
    slots: np.ndarray
    order: np.ndarray
    key: np.ndarray
    by_start: np.ndarray
    movable: np.ndarray
    size_term: np.ndarray
    ratio_term: np.ndarray
    fairness_term: np.ndarray


class Slack(NamedTuple):
    """The slack pass's own state and parameters, as the kernel sees them."""

    plan: Plan
    weights: Weights
    slack_factor: float
    awt: float
    heuristic: int
    completion: int
    clamp: bool
    tie_moved: bool
    regain: bool
    running_awt: np.ndarray


def slack_aux(jobs: Columns, params: SlackParams) -> Slack:
    """The slack pass's state for one run of ``jobs``: nothing scheduled yet."""
    n = len(jobs.submit)
    room = 4 * n + 2
    plan = Plan(np.full(n, np.nan), np.empty(n), np.empty(n), np.zeros(n), np.zeros(n), np.zeros(n),
                np.empty(room), np.empty(room, np.int64), np.empty(room), np.empty(room, np.int64),
                np.empty(room), np.empty(room, np.int64), np.empty(room), np.empty(room, np.int64),
                np.empty(room), np.empty(n, np.int64), np.empty(n), np.empty(n, np.int64),
                np.empty(n, np.bool_), np.empty(n), np.empty(n), np.empty(n))
    printed = params.fairness_exponent == "printed"
    weights = Weights(float(params.alpha_u), float(params.alpha_t), float(params.alpha_p),
                      float(params.alpha_p * params.alpha_f if printed else params.alpha_f),
                      1.0 if params.zero_slack_weight == "neutral" else 0.0)
    return Slack(plan, weights, float(params.slack_factor), float(params.awt),
                 HEURISTICS.index(params.heuristic), COMPLETION.index(params.completion),
                 params.move_up == "clamp", params.tie == "moved", params.moved_up_slack == "regained",
                 np.array([0.0, 0.0 if params.awt_estimate == "fixed" else 1.0]))


@jit()
def _priority_slack(base, sp, sf, awt):
    """§2.2: ``p = (UP + PP + SP)/3`` and ``s0 = (1 − p)·SF·AWT``; PP = −∞ gives s0 = ∞."""
    if base == -np.inf:
        return -np.inf, np.inf
    p = (base + sp) / 3.0
    return p, (1.0 - p) * sf * awt


@jit()
def _power(x, a):
    """``x ** a`` without the call when ``a == 1`` (the default exponents): the same number."""
    return x if a == 1.0 else x ** a


@jit()
def _price_terms(w, nw, p_new, procs, p, s0, s, weights, plan):
    """For one insertion (of a job of priority ``p_new``, NaN for the dummy timeless job:
    ratio 1), the factors of each waiting job's cost (§2.3) that do not depend on its delay:
    ``n^α_u``, ``(p_i/p)^α_p`` and ``(s0_i/s_i)^e`` (module docstring for s0 = 0).

    Returns whether every cost grows with the delay: no factor is negative (or NaN), as a
    negative priority ratio or a priority above 1 (s0 < 0) would make one."""
    monotone = True
    for k in range(nw):
        i = w[k]
        ratio = 1.0 if np.isnan(p_new) else p[i] / p_new
        weight = weights.zero_weight if s0[i] == 0.0 else s0[i] / max(s[i], 1.0)
        plan.size_term[i] = _power(float(procs[i]), weights.alpha_u)
        plan.ratio_term[i] = _power(ratio, weights.alpha_p)
        plan.fairness_term[i] = _power(weight, weights.fairness)
        if s0[i] != np.inf and not (plan.ratio_term[i] >= 0.0 and plan.fairness_term[i] >= 0.0):
            monotone = False
    return monotone


@jit(inline="always")
def _cost(i, delay, plan, alpha_t):
    """§2.3: the cost of moving job ``i`` by ``delay`` (:func:`_price_terms` of the insertion).
    A job over quota (``s0 = ∞``) costs nothing to move."""
    if plan.s0[i] == np.inf:
        return 0.0
    return (plan.size_term[i] * np.sign(delay) * _power(abs(delay), alpha_t) * plan.ratio_term[i]
            * plan.fairness_term[i])


@jit()
def _order(w, nw, te, procs, req, p, plan, alpha_t, heuristic, order, key):
    """The waiting jobs ``w[:nw]`` in the heuristic's order into ``order[:nw]`` (ties: arrival,
    as ``w`` is in arrival order): a stable insertion sort by ``key``, in place."""
    for k in range(nw):
        i = w[k]
        if heuristic == AST:
            x = te[i]
        elif heuristic == AAT:
            x = float(i)
        elif heuristic == DU:
            x = -procs[i] * req[i]
        elif heuristic == DC:
            x = -_cost(i, 1.0, plan, alpha_t)
        else:
            x = -p[i]
        pos = k
        while pos > 0 and key[pos - 1] > x:
            key[pos] = key[pos - 1]
            order[pos] = order[pos - 1]
            pos -= 1
        key[pos] = x
        order[pos] = i


@jit()
def _slots(w, nw, m0, times, te, req, slots):
    """The candidate slots of an insertion, ascending, into ``slots``; returns how many
    (duplicates included: the caller skips them). The running profile's times
    ``times[:m0]`` come sorted; the waiting jobs' starts and ends are sorted in."""
    for k in range(m0):
        slots[k] = times[k]
    n = m0
    for k in range(nw):
        for x in (te[w[k]], te[w[k]] + req[w[k]]):
            pos = n
            while pos > 0 and slots[pos - 1] > x:
                slots[pos] = slots[pos - 1]
                pos -= 1
            slots[pos] = x
            n += 1
    return n


@jit()
def _copy(t_from, f_from, t_to, f_to, m):
    for k in range(m):
        t_to[k] = t_from[k]
        f_to[k] = f_from[k]
    return m


@jit()
def _merge(tb, fb, mb, ta, ua, ma, t2, f2):
    """The profile ``fb − ua`` into ``t2``, ``f2``: free processors ``tb``/``fb`` less those
    used in ``ta``/``ua`` (both start at the same time); returns its length."""
    x, y, m = 0, 0, 0
    while x < mb or y < ma:
        if y == ma or (x < mb and tb[x] < ta[y]):
            t2[m] = tb[x]
            x += 1
        elif x == mb or ta[y] < tb[x]:
            t2[m] = ta[y]
            y += 1
        else:
            t2[m] = tb[x]
            x += 1
            y += 1
        f2[m] = fb[x - 1] - ua[y - 1]
        m += 1
    return m


@jit()
def _delay(times, used, m, delay):
    """Shift the profile of used processors ``times``/``used`` (from ``times[0]`` on) by
    ``delay``: nothing is used before ``times[0] + delay``. Returns its new length."""
    if delay == 0.0:
        return m
    for k in range(m, 0, -1):
        times[k] = times[k - 1] + delay
        used[k] = used[k - 1]
    used[0] = 0
    return m + 1


@jit()
def _beyond(price, rest, best, scale):
    """Whether a price of at least ``price + rest`` is above ``best`` by more than any rounding
    of the sums (``scale``: the sum of the magnitudes of the lower bounds in ``rest``)."""
    return price + rest > best + 1e-9 * (scale + abs(price) + abs(best))


@jit()
def _slot_price(ts, t, n_j, weights):
    """§2.3: the price of starting the new job (``n_j`` processors) at ``ts`` rather than now."""
    return _power(ts - t, weights.alpha_t) * _power(float(n_j), weights.alpha_u)


@jit()
def _by_start(order, nw, te, by_start):
    """The positions ``0..nw-1`` of ``order`` by scheduled start into ``by_start``."""
    for k in range(nw):
        x = te[order[k]]
        pos = k
        while pos > 0 and te[order[by_start[pos - 1]]] > x:
            by_start[pos] = by_start[pos - 1]
            pos -= 1
        by_start[pos] = k


@jit()
def _bounds(nw, m0, times, free, plan, req, procs, clamp, alpha_t, monotone):
    """A lower bound of each waiting job's cost into ``plan.key`` (by position in ``plan.order``):
    its cost if it started at its earliest start beside the running jobs alone, or at its own
    start when it may not move up; a delay costs at least nothing. Returns the bounds' sum and
    the sum of their magnitudes (for :func:`_beyond`); the sum is −∞ unless every cost grows
    with the delay (``monotone``, :func:`_price_terms`)."""
    te, order, bound = plan.te, plan.order, plan.key
    total, scale = 0.0 if monotone else -np.inf, 0.0
    for k in range(nw):
        i = order[k]
        lo = te[i] if clamp else _core.earliest_fit(times, free, m0, procs[i], req[i])
        bound[k] = min(_cost(i, lo - te[i], plan, alpha_t), 0.0)
        total += bound[k]
        scale -= bound[k]
    return total, scale


@jit()
def _cores(plan, nw, t, ts, d_j, req, procs):
    """The processors that the waiting jobs from ``ts`` on not marked ``movable`` hold in every
    candidate schedule from ``ts`` on, into ``plan.tc``, ``plan.uc`` (used from ``t`` on);
    returns the profile's length (module docstring: a job that does not move up holds
    ``[te + d_j, te + r)``, its core, wherever compression puts it)."""
    tc, uc, te, order = plan.tc, plan.uc, plan.te, plan.order
    tc[0], uc[0], mc = t, 0, 1
    for k in range(nw):
        i = order[k]
        if te[i] >= ts and not plan.movable[k] and req[i] > d_j:
            mc = _core.add_interval(tc, uc, mc, te[i] + d_j, te[i] + req[i], procs[i])
    return mc


@jit()
def _hold_core(times, counts, m, i, plan, d_j, req, procs, sign):
    """Add (``sign = 1``) or release (``-1``) job ``i``'s core in a profile of ``counts``
    (processors used, or free with ``sign`` reversed); returns the profile's length."""
    if req[i] <= d_j:
        return m
    return _core.add_interval(times, counts, m, plan.te[i] + d_j, plan.te[i] + req[i], sign * procs[i])


@jit()
def _fits_earlier(t2, f2, m, i, te, req, procs):
    """Whether job ``i`` fits before its scheduled start in the free profile ``t2``/``f2``."""
    return _core.earliest_fit(t2, f2, m, procs[i], req[i]) < te[i]


@jit()
def _prove_stuck(plan, nw, mb, mc, t, ts, d_j, req, procs):
    """Which waiting jobs from ``ts`` on may move up in a candidate schedule from ``ts`` on
    (module docstring), in ``plan.movable`` by position. Returns the length of the cores'
    profile (:func:`_cores`), built at the first proof (``mc == 0``).

    At the first proof every job is assumed stuck, holding its core, and a job that fits before
    its start beside the running jobs, the jobs before ``ts`` and the others' cores is
    marked movable and its core dropped, until no more is (the largest set of stuck
    jobs this test admits). Otherwise the jobs marked movable are tried again beside
    today's profile, which only grew since, and are unmarked when they no longer fit
    earlier. By induction over the compression order, a job left unmarked never moves up.
    Also returns the length of the profile in ``plan.t2``, ``plan.f2``: the running jobs, the
    jobs before ``ts`` and the cores of the jobs left unmarked, beside which every job from ``ts``
    on starts, wherever compression puts it."""
    te, order, movable, t2, f2 = plan.te, plan.order, plan.movable, plan.t2, plan.f2
    first = mc == 0
    if first:
        for k in range(nw):
            movable[k] = False
        mc = _cores(plan, nw, t, ts, d_j, req, procs)
    m = _merge(plan.tb, plan.fb, mb, plan.tc, plan.uc, mc, t2, f2)
    changed = True
    while changed:
        changed = False
        for k in range(nw):
            i = order[k]
            if te[i] < ts:
                continue
            if first and not movable[k]:  # stuck so far: does it fit earlier without its core?
                m = _hold_core(t2, f2, m, i, plan, d_j, req, procs, 1)
                if _fits_earlier(t2, f2, m, i, te, req, procs):
                    movable[k], changed = True, True
                    mc = _hold_core(plan.tc, plan.uc, mc, i, plan, d_j, req, procs, -1)
                else:
                    m = _hold_core(t2, f2, m, i, plan, d_j, req, procs, -1)
            elif not first and movable[k] and not _fits_earlier(t2, f2, m, i, te, req, procs):
                movable[k], changed = False, True
                m = _hold_core(t2, f2, m, i, plan, d_j, req, procs, -1)
                mc = _hold_core(plan.tc, plan.uc, mc, i, plan, d_j, req, procs, 1)
    return mc, m


@jit()
def _stuck_bounds(plan, nw, m, ts, rest, req, procs, alpha_t):
    """Tighten the lower bounds of the costs of the jobs from ``ts`` on after
    :func:`_prove_stuck` (``m``: the length of the profile it leaves in ``plan.t2``):
    0 for a job that cannot move up, and for one that may, its cost at its earliest start
    in that profile. Returns ``rest`` with the changes and how many jobs may still move up."""
    te, order, bound = plan.te, plan.order, plan.key
    n_movable = 0
    for k in range(nw):
        i = order[k]
        if te[i] < ts:
            continue
        tighter = 0.0
        if plan.movable[k]:
            n_movable += 1
            lo = _core.earliest_fit(plan.t2, plan.f2, m, procs[i], req[i])
            tighter = min(_cost(i, lo - te[i], plan, alpha_t), 0.0)
        rest += tighter - bound[k]
        bound[k] = tighter
    return rest, n_movable


@jit(inline="always")
def _compress_delayed(plan, nw, m, ts, d_j, price, rest, best, scale, req, procs, alpha_t, clamp,
                      quota, tie_moved):
    """Compress the waiting jobs delayed from ``ts`` (§2.4), in the heuristic's order, each to its
    earliest start in the profile ``plan.t2``/``plan.f2`` (length ``m``: every job where it is
    then, the new job at ``ts``). Their new starts go into ``plan.new_te``; returns the
    candidate's price, ``price`` plus their costs (∞ when a delay exceeds a job's slack, or when
    the remaining lower bounds ``rest`` show it cannot come below ``best``), and how many moved."""
    te, new_te, s, t2, f2 = plan.te, plan.new_te, plan.s, plan.t2, plan.f2
    order, bound = plan.order, plan.key
    moved = 0
    for k in range(nw):
        i = order[k]
        new_te[i] = te[i]
        if te[i] < ts:
            continue
        if _beyond(price, rest, best, scale):
            return np.inf, moved
        m = _core.add_interval(t2, f2, m, te[i] + d_j, te[i] + d_j + req[i], procs[i])
        if clamp:
            new_te[i] = _core.earliest_fit_from(t2, f2, m, procs[i], req[i], te[i])
        else:
            new_te[i] = _core.earliest_fit(t2, f2, m, procs[i], req[i])
        m = _core.add_interval(t2, f2, m, new_te[i], new_te[i] + req[i], -procs[i])
        delay = new_te[i] - te[i]
        if delay > s[i] or (quota and delay > 0):
            return np.inf, moved
        moved += delay > 0 or (tie_moved and delay < 0)
        price += _cost(i, delay, plan, alpha_t)
        rest -= bound[k]
    return price, moved


@jit()
def _insert(j, t, w, nw, m0, times, free, plan, req, procs, weights, heuristic, clamp, tie_moved,
            regain):
    """insert(j) of §2.1/§2.4, or the dummy timeless job when ``j < 0`` (module docstring).

    The candidate slots are visited in ascending order; the profile of the jobs
    scheduled before the slot (``tb``, ``fb``) grows and those of the delayed jobs
    from the slot on (``ta``, ``ua``) and of the stuck jobs' cores (``tc``, ``uc``,
    :func:`_prove_stuck`) shrink as the slot advances, so a slot at which j does
    not fit costs one look-up, and a slot's delayed schedule is one merge. The
    search ends at the first slot whose price bound is above the best (module
    docstring). Nothing is allocated (``plan`` holds the work room).
    """
    te, best_te, p, s0 = plan.te, plan.best_te, plan.p, plan.s0
    t2, f2, tb, fb, ta, ua, order = plan.t2, plan.f2, plan.tb, plan.fb, plan.ta, plan.ua, plan.order
    n_j = procs[j] if j >= 0 else 0
    d_j = req[j] if j >= 0 else 0.0
    p_new = p[j] if j >= 0 else np.nan
    quota = j >= 0 and s0[j] == np.inf
    clamp = clamp and j >= 0  # the dummy job of Remove() compresses: its move-ups are the profit
    monotone = _price_terms(w, nw, p_new, procs, p, s0, plan.s, weights, plan)
    _order(w, nw, te, procs, req, p, plan, weights.alpha_t, heuristic, order, plan.key)
    # conservative's schedule: j at its earliest fit, nobody moved (§2.1: always finite)
    ta[0], ua[0], ma = t, 0, 1  # the processors the waiting jobs use
    for k in range(nw):
        i = w[k]
        ma = _core.add_interval(ta, ua, ma, te[i], te[i] + req[i], procs[i])
    m = _merge(times, free, m0, ta, ua, ma, t2, f2)
    best_ts = _core.earliest_fit(t2, f2, m, n_j, d_j)
    best = _slot_price(best_ts, t, n_j, weights) if j >= 0 else 0.0
    best_moved = 0
    if nw == 0:  # nobody to move: a later slot costs at least as much (ties: the first schedule)
        if j >= 0:
            te[j] = best_ts
        return
    for k in range(nw):
        best_te[w[k]] = te[w[k]]
    # a slot, or the rest of a compression, whose price cannot come below the best by more
    # than rounding is not worth finishing; ``rest`` bounds the costs of the jobs from ts on
    rest, scale = _bounds(nw, m0, times, free, plan, req, procs, clamp, weights.alpha_t, monotone)
    n_slots = _slots(w, nw, m0, times, te, req, plan.slots)
    mb = _copy(times, free, tb, fb, m0)  # running jobs and the waiting jobs before ts
    ma = _delay(ta, ua, ma, d_j)  # the waiting jobs from ts on, delayed by d_j
    mc = 0  # and the cores of those that do not move up (:func:`_cores`), once needed
    _by_start(order, nw, te, plan.by_start)
    for k in range(nw):
        plan.movable[k] = not clamp
    n_movable = 0 if clamp else nw  # the jobs from ts on that may move up
    before = 0  # the jobs of by_start scheduled before ts
    previous = -np.inf
    for q in range(n_slots):
        ts = plan.slots[q]
        if ts == previous:
            continue
        previous = ts
        while before < nw and te[order[plan.by_start[before]]] < ts:
            k = plan.by_start[before]
            i = order[k]
            mb = _core.add_interval(tb, fb, mb, te[i], te[i] + req[i], -procs[i])
            ma = _core.add_interval(ta, ua, ma, te[i] + d_j, te[i] + d_j + req[i], -procs[i])
            if plan.movable[k]:
                n_movable -= 1
            elif mc > 0:
                mc = _hold_core(plan.tc, plan.uc, mc, i, plan, d_j, req, procs, -1)
            rest -= plan.key[k]
            before += 1
        if not _core.fits_at(tb, fb, mb, ts, n_j, d_j):
            continue
        price = _slot_price(ts, t, n_j, weights) if j >= 0 else 0.0
        # a candidate whose own price is above the best (or equal, the best moving nobody) wins
        # only by moving a job up; the prices of later slots are no lower, and their bounds
        # ``rest`` only grow: once this slot is ruled out, so is every later one
        hopeless = price > best or (price == best and best_moved == 0)
        if hopeless and monotone and n_movable > 0:
            mc, m = _prove_stuck(plan, nw, mb, mc, t, ts, d_j, req, procs)
            rest, n_movable = _stuck_bounds(plan, nw, m, ts, rest, req, procs, weights.alpha_t)
        if (hopeless and monotone and n_movable == 0) or _beyond(price, rest, best, scale):
            break
        # j at ts, every waiting job from ts on delayed by d_j (feasible: the jobs before ts
        # only end after it)
        m = _merge(tb, fb, mb, ta, ua, ma, t2, f2)
        m = _core.add_interval(t2, f2, m, ts, ts + d_j, -n_j)
        price, moved = _compress_delayed(plan, nw, m, ts, d_j, price, rest, best, scale, req, procs,
                                         weights.alpha_t, clamp, quota, tie_moved)
        if price < best or (price == best and moved < best_moved):
            best, best_moved, best_ts = price, moved, ts
            for k in range(nw):
                best_te[order[k]] = plan.new_te[order[k]]
    for k in range(nw):
        i = w[k]
        plan.s[i] -= best_te[i] - te[i] if regain else max(best_te[i] - te[i], 0.0)
        te[i] = best_te[i]
    if j >= 0:
        te[j] = best_ts


@jit()
def _compress(w, nw, m0, times, free, t2, f2, te, req, procs):
    """Conservative backfilling's compression (:mod:`~sweep.families.rigid._passes`): every
    waiting job in submit order to its earliest feasible start, never later than before.
    Slacks are left as they are: §2.1 adjusts them in insert and Remove only."""
    for k in range(m0):
        t2[k], f2[k] = times[k], free[k]
    m = m0
    for k in range(nw):
        i = w[k]
        m = _core.add_interval(t2, f2, m, te[i], te[i] + req[i], -procs[i])
    for k in range(nw):
        i = w[k]
        if te[i] == times[0]:
            continue  # cannot move earlier
        m = _core.add_interval(t2, f2, m, te[i], te[i] + req[i], procs[i])
        start = _core.earliest_fit(t2, f2, m, procs[i], req[i])
        m = _core.add_interval(t2, f2, m, start, start + req[i], -procs[i])
        te[i] = start


@jit(inline="always")
def slack_pass(t, done, new, jobs, state, aux, order):
    """The slack pass (module docstring); ``order`` is submit order."""
    return _slack(t, aux.completion if done else TICK, new, jobs, state, aux.plan, aux.weights,
                  aux.slack_factor, aux.awt, aux.heuristic, aux.clamp, aux.tie_moved, aux.regain,
                  aux.running_awt)


@jit()
def _slack(t, completion, new, jobs, state, plan, weights, sf, awt, heuristic, clamp, tie_moved, regain,
           running_awt):
    """Re-plan for the completions (``completion``: REMOVE, COMPRESS or TICK, which re-plans
    nothing) and insert the arrivals at ``t``; start the jobs due now.

    ``running_awt`` is (total wait, jobs) of the jobs started so far, ``jobs = 0`` for a fixed AWT;
    a running AWT is ``(awt + total wait) / jobs``, ``awt`` counting as the first job.
    """
    if running_awt[1] > 0:
        awt = (awt + running_awt[0]) / running_awt[1]
    te, p, s0, s, t2, f2 = plan.te, plan.p, plan.s0, plan.s, plan.t2, plan.f2
    queue, times, free = state.queue, state.times, state.free
    req, procs, base = jobs.requested, jobs.procs, jobs.priority
    nq = state.counts[0].waiting
    m0 = _core.running_profile(t, jobs, state)
    if completion == COMPRESS:
        _compress(queue, nq - new, m0, times, free, t2, f2, te, req, procs)
    elif completion == REMOVE:
        _insert(-1, t, queue, nq - new, m0, times, free, plan, req, procs, weights, heuristic, clamp,
                tie_moved, regain)
    for k in range(nq - new, nq):
        j = queue[k]
        p[j], s0[j] = _priority_slack(base[j], 0.5, sf, awt)
        s[j] = s0[j]
        _insert(j, t, queue, k, m0, times, free, plan, req, procs, weights, heuristic, clamp,
                tie_moved, regain)
        p[j], s0[j] = _priority_slack(base[j], min((te[j] - t) / (2.0 * awt), 1.0), sf, awt)
        s[j] = s0[j]  # SP recomputed once
    if running_awt[1] > 0:
        for k in range(nq):
            if te[queue[k]] == t:
                running_awt[0] += t - jobs.submit[queue[k]]
                running_awt[1] += 1.0
    return _core.start_reserved(t, te, jobs, state)


SLACK = Discipline("slack", ordered=False, aux=slack_aux)
