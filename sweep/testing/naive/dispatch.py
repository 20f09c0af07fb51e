"""Slow, obvious references for the dispatch policies (SH00 §1.2).

An event-driven simulation with Python objects: a heap of arrival and
departure events, a FCFS queue (deque) per host, and for Central-Queue one
queue at the dispatcher from which a host pulls when it frees. The policies
read that state the way the paper words them (fewest jobs, least remaining
work, ...). Nothing is shared with ``sweep.families.dispatch``: these exist
to be read and trusted, and the kernels must match them job for job.

What a policy does is its host rule, registered under its name with
:func:`sweep.testing.naive.reference`: ``rule(view, job, now) -> host``, called at
every arrival with a :class:`View` of the hosts; Central-Queue, whose jobs wait at
the dispatcher, registers :data:`CENTRAL_QUEUE`, the loop's own case. A plugin's
dispatch policy registers its rule in its own module (docs/plugins.md).

Conventions the kernels share: at equal times departures come before
arrivals (a job leaving at t is gone for a job arriving at t); ties between
hosts go to the lowest index, except that Central-Queue hands a job to the
host that has been idle longest (ties: lowest index).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sweep.testing.naive import REFERENCES, reference

__all__ = ["CENTRAL_QUEUE", "View", "simulate", "summary"]

ARRIVAL, DEPARTURE = 1, 0  # departures sort first at equal times
#: The reference of a policy whose jobs wait at the dispatcher until a host frees (Central-Queue).
CENTRAL_QUEUE = "jobs wait at the dispatcher"


@dataclass
class View:
    """What a rule reads: the hosts' queues and the policy's inputs.

    ``hosts`` the number of hosts; ``size`` every job's size; ``cutoffs`` SITA's size cutoffs;
    ``draws`` the uniforms of the policy's random stream, in job order; ``params`` the policy's
    parameters (its parameter dataclass)."""

    hosts: int
    size: list[float]
    cutoffs: tuple[float, ...]
    draws: list[float] | None
    params: Any
    servers: list

    def jobs_at(self, h: int) -> int:
        """Jobs at host ``h``, waiting and in service."""
        return len(self.servers[h].queue) + (self.servers[h].serving is not None)

    def work_left(self, h: int, now: float) -> float:
        """Work host ``h`` has left at ``now``: the rest of its job in service and its queue's."""
        server = self.servers[h]
        if server.serving is None:
            return 0.0
        return (server.busy_until - now) + sum(self.size[q] for q in server.queue)

    def idle_since(self, h: int) -> float | None:
        """When host ``h`` last became idle (0 if it never served), ``None`` while it is busy."""
        return None if self.servers[h].serving is not None else self.servers[h].idle_since


@reference("random")
def _random(view: View, job: int, now: float) -> int:
    return int(view.draws[job] * view.hosts)


@reference("round_robin")
def _round_robin(view: View, job: int, now: float) -> int:
    return job % view.hosts


@reference("shortest_queue")
def _shortest_queue(view: View, job: int, now: float) -> int:
    return min(range(view.hosts), key=lambda k: (view.jobs_at(k), k))


@reference("lwl")
def _lwl(view: View, job: int, now: float) -> int:
    return min(range(view.hosts), key=lambda k: (view.work_left(k, now), k))


@reference("sita_e", "sita_u_opt", "sita_u_fair", "sita_u_rule")
def _size_interval(view: View, job: int, now: float) -> int:
    return sum(1 for c in view.cutoffs if view.size[job] > c)


reference("central_queue")(CENTRAL_QUEUE)


class _Host:
    def __init__(self) -> None:
        self.queue: deque[int] = deque()  # waiting jobs, FCFS
        self.serving: int | None = None
        self.busy_until = 0.0  # end of the job in service (meaningful while serving)
        self.idle_since = 0.0


def simulate(policy: str, arrival: Sequence[float], size: Sequence[float], hosts: int, *,
             cutoffs: tuple[float, ...] = (), draws: Sequence[float] | None = None,
             params: Any = None) -> tuple[list, list, list]:
    """Start time, end time and host of every job, in arrival order.

    ``cutoffs``: SITA's size cutoffs (host i serves sizes in (c_{i-1}, c_i]);
    ``draws``: the uniforms of Random (job j: host floor(h U_j)) and of power-of-d
    (job j samples the hosts floor(h U) of ``draws[j d : (j + 1) d]``); ``params``: the
    policy's parameters. ``LookupError`` for a policy with no registered rule.
    """
    rule = REFERENCES[policy]
    at_dispatcher = rule is CENTRAL_QUEUE
    arrival, size = list(arrival), list(size)
    draws = None if draws is None else list(draws)
    n = len(arrival)
    start, end, host_of = [None] * n, [None] * n, [None] * n
    servers = [_Host() for _ in range(hosts)]
    view = View(hosts, size, cutoffs, draws, params, servers)
    central: deque[int] = deque()
    events = [(arrival[j], ARRIVAL, j) for j in range(n)]
    heapq.heapify(events)

    def begin(h: int, job: int, now: float) -> None:
        server = servers[h]
        server.serving = job
        start[job], end[job], host_of[job] = now, now + size[job], h
        server.busy_until = end[job]
        heapq.heappush(events, (end[job], DEPARTURE, h))

    while events:
        now, kind, who = heapq.heappop(events)
        if kind == DEPARTURE:
            server = servers[who]
            server.serving = None
            server.idle_since = now
            if at_dispatcher:
                if central:
                    begin(who, central.popleft(), now)
            elif server.queue:
                begin(who, server.queue.popleft(), now)
            continue
        job = who
        if at_dispatcher:
            idle = [h for h in range(hosts) if servers[h].serving is None]
            if idle and not central:
                begin(min(idle, key=lambda h: (servers[h].idle_since, h)), job, now)
            else:
                central.append(job)
            continue
        h = rule(view, job, now)
        if servers[h].serving is None:
            begin(h, job, now)
        else:
            servers[h].queue.append(job)
    return start, end, host_of


def summary(arrival, size, start, end, host, hosts: int, warmup: int) -> dict:
    """The measured statistics of jobs ``warmup ..``, straight from their definitions."""
    measured = range(warmup, len(arrival))
    response = [end[j] - arrival[j] for j in measured]
    slowdown = [(end[j] - arrival[j]) / size[j] for j in measured]
    m = len(response)
    mean_slowdown = sum(slowdown) / m
    t0, t1 = arrival[warmup], arrival[-1]
    busy = sum(max(0.0, min(end[j], t1) - max(start[j], t0)) for j in range(len(arrival)))
    work = [sum(size[j] for j in measured if host[j] == h) for h in range(hosts)]
    return {
        "mean_response": sum(response) / m,
        "mean_wait": sum(start[j] - arrival[j] for j in measured) / m,
        "mean_slowdown": mean_slowdown,
        "var_slowdown": sum((s - mean_slowdown) ** 2 for s in slowdown) / (m - 1) if m > 1
        else math.nan,
        "utilization": busy / (hosts * (t1 - t0)) if t1 > t0 else math.nan,
        "jobs": m,
        "host_load_fraction": [w / sum(work) for w in work],
        "host_job_fraction": [sum(1 for j in measured if host[j] == h) / m for h in range(hosts)],
    }
