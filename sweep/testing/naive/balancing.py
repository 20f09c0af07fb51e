"""Slow, obvious references for the balancing family: every policy.

Plain Python lists and dicts: each PE's round-robin queue is a list, the
running task is taken from the front and put back at the end after the tasks
it spawned in that slice. Nothing shared with ``sweep.families.balancing``:
each policy is written from its module docstring (CSSE00 §3.2 for Rate of
Change; Lin & Keller 1987, Willebeek-LeMair & Reeves 1993, Loh et al. 1996 for
the baselines as CSSE00 §1.2 summarises them), and the kernel must match it
slice for slice (every task's completion time, the messages, the migrations).

Each policy's reference is registered under its name with
:func:`sweep.testing.naive.reference`: ``reference(tasks, dist, costs, bus, params)`` of the
task lists, the hop counts, the costs, whether the PEs share a bus, and the policy's parameter
dataclass; sweep's own read their parameters into the keyword options of the functions below
(a plugin's balancing policy registers its own in its module, docs/plugins.md).
"""

from __future__ import annotations

import math

from sweep.testing.naive import reference

__all__ = ["NoEnd", "NotModelled", "central_dispatcher", "gradient", "rate_of_change", "sender_diffusion",
           "simulate"]


def simulate(life, parent, spawn_age, home, release, pes):
    """Completion time of every task (list) when every task runs where it is placed or spawned."""
    n = len(life)
    children = {k: [] for k in range(n)}
    for k in range(n):
        if parent[k] >= 0:
            children[parent[k]].append(k)
    for k in children:
        children[k].sort(key=lambda c: (spawn_age[c], c))
    roots = sorted((k for k in range(n) if parent[k] < 0), key=lambda k: (release[k], k))
    queues = [[] for _ in range(pes)]
    left = list(life)
    used = [0] * n
    finish = [None] * n
    t = 0
    done = 0
    while done < n:
        while roots and release[roots[0]] <= t:
            k = roots.pop(0)
            queues[home[k]].append(k)
        for pe in range(pes):
            if not queues[pe]:
                continue
            k = queues[pe].pop(0)
            left[k] -= 1
            used[k] += 1
            queues[pe].extend(c for c in children[k] if spawn_age[c] == used[k])
            if left[k] == 0:
                finish[k] = t + 1
                done += 1
            else:
                queues[pe].append(k)
        t += 1
    return finish


class _Machine:
    """PEs, queues and the network of the reference, as lists (the family's core docstring).

    ``costs`` = (latency, overhead, task_transfer, cpu_overhead, whole_slices).
    """

    def __init__(self, tasks, dist, costs, bus):
        life, parent, spawn_age, home, release = tasks
        latency, overhead, transfer, cpu, whole_slices = costs
        self.n, self.pes = len(life), len(dist)
        self.life, self.home, self.release = life, home, release
        self.children = {k: sorted((c for c in range(self.n) if parent[c] == k),
                                   key=lambda c: (spawn_age[c], c)) for k in range(self.n)}
        self.spawn_age = spawn_age
        self.roots = sorted((k for k in range(self.n) if parent[k] < 0), key=lambda k: (release[k], k))
        self.dist, self.cpu, self.bus, self.whole_slices = dist, cpu, bus, whole_slices
        self.neighbours = [[j for j in range(self.pes) if dist[i][j] == 1] for i in range(self.pes)]
        self.per_hop = latency + 2 * overhead
        self.overhead, self.transfer = overhead, transfer
        self.queues = [[] for _ in range(self.pes)]
        self.left, self.age = list(life), [0] * self.n
        self.finish = [None] * self.n
        self.debt = [0.0] * self.pes
        self.idle = [0] * self.pes
        self.out_until = [-1] * self.pes  # arrival of a PE's last broadcast or report
        self.pushed_until = [-1] * self.pes  # arrival of the last migration a PE sent
        self.last_release = [-1] * self.pes
        self.arrived = [0] * self.pes  # tasks that joined each PE's queue so far
        self.departed = [0] * self.pes  # tasks that left it (finished or migrated out)
        self.medium_free = 0.0
        self.messages, self.transfers, self.migrated = [], 0, 0
        self.in_transit = []  # (arrival, task, destination), in sending order
        self.sent = 0

    def load(self, pe):
        return len(self.queues[pe])

    def _arrive(self, t, hops, per_hop):
        if self.bus:  # one transmission at a time on the medium, for its duration
            hold = math.ceil(per_hop - 1e-9) if self.whole_slices else per_hop
            self.medium_free = max(t, self.medium_free) + hold
            return math.ceil(self.medium_free - 1e-9)
        return t + math.ceil(hops * per_hop - 1e-9)

    def send(self, t, src, dst, message):
        self.sent += 1
        if self.cpu:
            self.debt[src] += self.overhead
        arrival = self._arrive(t, self.dist[src][dst], self.per_hop)
        self.messages.append((arrival, src, dst, message, True))
        return arrival

    def broadcast(self, t, src, message):
        """To every neighbour: one transmission on the shared medium, one message each elsewhere."""
        if self.bus:
            self.sent += 1
            if self.cpu:
                self.debt[src] += self.overhead
            arrival = self._arrive(t, 1, self.per_hop)
            self.messages += [(arrival, src, j, message, True) for j in self.neighbours[src]]
        else:
            arrival = max([t] + [self.send(t, src, j, message) for j in self.neighbours[src]])
        self.out_until[src] = arrival

    def post(self, arrival, src, dst, message):
        self.messages.append((arrival, src, dst, message, False))

    def migrate(self, t, src, dst, count, oldest=False):
        """The ``count`` youngest (or oldest) tasks by CPU age, each the first found from the head."""
        moving = []
        while len(moving) < count and self.queues[src]:
            pick = max if oldest else min
            k = pick(self.queues[src], key=lambda task: self.age[task])
            self.queues[src].remove(k)
            self.departed[src] += 1
            moving.append(k)
        if not moving:
            return -1
        arrival = self._arrive(t, self.dist[src][dst], self.per_hop + len(moving) * self.transfer)
        self.in_transit += [(arrival, k, dst) for k in moving]
        if self.cpu:
            self.debt[src] += self.overhead
            self.debt[dst] += self.overhead
        self.transfers += 1
        self.migrated += len(moving)
        self.pushed_until[src] = max(self.pushed_until[src], arrival)
        return arrival

    def begin_slice(self, t):
        """Deliver tasks and roots due at ``t``; return the messages due, in sending order."""
        due = [x for x in self.in_transit if x[0] <= t]
        self.in_transit = [x for x in self.in_transit if x[0] > t]
        for _, k, dst in due:
            self.queues[dst].append(k)
            self.arrived[dst] += 1
        while self.roots and self.release[self.roots[0]] <= t:
            k = self.roots.pop(0)
            self.queues[self.home[k]].append(k)
            self.arrived[self.home[k]] += 1
            self.last_release[self.home[k]] = t
        messages = [m for m in self.messages if m[0] <= t]
        self.messages = [m for m in self.messages if m[0] > t]
        for _, _, dst, _, paid in messages:
            if paid and self.cpu:
                self.debt[dst] += self.overhead
        return messages

    def run_slice(self, t):
        for pe in range(self.pes):
            queue = self.queues[pe]
            if not queue:
                self.idle[pe] += 1
                self.debt[pe] = max(self.debt[pe] - 1.0, 0.0)
                continue
            if self.debt[pe] >= 1.0:
                self.debt[pe] -= 1.0
                continue
            k = queue.pop(0)
            self.left[k] -= 1
            self.age[k] += 1
            spawned = [c for c in self.children[k] if self.spawn_age[c] == self.age[k]]
            queue.extend(spawned)
            self.arrived[pe] += len(spawned)
            if self.left[k]:
                queue.append(k)
            else:
                self.departed[pe] += 1
                self.finish[k] = t + 1

    def run(self, receive, tick):
        """Slices until every task has finished: messages to ``receive``, then ``tick``, then execution."""
        t, limit = 0, 20 * sum(self.life) + 1000
        while None in self.finish:
            if t > limit:
                raise NoEnd(f"no end by slice {limit}: messages starve the PEs")
            for _, src, dst, message, _ in self.begin_slice(t):
                receive(t, src, dst, message)
            tick(t)
            self.run_slice(t)
            t += 1

    def outcome(self):
        return {"finish": self.finish, "messages": self.sent, "transfers": self.transfers,
                "migrated": self.migrated, "idle": self.idle}


class NoEnd(RuntimeError):
    """The run does not end: messages keep the PEs from their tasks."""


def reference_machine(tasks, dist, costs, bus):
    return _Machine(tasks, dist, costs, bus)


def central_dispatcher(tasks, dist, costs, *, bus=False, dispatcher=0, low=1, oldest=False, service=0.0,
                       notify="every_event"):
    """The central job dispatcher (its module docstring); ``service`` > 0: a single FIFO server.

    ``notify="every_event"``: a PE sends one state message per task that arrived
    at it or left it since its last tick, each with its load at the tick;
    ``"coalesced"``: one message when its load differs from the one it last
    reported and none of its state messages is in flight.
    ``tasks`` = (life, parent, spawn_age, home, release) lists; ``dist`` the hop
    matrix (list of lists); ``costs`` as :class:`_Machine`'s. Returns the outcome dict.
    """
    m = reference_machine(tasks, dist, costs, bus)
    table, reported, pending = [0] * m.pes, [-1] * m.pes, [False] * m.pes
    told = [0] * m.pes  # arrivals and departures a PE has sent a state message for
    waiting = []  # service > 0: [kind, PE, load] in arrival order
    busy_until = [0.0]

    def order(t, giver, asker, k):
        give = min(k, m.load(giver) - 1)
        if give > 0:
            m.post(m.migrate(t, giver, asker, give, oldest), giver, asker, ("note", give))
        else:
            m.send(t, giver, asker, ("note", 0))

    def decide(t, asker):
        others = [j for j in range(m.pes) if j != asker]
        richest = max(others, key=lambda j: (table[j], -j)) if others else None
        k = 0 if richest is None else (table[richest] - table[asker]) // 2
        if k >= 1:
            table[richest] -= k
            table[asker] += k
            if richest == dispatcher:
                order(t, richest, asker, k)
            else:
                m.send(t, dispatcher, richest, ("order", asker, k))
        if asker == dispatcher:
            if k == 0:
                pending[asker] = False
        else:
            m.send(t, dispatcher, asker, ("decision", k))

    def handle(t, kind, src, load):
        if kind == "state":
            table[src] = load
        else:
            decide(t, src)

    def serve(t):
        """Each queued message in turn, ``service`` slices each, while the dispatcher is free at t."""
        while waiting and busy_until[0] <= t:
            kind, src, load = waiting.pop(0)
            busy_until[0] = max(busy_until[0], t) + service
            if m.cpu:
                m.debt[dispatcher] += service
            handle(t, kind, src, load)

    def receive(t, src, dst, message):
        kind = message[0]
        if kind in ("state", "request"):
            load = message[1] if kind == "state" else 0
            queued = [w for w in waiting if w[0] == "state" and w[1] == src]
            if service <= 0:
                handle(t, kind, src, load)
            elif kind == "state" and queued:
                queued[0][2] = load  # the newer state replaces the one still waiting
            else:
                waiting.append([kind, src, load])
        elif kind == "order":
            order(t, dst, message[1], message[2])
        elif kind == "decision" and message[1] == 0 or kind == "note":
            pending[dst] = False

    def tick(t):
        serve(t)
        for i in range(m.pes):
            load = m.load(i)
            if i == dispatcher:
                if load != reported[i]:
                    table[i] = reported[i] = load
            elif notify == "every_event":
                events = m.arrived[i] + m.departed[i]
                for _ in range(events - told[i]):
                    m.send(t, i, dispatcher, ("state", load))
                told[i] = events
            elif load != reported[i] and m.out_until[i] <= t:
                m.out_until[i] = m.send(t, i, dispatcher, ("state", load))
                reported[i] = load
            if load <= low and not pending[i]:
                pending[i] = True
                if i == dispatcher:
                    decide(t, i)
                else:
                    m.send(t, i, dispatcher, ("request",))

    m.run(receive, tick)
    return m.outcome()


def rate_of_change(tasks, dist, costs, *, bus=False, high=3, low=1, critical=0, critical_below=False,
                   interval=2, adaptive_interval=False, max_interval=16, nd=None, adaptive_nd=True,
                   nd_weight=0.5, oldest=True, nearest=False, max_forwards=15):
    """Rate of Change (CSSE00 §3.2, its module docstring): When, Where, How many, Which.

    Each PE's source table is a dict {PE: time of its entry}; the "first
    entry" is the nearest (``nearest``) then the most recent, then the first
    PE met going round the machine from the owner. Returns the outcome dict
    with the request count and the three hit counts added.
    """
    m = reference_machine(tasks, dist, costs, bus)
    p = m.pes
    latency, overhead = costs[0], costs[1]
    if nd is None:
        mean_hops = [sum(row) / (p - 1) if p > 1 else 1.0 for row in dist]
        delay = [h * (2 * latency + 4 * overhead) for h in mean_hops]
        delay = [d if d > 0 else 1.0 for d in delay]
    else:
        delay = [nd] * p
    every = [interval] * p
    next_sample = [i % interval for i in range(p)]
    previous = [None] * p
    requests_seen = [0] * p
    sources = [{} for _ in range(p)]
    sinks = [{} for _ in range(p)]
    pending = [None] * p  # (time of the request, PE asked) while a request is pending
    probes = [0] * p
    counts = {"requests": 0, "first_hop": 0, "first_entry": 0, "complete": 0}

    def first_source(i, *skip):
        known = [j for j in sources[i] if j != i and j not in skip]
        if not known:
            return None
        return min(known, key=lambda j: (dist[i][j] if nearest else 0, -sources[i][j], (j - i) % p))

    def request(t, i, amount):
        target = first_source(i)
        if target is None:  # no source known: probe the PEs in turn
            target = (i + 1 + probes[i] % max(p - 1, 1)) % p
            probes[i] += 1
        if target == i:
            return
        pending[i] = (t, target)
        counts["requests"] += 1
        m.send(t, i, target, ("request", i, amount, 0))

    def tick(t):
        for j in range(p):  # the static allocator's mappings
            if m.last_release[j] == t and m.load(j) >= high:
                for i in range(p):
                    if i != j:
                        sources[i][j] = t
        for i in range(p):
            if t < next_sample[i]:
                continue
            load, length = m.load(i), every[i]
            change = 0 if previous[i] is None else load - previous[i]
            previous[i] = load
            if adaptive_interval:
                every[i] = min(max(max_interval, interval), interval * (1 + requests_seen[i]))
                requests_seen[i] = 0
            next_sample[i] = t + every[i]
            if pending[i] is not None or load >= high:
                continue
            predicted = load + change * delay[i] / length  # PL: the load after ND at rate DL
            below_critical = load < critical if critical_below else load <= critical
            if predicted < 0 or below_critical:
                request(t, i, max(1, math.ceil(-predicted)))

    def receive(t, src, dst, message):
        kind = message[0]
        if kind == "request":
            origin, amount, forwards = message[1:]
            sinks[dst][origin] = t
            sources[dst].pop(origin, None)
            if src != origin:
                sources[dst].pop(src, None)
            requests_seen[dst] += 1
            surplus = m.load(dst) - high
            if surplus > 0:
                give = min(amount, surplus)
                m.post(m.migrate(t, dst, origin, give, oldest), dst, origin, ("grant",))
                counts["first_hop"] += forwards == 0
                counts["first_entry"] += forwards == 0 and give == amount
                counts["complete"] += give == amount
                return
            onward = first_source(dst, origin, src) if forwards < max_forwards else None
            if onward is not None:
                m.send(t, dst, onward, ("request", origin, amount, forwards + 1))
            else:
                m.send(t, dst, origin, ("fail",))
        elif kind == "grant":
            asked_at = pending[dst][0]
            pending[dst] = None
            sources[dst][src] = t
            if adaptive_nd:
                delay[dst] += nd_weight * ((t - asked_at) - delay[dst])
        elif kind == "fail":
            asked = pending[dst][1]
            pending[dst] = None
            sources[dst].pop(asked, None)

    m.run(receive, tick)
    return {**m.outcome(), **counts}


def gradient(tasks, dist, costs, *, bus=False, high=3, low=1, interval=4, batch=1, oldest=False,
             periodic=False):
    """The gradient model (Lin & Keller 1987; its module docstring). Returns the outcome dict."""
    m = reference_machine(tasks, dist, costs, bus)
    w_max = max(max(row) for row in dist) + 1
    heard = [dict.fromkeys(m.neighbours[i], w_max) for i in range(m.pes)]
    last_sent = [None] * m.pes

    def tick(t):
        for i in range(m.pes):
            if (t - i) % interval:
                continue
            load = m.load(i)
            lightest = min(m.neighbours[i], key=lambda j: (heard[i][j], j), default=None)
            if load <= low:
                pressure = 0
            elif lightest is None:
                pressure = w_max
            else:
                pressure = min(w_max, 1 + heard[i][lightest])
            if m.out_until[i] <= t and (periodic or pressure != last_sent[i]):
                m.broadcast(t, i, ("pressure", pressure))
                last_sent[i] = pressure
            if (load > high and lightest is not None and heard[i][lightest] < w_max
                    and m.pushed_until[i] <= t):
                m.migrate(t, i, lightest, min(batch, load - high), oldest)

    def receive(t, src, dst, message):
        heard[dst][src] = message[1]

    m.run(receive, tick)
    return m.outcome()


def sender_diffusion(tasks, dist, costs, *, bus=False, high=3, interval=4, oldest=False, periodic=False):
    """Sender-initiated diffusion (Willebeek-LeMair & Reeves 1993; its module docstring)."""
    m = reference_machine(tasks, dist, costs, bus)
    heard = [{} for _ in range(m.pes)]
    last_sent = [None] * m.pes

    def diffuse(t, i):
        load = m.load(i)
        loads = [load] + [heard[i][j] for j in m.neighbours[i] if j in heard[i]]
        average = sum(loads) / len(loads)
        surplus = load - average
        below = [j for j in m.neighbours[i] if j in heard[i] and heard[i][j] < average]
        deficit = sum(average - heard[i][j] for j in below)
        if surplus < 1 or deficit <= 0:
            return
        for j in below:
            share = math.floor(surplus * (average - heard[i][j]) / deficit + 1e-9)
            if share > 0 and m.migrate(t, i, j, share, oldest) >= 0:
                heard[i][j] += share

    def tick(t):
        for i in range(m.pes):
            if (t - i) % interval:
                continue
            if m.out_until[i] <= t and (periodic or m.load(i) != last_sent[i]):
                m.broadcast(t, i, ("load", m.load(i)))
                last_sent[i] = m.load(i)
            if m.load(i) > high and m.pushed_until[i] <= t:
                diffuse(t, i)

    def receive(t, src, dst, message):
        heard[dst][src] = message[1]

    m.run(receive, tick)
    return m.outcome()


def _oldest(params) -> bool:
    return params.which == "oldest"


def _periodic(params) -> bool:
    return params.exchange == "periodic"


class NotModelled(ValueError):
    """A parameter value the reference does not model (the comparison skips that example)."""


@reference("rate_of_change")
def _rate_of_change(tasks, dist, costs, bus, params):
    """Rate of Change with the policy's parameters; the options of the Where phase's sources and of
    load carried in messages only at their defaults (the reference does not model the others)."""
    if params.source_rule != "at_or_above" or params.load_in_messages:
        raise NotModelled("the Rate of Change reference models source_rule=at_or_above and "
                          "load_in_messages=false only")
    return rate_of_change(tasks, dist, costs, bus=bus, high=params.high_threshold, low=params.low_threshold,
                          critical=params.critical_threshold, critical_below=params.critical_rule == "below",
                          interval=params.interval, adaptive_interval=params.adaptive_interval,
                          max_interval=params.max_interval, nd=params.nd, adaptive_nd=params.adaptive_nd,
                          nd_weight=params.nd_weight, oldest=_oldest(params),
                          nearest=params.table_order == "nearest", max_forwards=params.max_forwards)


@reference("gradient")
def _gradient(tasks, dist, costs, bus, params):
    return gradient(tasks, dist, costs, bus=bus, high=params.high_threshold, low=params.low_threshold,
                    interval=params.interval, batch=params.batch, oldest=_oldest(params),
                    periodic=_periodic(params))


@reference("sender_diffusion")
def _sender_diffusion(tasks, dist, costs, bus, params):
    return sender_diffusion(tasks, dist, costs, bus=bus, high=params.high_threshold, interval=params.interval,
                            oldest=_oldest(params), periodic=_periodic(params))


@reference("central_dispatcher")
def _central_dispatcher(tasks, dist, costs, bus, params):
    return central_dispatcher(tasks, dist, costs, bus=bus, dispatcher=params.dispatcher,
                              low=params.low_threshold, oldest=_oldest(params), service=params.service,
                              notify=params.notify)
