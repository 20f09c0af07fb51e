"""Rate of Change load balancing, RoC-LB (CSSE00 §2.2, §3.2; Campos & Scherson 2000).

The four phases of CSSE00 §3.2, as written, each PE on its own:

When (§3.2.1)
    At the start of each of its sample intervals (``interval`` slices; PE ``i``
    samples first at ``i mod interval``: there is no global clock) a PE
    computes DL, the change of its load since its previous sample. It predicts
    the load after ND slices assuming DL per interval stays constant (How many,
    §3.2.3): ``PL = load + DL × ND / interval``, and requests load when
    ``PL < 0``. Exceptions: a PE whose load is at or above HT never requests
    (it is a *source*); a PE whose load falls below CT requests whatever PL
    says; a PE with a request pending never sends another until load arrives
    or the request comes back unfulfilled. A PE at or below LT is a *sink*
    (§3.2 names the state; none of its rules acts on LT, so here LT only
    bounds CT from above).
Where (§3.2.2)
    Each PE keeps a source table and a sink table. The static allocator's
    mappings update them: whenever tasks are placed on PE ``j`` (time 0, and
    each job arrival in ``arrivals``) every PE enters ``j`` as a source if its
    load is then at least HT. A PE that receives a request (first-hand or
    forwarded) enters the requester as a sink and drops it from its sources,
    and drops the forwarder (which could not serve) too; a PE that receives
    load enters the sender as a source. A request goes to the first source of
    the requester's table; a PE that cannot serve it forwards it to the first
    source of its own table (not the requester, not the PE it came from), a
    hop count travelling with it; after ``max_forwards`` forwards, or with no
    source known, it goes back to the requester unfulfilled, which then drops
    the PE it asked from its table. The sink table is kept as described; no
    rule of §3.2 reads it.
How many (§3.2.3)
    The request asks for ``ceil(|PL|)`` tasks (at least one). A PE serves it
    only if its load is above HT, sending the tasks above HT up to the amount.
Which (§3.2.4)
    The oldest tasks by CPU time used (Harchol-Balter & Downey), as one
    migration; a note carried with the tasks tells the requester (its pending
    request ends when the tasks arrive).

Readings of ambiguities, each with its alternative as an option:

- ``critical_rule``: "falls below CT" with CT = 0 would never fire; the default
  reads it as *at or below* (an idle PE always requests), ``below`` is literal.
- ``table_order``: "the first entry" is the most recently confirmed source
  (``recent``) or the nearest one in hops (``nearest``, then the most recent);
  entries made at the same time (the allocator enters all its PEs at once)
  are ordered from PE ``i + 1`` round the machine, so that the PEs do not all
  ask the same source first (a RECONSTRUCTION).
- With an empty source table a requester probes the PEs in turn
  (``i+1, i+2, ...``), a RECONSTRUCTION (the paper does not say).
- ND (§3.2.1: the time from a request to the reception of load) starts at
  ``nd`` (null: ``h × (2·latency + 4·overhead)`` with ``h`` the PE's mean
  distance to the others, the formula of Campos & Scherson 2000, or 1 slice
  when that is 0) and, with ``adaptive_nd``, moves towards each measured
  request-to-load time by an exponential average of weight ``nd_weight``
  (RECONSTRUCTED rule).
- ``adaptive_interval`` (RECONSTRUCTED rule; §3.2.1 says only that the interval
  may depend "on the number of load requests received or network traffic"):
  after each sample the interval becomes ``interval × (1 + requests received
  since the last sample)``, capped at ``max_interval``.

Readings of the Where phase (§3.2.2), each off by default (the Where
paragraph above is the default; ``docs/ipg00-balancing.md`` has the
measurements):

- ``source_rule``: which load makes a PE a source in a table. §3.2.1 defines a
  source as a PE whose load "is greater or equal to HT" (``at_or_above``, the
  default); §3.2.3 lets a PE "only transfer tasks if its load is above the HT
  level", so a PE at exactly HT is a source that can never serve. ``above``
  enters (at a mapping, and by ``load_in_messages``) only PEs above HT, the
  ones that can serve.
- ``load_in_messages`` (RECONSTRUCTION): §3.2.2 has each PE keep "two local
  tables containing system load information" and the text's Figure 5 shows
  "the internal data structures involved during the load transfer update
  process", but says only that mappings and requests update them. With this
  option every RoC message (a request or its forward, the note that travels
  with granted load, an unfulfilled reply) carries its sender's load when it
  leaves; the receiver enters the sender in its source table if that load
  makes it a source (``source_rule``) and drops it otherwise, and enters it in
  its sink table at or below LT. The rules of the Where paragraph then apply
  as before (a requester is a sink whatever its load; a forwarder is dropped),
  so a granter left at HT by its grant is no longer first in the requester's
  table under ``source_rule: above``.

Diagnostic (``reachable`` in the state, not a reported variable): the requests
made while some other PE had a load above HT, i.e. while a PE that could serve
existed; ``reachable / requests`` bounds the first-hop hit rate of any table.

Hit rates (``stats``): of all requests, the fraction served (at least one
task) by the first PE asked, served in full by the first PE asked, and
served in full by some PE along the forwarding chain (our reading of the
authors' first-hop, first-entry and complete-entry hit rates).
Thresholds HT/LT/CT = 3/1/0 tasks and ``interval`` = 2 slices are RECONSTRUCTED.
"""

from __future__ import annotations

import math
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from sweep._numba import NO_REFCOUNT, jit
from sweep.families import param
from sweep.families.balancing import Machine, TaskSet, balancing_policy, migrate, post, run_loop, send

REQUEST, GRANT, FAIL = 1, 2, 3


@dataclass(frozen=True)
class RocParams:
    """RoC's thresholds and options (module docstring); defaults RECONSTRUCTED."""

    high_threshold: int = param(3, ge=1, doc="HT, tasks: at or above, a source that never requests")
    low_threshold: int = param(1, ge=0, doc="LT, tasks: at or below, a sink")
    critical_threshold: int = param(0, ge=0, doc="CT, tasks: below it a PE requests regardless")
    critical_rule: str = param("at_or_below", choices=("at_or_below", "below"),
                               doc="how a load 'falls below' CT")
    interval: int = param(2, ge=1, unit="slices", doc="sample interval")
    adaptive_interval: bool = param(False, doc="interval grows with the requests received")
    max_interval: int = param(16, ge=1, unit="slices", doc="cap of the adaptive interval")
    nd: float | None = param(None, gt=0, nullable=True, unit="slices",
                             doc="initial network delay ND (null: the hop formula)")
    adaptive_nd: bool = param(True, doc="ND follows the measured request-to-load times")
    nd_weight: float = param(0.5, gt=0, le=1, doc="weight of a new measurement in ND")
    which: str = param("oldest", choices=("oldest", "youngest"), doc="tasks migrated, by CPU age")
    table_order: str = param("recent", choices=("recent", "nearest"),
                             doc="which source is the first entry of a table")
    max_forwards: int = param(15, ge=0, doc="forwards of a request before it returns unfulfilled")
    source_rule: str = param("at_or_above", choices=("at_or_above", "above"),
                             doc="a source in a table: load at or above HT (§3.2.1) or above HT (can serve, "
                                 "§3.2.3)")
    load_in_messages: bool = param(False, doc="every RoC message carries its sender's load; the receiver "
                                              "enters or drops the sender as a source by it (RECONSTRUCTION)")

    def __post_init__(self) -> None:
        c, lo, hi = self.critical_threshold, self.low_threshold, self.high_threshold
        if not c <= lo < hi:
            raise ValueError(f"policy thresholds must satisfy critical_threshold <= low_threshold < "
                             f"high_threshold, got {c}, {lo}, {hi}")


RocState = namedtuple("RocState", [
    "high", "low", "critical", "crit_below", "base", "adaptive_iv", "max_iv", "adaptive_nd", "weight",
    "oldest", "nearest", "max_forwards", "source_floor", "carry_load",
    "next_sample", "interval", "last_load", "nd", "pending", "req_time", "asked", "seen", "probe",
    "src_time", "sink_time", "requests", "first_hop", "first_entry", "complete", "reachable",
])

#: A message field carries its value in the low bits and, with ``load_in_messages``, the sender's
#: load above them (``_with_load``); without the option the high bits are 0 and the fields unchanged.
LOAD_SHIFT = 32
VALUE_MASK = (1 << LOAD_SHIFT) - 1


def _make_state(machine: Machine, tasks: TaskSet, prm: RocParams) -> RocState:
    p = machine.pes
    if prm.nd is None:
        nd = machine.mean_hops() * (2 * machine.latency + 4 * machine.overhead)
        nd = np.where(nd > 0, nd, 1.0)
    else:
        nd = np.full(p, prm.nd)
    return RocState(
        prm.high_threshold, prm.low_threshold, prm.critical_threshold,
        int(prm.critical_rule == "below"), prm.interval, int(prm.adaptive_interval),
        max(prm.max_interval, prm.interval), int(prm.adaptive_nd), prm.nd_weight,
        int(prm.which == "oldest"), int(prm.table_order == "nearest"), prm.max_forwards,
        prm.high_threshold + int(prm.source_rule == "above"), int(prm.load_in_messages),
        np.arange(p, dtype=np.int64) % prm.interval, np.full(p, prm.interval, np.int64),
        np.full(p, -1, np.int64), nd.astype(np.float64), np.zeros(p, np.int64), np.zeros(p, np.int64),
        np.full(p, -1, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
        np.full((p, p), -1, np.int64), np.full((p, p), -1, np.int64),
        *(np.zeros(1, np.int64) for _ in range(5)),
    )


@jit(**NO_REFCOUNT)
def _before(S, R, i, j, best):
    """Whether source ``j`` precedes ``best`` in PE ``i``'s table (module docstring, Where)."""
    if R.nearest == 1 and S.dist[i, j] != S.dist[i, best]:
        return S.dist[i, j] < S.dist[i, best]
    if R.src_time[i, j] != R.src_time[i, best]:
        return R.src_time[i, j] > R.src_time[i, best]
    return (j - i) % S.P < (best - i) % S.P


@jit(**NO_REFCOUNT)
def first_source(S, R, i, not1, not2):
    """The first entry of PE ``i``'s source table, skipping ``i``, ``not1``, ``not2``; -1 if none."""
    best = -1
    for j in range(S.P):
        if j in (i, not1, not2) or R.src_time[i, j] < 0:
            continue
        if best < 0 or _before(S, R, i, j, best):
            best = j
    return best


@jit(**NO_REFCOUNT)
def _with_load(S, R, pe, value):
    """``value`` with ``pe``'s load in the high bits when messages carry loads (``load_in_messages``)."""
    if R.carry_load == 1:
        return value + (S.load[pe] << LOAD_SHIFT)
    return value


@jit(**NO_REFCOUNT)
def _observe(t, S, R, me, sender, field):
    """``load_in_messages``: PE ``me`` learns ``sender``'s load from a message field (module docstring)."""
    if R.carry_load == 0:
        return
    load = field >> LOAD_SHIFT
    R.src_time[me, sender] = t if load >= R.source_floor else -1
    if load <= R.low:
        R.sink_time[me, sender] = t


@jit(**NO_REFCOUNT)
def _request(t, S, R, i, amount):
    for j in range(S.P):
        if j != i and S.load[j] > R.high:
            R.reachable[0] += 1
            break
    target = first_source(S, R, i, -1, -1)
    if target < 0:
        target = (i + 1 + R.probe[i] % max(S.P - 1, 1)) % S.P
        R.probe[i] += 1
    if target == i:
        return
    R.pending[i] = 1
    R.req_time[i] = t
    R.asked[i] = target
    R.requests[0] += 1
    send(S, t, i, target, REQUEST, i, _with_load(S, R, i, amount), 0)


@jit(**NO_REFCOUNT)
def _allocator_update(t, S, R):
    """The static allocator's mappings at ``t`` enter every table (module docstring, Where)."""
    for j in range(S.P):
        if S.last_release[j] == t and S.load[j] >= R.source_floor:
            for i in range(S.P):
                if i != j:
                    R.src_time[i, j] = t


@jit(**NO_REFCOUNT)
def _sample(t, S, R, i):
    """The When and How-many phases of PE ``i`` at one of its samples."""
    load = S.load[i]
    iv = R.interval[i]
    dl = 0 if R.last_load[i] < 0 else load - R.last_load[i]
    R.last_load[i] = load
    if R.adaptive_iv == 1:
        R.interval[i] = min(R.max_iv, R.base * (1 + R.seen[i]))
        R.seen[i] = 0
    R.next_sample[i] = t + R.interval[i]
    if R.pending[i] == 1 or load >= R.high:
        return
    predicted = load + dl * R.nd[i] / iv
    critical = load < R.critical if R.crit_below == 1 else load <= R.critical
    if predicted < 0.0 or critical:
        _request(t, S, R, i, max(1, int(math.ceil(-predicted - 1e-9))))


@jit(**NO_REFCOUNT)
def _tick(t, S, R):
    _allocator_update(t, S, R)
    for i in range(S.P):
        if t >= R.next_sample[i]:
            _sample(t, S, R, i)


@jit(**NO_REFCOUNT)
def _serve_or_forward(t, S, R, j, src, origin, field, forwards):
    _observe(t, S, R, j, src, field)
    amount = field & VALUE_MASK
    R.sink_time[j, origin] = t
    R.src_time[j, origin] = -1
    if src != origin:
        R.src_time[j, src] = -1
    R.seen[j] += 1
    surplus = S.load[j] - R.high
    if surplus > 0:
        give = min(amount, surplus)
        arrival = migrate(S, t, j, origin, give, R.oldest == 1)
        post(S, arrival, j, origin, GRANT, _with_load(S, R, j, give), forwards, amount)
        if forwards == 0:
            R.first_hop[0] += 1
            if give == amount:
                R.first_entry[0] += 1
        if give == amount:
            R.complete[0] += 1
        return
    if forwards < R.max_forwards:
        onward = first_source(S, R, j, origin, src)
        if onward >= 0:
            send(S, t, j, onward, REQUEST, origin, _with_load(S, R, j, amount), forwards + 1)
            return
    send(S, t, j, origin, FAIL, forwards, _with_load(S, R, j, 0), 0)


@jit(**NO_REFCOUNT)
def _receive(t, S, R, src, dst, kind, a, b, c):
    if kind == REQUEST:
        _serve_or_forward(t, S, R, dst, src, a, b, c)
    elif kind == GRANT:
        R.pending[dst] = 0
        R.src_time[dst, src] = t
        _observe(t, S, R, dst, src, a)
        if R.adaptive_nd == 1:
            R.nd[dst] += R.weight * ((t - R.req_time[dst]) - R.nd[dst])
    elif kind == FAIL:
        R.pending[dst] = 0
        _observe(t, S, R, dst, src, b)
        if R.asked[dst] >= 0:
            R.src_time[dst, R.asked[dst]] = -1


@jit(**NO_REFCOUNT)
def _run(S, R):
    run_loop(S, R, _tick, _receive)


def _stats(R: RocState) -> dict[str, float]:
    n = int(R.requests[0])

    def rate(x: np.ndarray) -> float:
        return float(x[0] / n) if n else float("nan")

    return {"requests": n, "first_hop_hit_rate": rate(R.first_hop),
            "first_entry_hit_rate": rate(R.first_entry), "complete_entry_hit_rate": rate(R.complete)}


POLICY = balancing_policy(
    "rate_of_change", params=RocParams, kernel=_run, tick=_tick, receive=_receive, make_state=_make_state,
    stats=_stats,
    examples=({}, {"critical_rule": "below", "table_order": "nearest", "which": "youngest"},
              {"adaptive_interval": True, "adaptive_nd": False, "nd": 3.0, "interval": 1}))
