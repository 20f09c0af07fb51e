"""Slow, obvious references for the dispatch policies (SH00 §1.2).

An event-driven simulation with Python objects: a heap of arrival and
departure events, a FCFS queue (deque) per host, and for Central-Queue one
queue at the dispatcher from which a host pulls when it frees. The policies
read that state the way the paper words them (fewest jobs, least remaining
work, ...). Nothing is shared with ``sweep.families.dispatch``: these exist
to be read and trusted, and the kernels must match them job for job.

Conventions the kernels share: at equal times departures come before
arrivals (a job leaving at t is gone for a job arriving at t); ties between
hosts go to the lowest index, except that Central-Queue hands a job to the
host that has been idle longest (ties: lowest index).
"""

from __future__ import annotations

import heapq
import math
from collections import deque

ARRIVAL, DEPARTURE = 1, 0  # departures sort first at equal times
#: The policies these references implement.
POLICIES = ("random", "round_robin", "shortest_queue", "lwl", "central_queue", "sita_e", "sita_u_opt",
            "sita_u_fair", "sita_u_rule", "power_of_d")


class _Host:
    def __init__(self) -> None:
        self.queue: deque[int] = deque()  # waiting jobs, FCFS
        self.serving: int | None = None
        self.busy_until = 0.0  # end of the job in service (meaningful while serving)
        self.idle_since = 0.0


def simulate(policy: str, arrival: list[float], size: list[float], hosts: int, *,
             cutoffs: tuple[float, ...] = (), draws: list[float] | None = None, d: int = 2):
    """Start time, end time and host of every job, in arrival order.

    ``cutoffs``: SITA's size cutoffs (host i serves sizes in (c_{i-1}, c_i]);
    ``draws``: the uniforms of Random (job j: host floor(h U_j)) and of power-of-d
    (job j samples the hosts floor(h U) of ``draws[j d : (j + 1) d]``).
    """
    n = len(arrival)
    start, end, host_of = [None] * n, [None] * n, [None] * n
    servers = [_Host() for _ in range(hosts)]
    central: deque[int] = deque()
    events = [(arrival[j], ARRIVAL, j) for j in range(n)]
    heapq.heapify(events)

    def begin(h: int, job: int, now: float) -> None:
        server = servers[h]
        server.serving = job
        start[job], end[job], host_of[job] = now, now + size[job], h
        server.busy_until = end[job]
        heapq.heappush(events, (end[job], DEPARTURE, h))

    def jobs_at(h: int) -> int:
        return len(servers[h].queue) + (servers[h].serving is not None)

    def work_left(h: int, now: float) -> float:
        server = servers[h]
        if server.serving is None:
            return 0.0
        return (server.busy_until - now) + sum(size[q] for q in server.queue)

    while events:
        now, kind, who = heapq.heappop(events)
        if kind == DEPARTURE:
            server = servers[who]
            server.serving = None
            server.idle_since = now
            if policy == "central_queue":
                if central:
                    begin(who, central.popleft(), now)
            elif server.queue:
                begin(who, server.queue.popleft(), now)
            continue
        job = who
        if policy == "central_queue":
            idle = [h for h in range(hosts) if servers[h].serving is None]
            if idle and not central:
                begin(min(idle, key=lambda h: (servers[h].idle_since, h)), job, now)
            else:
                central.append(job)
            continue
        if policy == "random":
            h = int(draws[job] * hosts)
        elif policy == "round_robin":
            h = job % hosts
        elif policy == "power_of_d":
            sampled = [int(u * hosts) for u in draws[job * d:(job + 1) * d]]
            h = min(sampled, key=lambda k: jobs_at(k))  # min keeps the first sampled among equals
        elif policy == "shortest_queue":
            h = min(range(hosts), key=lambda k: (jobs_at(k), k))
        elif policy == "lwl":
            h = min(range(hosts), key=lambda k: (work_left(k, now), k))
        elif policy.startswith("sita"):
            h = sum(1 for c in cutoffs if size[job] > c)
        else:
            raise ValueError(policy)
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
