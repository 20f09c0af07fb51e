"""Closed forms of the dispatch family (SH00 §3.3, Appendix A; docs/model-notes.md §3).

Slowdown here is response time / service time, so it is at least 1: the
``+1`` is included. (docs/model-notes.md §3's check values, e.g. Random 2091 on the
C90 reconstruction at ρ = 0.5, are ``E[W]·E[1/X]`` *without* the +1; see
``tests/dispatch/test_analytic.py``.)

Every function returns a complete summary dict of the family's variables,
with NaN where a variable has no formula and ``jobs = 0``. A saturated point
(a host's load ≥ 1) has infinite means.
"""

from __future__ import annotations

import math

import numpy as np

from sweep.families import Point
from sweep.families.dispatch._workload import Workload

#: Scalar variables with a formula somewhere; the rest of a summary is NaN.
_SCALARS = ("mean_response", "mean_wait", "mean_slowdown", "var_slowdown")


def empty_summary(hosts: int, load: float) -> dict[str, object]:
    """The summary of a policy without a closed form: only utilization and saturation.

    Round-Robin makes each host an E_h/G/1 queue, which has no closed form for
    general G (SH00 §3.3); Shortest-Queue has none either.
    """
    summary: dict[str, object] = dict.fromkeys(_SCALARS, math.nan)
    summary.update(
        mean_response_hw90=math.nan, mean_slowdown_hw90=math.nan,
        utilization=min(load, 1.0), jobs=0, saturated=load >= 1.0,
        host_load_fraction=np.full(hosts, math.nan), host_job_fraction=np.full(hosts, math.nan),
        host_mean_slowdown=np.full(hosts, math.nan),
    )
    return summary


def pk_hosts(rate: float, moments: dict[int, np.ndarray]) -> dict[str, object]:
    """Independent M/G/1 FCFS hosts fed by one Poisson stream of rate ``rate``.

    ``moments[k][i] = E[X^k ; job goes to host i]`` for k = 0 (the host's job
    fraction p_i), 1, 2, 3, −1, −2. Host i is M/G/1 with rate ``λ p_i`` and
    sizes ``X | host i``, so (SH00 Theorem 1, Pollaczek–Khinchine; Takács
    for the second moment):

    - ``ρ_i = λ E[X;i]``, ``E[W_i] = λ E[X²;i] / (2(1 − ρ_i))``,
    - ``E[W_i²] = 2 E[W_i]² + λ E[X³;i] / (3(1 − ρ_i))``,
    - slowdown ``S = 1 + W/X`` with W independent of the job's own X:
      ``E[S_i] = 1 + E[W_i] E[1/X | i]``,
      ``E[S_i²] = 1 + 2 E[W_i] E[1/X | i] + E[W_i²] E[1/X² | i]``.

    Means over all jobs weight host i by p_i. Used by Random (Bernoulli
    splitting: every host sees all of X, p_i = 1/h) and by SITA-* (host i sees
    the sizes in its interval).
    """
    p, m1, m2, m3 = moments[0], moments[1], moments[2], moments[3]
    load = rate * m1
    saturated = bool(np.any(load >= 1.0))
    used = p > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(used, rate * m2 / (2.0 * (1.0 - load)), 0.0)
        wait2 = np.where(used, 2.0 * wait**2 + rate * m3 / (3.0 * (1.0 - load)), 0.0)
        inverse = np.where(used, moments[-1] / p, math.nan)
        inverse2 = np.where(used, moments[-2] / p, math.nan)
        slowdown = 1.0 + wait * inverse
        slowdown2 = 1.0 + 2.0 * wait * inverse + wait2 * inverse2
    mean_slowdown = float(np.sum(p[used] * slowdown[used]))
    summary = empty_summary(len(p), float(np.sum(load) / len(p)))
    summary.update(
        utilization=float(np.mean(np.minimum(load, 1.0))),
        saturated=saturated,
        host_load_fraction=m1 / m1.sum(),
        host_job_fraction=p / p.sum(),
        host_mean_slowdown=np.where(load < 1.0, slowdown, math.inf),
    )
    if saturated:
        summary.update(dict.fromkeys(_SCALARS, math.inf))
        return summary
    mean_wait = float(np.sum(p * wait))
    summary.update(
        mean_wait=mean_wait,
        mean_response=mean_wait + float(m1.sum()),
        mean_slowdown=mean_slowdown,
        var_slowdown=float(np.sum(p[used] * slowdown2[used])) - mean_slowdown**2,
    )
    return summary


def random_split(point: Point, workload: Workload) -> dict[str, object]:
    """Random assignment (Bernoulli splitting): every host an M/G/1 queue at rate λ/h (P-K)."""
    hosts = int(point.system["hosts"])
    moments = {k: np.full(hosts, workload.sizes.moment(k) / hosts) for k in (0, 1, 2, 3, -1, -2)}
    return pk_hosts(workload.rate(point.load, hosts), moments)


def erlang_c(servers: int, offered: float) -> float:
    """Erlang-C probability that an arrival waits in M/M/h (``offered = λ E[X] = ρ h``).

    Via the Erlang-B recursion ``B_k = a B_{k-1} / (k + a B_{k-1})`` and
    ``C = B / (1 − ρ (1 − B))``, stable for any h.
    """
    blocking = 1.0
    for k in range(1, servers + 1):
        blocking = offered * blocking / (k + offered * blocking)
    load = offered / servers
    return blocking / (1.0 - load * (1.0 - blocking))


def mgh_approximation(point: Point, workload: Workload) -> dict[str, object]:
    """M/G/h FCFS (Least-Work-Left = Central-Queue, SH00 §3.3; docs/model-notes.md §3).

    ``E[Q_{M/G/h}] ≈ E[Q_{M/M/h}] · E[X²] / (2 E[X]²)`` with
    ``E[Q_{M/M/h}] = P_Q ρ / (1 − ρ)`` and Erlang-C ``P_Q``. The seed prints the
    factor without the ½; with it the approximation is exact for h = 1
    (Pollaczek–Khinchine) and for exponential sizes (M/M/h), and reproduces the
    paper's ratios (docs/model-notes.md §3). Then ``E[W] = E[Q]/λ`` (Little) and,
    since a job's wait does not depend on its own size,
    ``E[S] = 1 + E[W] E[1/X]``. Variance and per-host values: NaN (the per-host
    split depends on tie-breaking).
    """
    hosts, load, sizes = int(point.system["hosts"]), float(point.load), workload.sizes
    summary = empty_summary(hosts, load)
    if load >= 1.0:
        summary.update(dict.fromkeys(_SCALARS, math.inf))
        return summary
    m1, m2 = sizes.mean, sizes.moment(2)
    queue = erlang_c(hosts, load * hosts) * load / (1.0 - load) * m2 / (2.0 * m1**2)
    wait = queue / workload.rate(load, hosts)
    summary.update(mean_wait=wait, mean_response=wait + m1,
                   mean_slowdown=1.0 + wait * sizes.moment(-1))
    return summary
