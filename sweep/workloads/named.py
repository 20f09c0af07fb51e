"""Named service-time workloads of Schroeder & Harchol-Balter (SH00; docs/model-notes.md §3).

The PSC C90 and J90 traces are not public, so ``c90`` and ``j90`` are
**reconstructions**: distributions fitted to the statistics the paper prints.
The CTC workload is the real trace (``trace_sizes``).
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sweep.workloads.distributions import (
    BoundedPareto,
    Mixture,
    TruncatedLognormal,
    _require,
)
from sweep.workloads.traces import read_trace

__all__ = [
    "C90_PARAMETERS",
    "CTC_MAX_RUN_TIME",
    "J90_PARAMETERS",
    "PACKAGE_ROOT",
    "TraceSizes",
    "c90",
    "j90",
    "j90_refitted",
    "lognormal_pareto",
    "resolve_trace_path",
    "trace_sizes",
]

#: The package's folder (in a source checkout or a wheel): the shipped traces are under its
#: ``data/traces`` (package data), so relative trace paths are looked up there.
PACKAGE_ROOT = Path(__file__).resolve().parents[1]

#: docs/model-notes.md §3, reconstructed: published mean 4562.6 s, C² 43.16, min 1,
#: max 2,222,749, 98.7% of jobs below the 2-host SITA-E cutoff,
#: E[X²|host 1] 4.5e7, E[X²|host 2] 6.5e10, E[X²] 9.2e8.
C90_PARAMETERS: dict[str, float] = {
    "tail_weight": 0.01346,
    "mu": 5.8861,
    "sigma": 2.1763,
    "lo": 1.0,
    "k": 69190.0,
    "p": 2222749.0,
    "alpha": 1.5233,
}

#: Fitted here (see :func:`j90`): published mean 9448.6 s, C² 10.02, min 4, max 618,532.
J90_PARAMETERS: dict[str, float] = {
    "tail_weight": 0.038594,
    "mu": 7.2058,
    "sigma": 2.1763,
    "lo": 4.0,
    "k": 57519.0,
    "p": 618532.0,
    "alpha": 1.5233,
}


def lognormal_pareto(
    tail_weight: float, mu: float, sigma: float, lo: float, k: float, p: float, alpha: float
) -> Mixture:
    """Lognormal body on ``[lo, k]`` plus bounded-Pareto tail on ``[k, p]`` (docs/model-notes.md §3).

    With probability ``1 - tail_weight``, ``X`` is lognormal(``mu``, ``sigma``)
    truncated to ``[lo, k]``; otherwise bounded Pareto ``B(k, p, alpha)``. The
    shape of both reconstructed PSC workloads.
    """
    name = "lognormal_pareto"
    _require(0 <= tail_weight <= 1, name, "tail_weight", "in [0, 1]", tail_weight)
    _require(0 <= lo < k, name, "k", f"> lo = {lo}", k)
    _require(k < p, name, "p", f"> k = {k}", p)
    return Mixture(
        [1.0 - tail_weight, tail_weight],
        [TruncatedLognormal(mu, sigma, lo, k), BoundedPareto(k, p, alpha)],
    )


def c90() -> Mixture:
    """The reconstructed PSC C90 job-size distribution (docs/model-notes.md §3; SH00, Table 1).

    **Reconstruction**, not the trace: with probability 0.98654 a lognormal
    (mu 5.8861, sigma 2.1763) truncated to [1, 69190], otherwise a bounded Pareto
    (k 69190, p 2,222,749, alpha 1.5233). The junction 69190 is the 2-host
    SITA-E cutoff, so each part reproduces one host's published statistics.
    Measured here: mean 4562.7 s (published 4562.6), C² 43.16 (43.16), cutoff
    69190.7 with 98.654% of jobs below it (98.7%), E[X²|host 1] 4.50e7 (4.5e7),
    E[X²|host 2] 6.50e10 (6.5e10), E[X²] 9.19e8 (9.2e8). ``E[1/X]`` = 0.0208 is
    pinned by no published number, so absolute slowdowns are uncertain.
    """
    return lognormal_pareto(**C90_PARAMETERS)


def j90() -> Mixture:
    """A fitted PSC J90 job-size distribution (SH00, Table 1): a **reconstruction**.

    Published: 3582 jobs, mean 9448.6 s, min 4, max 618,532, C² 10.02; nothing
    else. Fitted "the same way" as :func:`c90`: a lognormal body truncated to
    ``[4, k]`` (the published min) and a bounded-Pareto tail on ``[k, 618532]``
    (the published max). Two statistics cannot pin five parameters, so three
    assumptions are made, each borrowed from the C90 reconstruction:

    - ``sigma = 2.1763`` and ``alpha = 1.5233`` (same centre, same kind of users);
    - the junction ``k`` is the 2-host SITA-E cutoff, i.e. the tail carries half
      the load, which fixes ``tail_weight = m_body / (m_body + m_tail)``.

    Then ``mu`` and ``k`` were solved (``scipy.optimize.fsolve`` on log mean and
    log C²): ``mu = 7.2058``, ``k = 57519``, ``tail_weight = 0.038594`` (3.9% of
    jobs carry half the load; C90: 1.3%). Measured: mean 9448.5 s, C² 10.020,
    support [4, 618532], median 1346 s, E[X²] 9.84e8, ``E[1/X]`` = 0.00552.
    Unpinned, hence uncertain: the median, ``E[1/X]`` (absolute slowdowns), the
    tail share and the SITA cutoffs; ratios between policies are more robust.
    """
    return lognormal_pareto(**J90_PARAMETERS)


#: SH00 Table 1's J90 mean (s) and C², the targets of :func:`j90`'s fit (its min and max are
#: ``J90_PARAMETERS``'s ``lo`` and ``p``).
J90_PRINTED: dict[str, float] = {"mean": 9448.6, "scv": 10.02}


def j90_refitted(sigma: float = J90_PARAMETERS["sigma"], alpha: float = J90_PARAMETERS["alpha"]
                 ) -> Mixture:
    """:func:`j90` fitted again under other borrowed shapes: a **reconstruction**.

    ``sigma`` and ``alpha`` are two of the three assumptions :func:`j90` borrows
    from the C90; the third is kept (the junction ``k`` is the 2-host SITA-E
    cutoff: the tail carries half the load, ``tail_weight = m_body / (m_body +
    m_tail)``). ``mu`` and ``k`` are solved so that the mean and C² are SH00's
    printed 9448.6 s and 10.02 (Table 1), on ``[4, 618532]`` as printed: only
    what SH00 leaves open moves (the median, ``E[1/X]``, the tail's share). At
    the borrowed values it is :func:`j90` (its ``mu``, ``k`` and ``tail_weight``
    to their printed digits). For the sensitivity of SH00's J90 claims
    (``sweep/papers/sh00/claims.yaml``); ``workload=j90_refit`` in a config.
    """
    return lognormal_pareto(**_j90_fit(float(sigma), float(alpha)))


@functools.cache
def _j90_fit(sigma: float, alpha: float) -> dict[str, float]:
    """The parameters of :func:`j90_refitted` (``scipy.optimize.fsolve`` on log mean and log C²)."""
    from scipy.optimize import fsolve

    def parameters(mu: float, k: float) -> dict[str, float]:
        lo, p = J90_PARAMETERS["lo"], J90_PARAMETERS["p"]
        body = TruncatedLognormal(mu, sigma, lo, k).mean
        tail = BoundedPareto(k, p, alpha).mean
        return {"tail_weight": body / (body + tail), "mu": mu, "sigma": sigma, "lo": lo, "k": k, "p": p,
                "alpha": alpha}

    def residuals(x: np.ndarray) -> list[float]:
        fitted = lognormal_pareto(**parameters(x[0], math.exp(x[1])))
        return [math.log(fitted.mean / J90_PRINTED["mean"]), math.log(fitted.scv / J90_PRINTED["scv"])]

    start = [J90_PARAMETERS["mu"], math.log(J90_PARAMETERS["k"])]
    (mu, log_k), _, solved, message = fsolve(residuals, start, full_output=True, xtol=1e-12)
    if solved != 1 or max(abs(r) for r in residuals(np.array([mu, log_k]))) > 1e-9:
        raise ValueError(f"j90_refit: no J90 with sigma={sigma}, alpha={alpha} has SH00's mean and C² "
                         f"({message.strip()})")
    return parameters(float(mu), math.exp(log_k))


class TraceSizes(NamedTuple):
    """Service requirements taken from a trace, and the jobs left out.

    ``dropped``: jobs with an unknown or zero run time; ``over_limit``: jobs
    that ran longer than the center's runtime limit (``max_run_time``).
    """

    sizes: np.ndarray
    dropped: int
    over_limit: int = 0


#: The CTC SP2's runtime limit: "users are told jobs will be killed after 12 hours" (SH00 §2.1).
CTC_MAX_RUN_TIME = 43_200.0


def resolve_trace_path(path: str | os.PathLike) -> Path:
    """Where a trace or graph file named in a config is.

    ``path`` itself if absolute or present relative to the working folder; else the
    shipped file: under the package (``data/traces/KTH...``) or beside it
    (``sweep/data/task_graphs/...``), in a source checkout and in an installed wheel
    alike. A path found nowhere is returned under the package, for the caller's
    one-line error.
    """
    candidate = Path(path)
    if candidate.is_absolute() or candidate.exists():
        return candidate.resolve()
    for root in (PACKAGE_ROOT, PACKAGE_ROOT.parent):
        if (root / candidate).exists():
            return root / candidate
    return PACKAGE_ROOT / candidate


def trace_sizes(path: str | os.PathLike, processors: int = 8,
                max_run_time: float = math.inf) -> TraceSizes:
    """Run times of the jobs that ran on exactly ``processors`` processors (SH00, §2.1, §4).

    Schroeder & Harchol-Balter take the CTC SP2 log's jobs that used 8
    processors, with the run time (SWF field 4) as the service requirement
    (SH00 §2.1, footnote 2). Selection is by allocated processors (field 5; CTC
    has no requested counts). Jobs with run time <= 0 (unknown or zero) are
    dropped and counted (``dropped``); so are jobs that ran longer than
    ``max_run_time`` seconds (``over_limit``), the center's runtime limit:
    at CTC "users are told jobs will be killed after 12 hours" (§2.1), and the
    log still holds 191 8-processor jobs that ran longer (up to 68,868 s).
    Sizes keep trace order.

    Measured on ``CTC-SP2-1996-3.1-cln`` (the archive's cleaned v3.1), 8
    processors, with ``max_run_time = 43200`` (12 hours, ``conf/workload/ctc.yaml``):
    5729 jobs, mean 2903.6 s, max 43138 s, C² 5.426 (5.427 with n − 1),
    submitted July 1996 – May 1997: the paper's table (5729 jobs, mean 2903.6,
    max 43138, C² 5.42, July 1996 – May 1997) except its min, 1 s (2 s here).
    Without the limit: 5920 jobs, mean 4584.9 s, C² 6.23, max 68868 s.
    """
    trace = read_trace(resolve_trace_path(path))
    run_times = trace.run_time[trace.allocated_procs == processors]
    positive = run_times > 0
    within = run_times <= max_run_time
    return TraceSizes(sizes=run_times[positive & within], dropped=int((~positive).sum()),
                      over_limit=int((positive & ~within).sum()))
