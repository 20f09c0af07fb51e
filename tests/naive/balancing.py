"""Slow, obvious references for the balancing family: no balancing and the central dispatcher.

Plain Python lists: each PE's round-robin queue is a list, the running task
is taken from the front and put back at the end after the tasks it spawned
in that slice. Nothing shared with ``sweep.families.balancing``: the kernel
must match it slice for slice (every task's completion time).
"""

from __future__ import annotations

import math


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
    """PEs, queues and the network of the reference, as lists (the family's core docstring)."""

    def __init__(self, tasks, dist, latency, overhead, transfer, cpu, bus):
        life, parent, spawn_age, home, release = tasks
        self.n, self.pes = len(life), len(dist)
        self.life, self.home, self.release = life, home, release
        self.children = {k: sorted((c for c in range(self.n) if parent[c] == k),
                                   key=lambda c: (spawn_age[c], c)) for k in range(self.n)}
        self.spawn_age = spawn_age
        self.roots = sorted((k for k in range(self.n) if parent[k] < 0), key=lambda k: (release[k], k))
        self.dist, self.cpu, self.bus = dist, cpu, bus
        self.per_hop = latency + 2 * overhead
        self.overhead, self.transfer = overhead, transfer
        self.queues = [[] for _ in range(self.pes)]
        self.left, self.age = list(life), [0] * self.n
        self.finish = [None] * self.n
        self.debt = [0.0] * self.pes
        self.idle = [0] * self.pes
        self.out_until = [-1] * self.pes
        self.bus_free = 0
        self.messages, self.transfers, self.migrated = [], 0, 0
        self.in_transit = []  # (arrival, task, destination), in sending order
        self.sent = 0

    def _arrive(self, t, hops, per_hop):
        if self.bus:
            start = max(t, self.bus_free)
            self.bus_free = start + math.ceil(per_hop - 1e-9)
            return self.bus_free
        return t + math.ceil(hops * per_hop - 1e-9)

    def send(self, t, src, dst, message):
        self.sent += 1
        if self.cpu:
            self.debt[src] += self.overhead
        arrival = self._arrive(t, self.dist[src][dst], self.per_hop)
        self.messages.append((arrival, src, dst, message, True))
        return arrival

    def post(self, arrival, src, dst, message):
        self.messages.append((arrival, src, dst, message, False))

    def migrate(self, t, src, dst, count):
        """The ``count`` youngest tasks by CPU age (the first found from the queue's head)."""
        moving = []
        while len(moving) < count and self.queues[src]:
            k = min(self.queues[src], key=lambda task: self.age[task])
            self.queues[src].remove(k)
            moving.append(k)
        arrival = self._arrive(t, self.dist[src][dst], self.per_hop + len(moving) * self.transfer)
        self.in_transit += [(arrival, k, dst) for k in moving]
        if self.cpu:
            self.debt[src] += self.overhead
            self.debt[dst] += self.overhead
        self.transfers += 1
        self.migrated += len(moving)
        return arrival

    def begin_slice(self, t):
        """Deliver tasks and roots due at ``t``; return the messages due, in sending order."""
        due = [x for x in self.in_transit if x[0] <= t]
        self.in_transit = [x for x in self.in_transit if x[0] > t]
        for _, k, dst in due:
            self.queues[dst].append(k)
        while self.roots and self.release[self.roots[0]] <= t:
            k = self.roots.pop(0)
            self.queues[self.home[k]].append(k)
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
            queue.extend(c for c in self.children[k] if self.spawn_age[c] == self.age[k])
            if self.left[k]:
                queue.append(k)
            else:
                self.finish[k] = t + 1


def central_dispatcher(tasks, dist, *, dispatcher=0, low=1, latency=0.5, overhead=0.25, transfer=0.5,
                       cpu=True, bus=False):
    """The central job dispatcher (its module docstring), youngest tasks moved.

    ``tasks`` = (life, parent, spawn_age, home, release) lists; ``dist`` the hop
    matrix (list of lists). Returns ``(finish, messages sent, transfers, tasks
    migrated, idle slices per PE)``.
    """
    m = _Machine(tasks, dist, latency, overhead, transfer, cpu, bus)
    table, reported, pending = [0] * m.pes, [-1] * m.pes, [False] * m.pes

    def order(t, giver, asker, k):
        give = min(k, len(m.queues[giver]) - 1)
        if give > 0:
            m.post(m.migrate(t, giver, asker, give), giver, asker, ("note", give))
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

    t = 0
    while None in m.finish:
        for _, src, dst, message, _ in m.begin_slice(t):
            kind = message[0]
            if kind == "state":
                table[src] = message[1]
            elif kind == "request":
                decide(t, src)
            elif kind == "order":
                order(t, dst, message[1], message[2])
            elif kind == "decision" and message[1] == 0 or kind == "note":
                pending[dst] = False
        for i in range(m.pes):
            load = len(m.queues[i])
            if load != reported[i]:
                if i == dispatcher:
                    table[i] = reported[i] = load
                elif m.out_until[i] <= t:
                    m.out_until[i] = m.send(t, i, dispatcher, ("state", load))
                    reported[i] = load
            if load <= low and not pending[i]:
                pending[i] = True
                if i == dispatcher:
                    decide(t, i)
                else:
                    m.send(t, i, dispatcher, ("request",))
        m.run_slice(t)
        t += 1
    return m.finish, m.sent, m.transfers, m.migrated, m.idle
