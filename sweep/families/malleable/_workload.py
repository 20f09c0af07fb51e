"""Synthetic malleable-job streams (CV96 §3.2; docs/model-notes.md §1).

A ``kind: malleable`` workload config (``conf/workload/malleable_synthetic.yaml``)
has these options:

- ``parallelism``: ``N_j``, the most processors a job can use. An integer (every
  job), ``dist1`` … ``dist4`` (the bounded-geometric Distributions 1–4 of §3.2.2
  and Figure 4, whose parameters are **reconstructed** in docs/model-notes.md §1), or
  ``max_speedup`` (``N_j = M_j``, eqs. 3/6, rounded, within ``[1, P]``; §4.1).
  ``parallelism_p`` (default null) gives a named distribution another geometric
  ``p`` and re-solves its ``P_Nmax`` so that the demand's overall ``C_W`` stays
  what the named one gives with the same demand options (:func:`refitted`: the
  paper prints ``C_W``, not ``p``).
- ``demand_mean`` (``W̄``, s), ``demand_scv`` (``C²_{W|n}``) and ``demand_growth``
  (``none``, ``n``, ``n2``): ``W | N = n ~ Hyperexp2(m_n, C_{W|n})`` with
  ``m_n ∝ n^k`` (eq. 11). ``demand_normalise: true`` (default, docs/model-notes.md §1)
  takes ``m_n = W̄ n^k / E[N^k]`` so that ``E[W] = W̄``; ``false`` is the paper's
  literal multiplier ``n^k / E[N]^k``.
  ``demand_growth: nasa_ipsc`` (with ``demand_scv: null``) is Distribution 4's
  per-size demand of §4.3, :data:`NASA_IPSC` (**recomputed** from the NASA
  iPSC/860 log, docs/model-notes.md §1), scaled so that ``E[W] = W̄``.
- ``speedup``: a mapping with ``model`` and its parameters (see
  :mod:`sweep.workloads.speedup`): ``linear``; ``eq2`` (``phi``, ``alpha``,
  ``beta``); ``eq5`` (``phi_prime``, ``beta_prime``, ``alpha``, ``beta``; ``beta_prime:
  max`` sets ``β' = (1 − φ')/N_j²``, Figure 6); ``eq8`` (``delta``: a number, or a
  distribution, eq. 12 / Figures 7, 9); ``eq13`` (``c1``, ``c2``: §4.3's eqs. 13–14).
  Random overheads: :mod:`~sweep.families.malleable._overheads`.
- ``arrival_cv`` (default 1): interarrival CV; above 1 a two-stage
  hyperexponential (Figure 10b: 3). ``load_unit`` (default ``rho``): the load
  axis is ``ρ = λW̄/P`` (§4.1), or ``jobs_per_hour`` (Figures 10–11).

Jobs are streamed (:class:`MalleableStream`): every quantity is drawn in fixed
blocks from its own child of the replication's generator, so the stream does
not depend on the policy, the chunk size or the run length (common random
numbers, docs/design.md §4).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

import numpy as np
from scipy import optimize

from sweep.families.malleable._overheads import draw_delta, draw_eq13, validate_delta
from sweep.workloads.distributions import Hyperexp2
from sweep.workloads.parallelism import BoundedGeometric
from sweep.workloads.speedup import Eq2, Eq5, Eq8, Linear, Speedup, beta_prime_at_max
from sweep.workloads.stream import DRAW_BLOCK, BlockStream, accumulate

__all__ = ["NASA_IPSC", "PARALLELISM", "QUANTITIES", "MalleableJobs", "MalleableStream", "arrival_rate",
           "expected_work", "make_jobs", "mean_demand", "validate_workload"]


#: Distributions 1–4 of Chiang & Vernon (1996), Figure 4: the paper prints their shape and means
#: only, so ``p`` and ``p_nmax`` are a reconstruction (fitted to the printed means, E[N] = 13.4 for
#: Distribution 1, and to the overall demand CVs of Figures 6, 7 and 9; tests/malleable/test_workload.py).
PARALLELISM = {
    "dist1": BoundedGeometric(0.3838, 0.0466),
    "dist2": BoundedGeometric(0.30, 0.07),
    "dist3": BoundedGeometric(0.3838, 0.0825),
    "dist4": BoundedGeometric(0.255, 0.0911),
}

_GROWTH = {"none": 0, "n": 1, "n2": 2}


@dataclass(frozen=True)
class LinearOptions:
    """``linear``: ``T(n) = W/n`` (no parameters)."""


@dataclass(frozen=True)
class Eq2Options:
    """``eq2``: Sevcik's ``T(n) = φW/n + α + nβ`` (Chiang & Vernon 1996, eqs. 1–2)."""

    phi: float = 1.0
    alpha: float = 0.0
    beta: float = 0.0


@dataclass(frozen=True)
class Eq5Options:
    """``eq5``: the paper's revision (eqs. 4–5); ``beta_prime: max`` is ``(1 − φ')/N_j²`` (Figure 6)."""

    phi_prime: float = 0.0
    beta_prime: float | str = 0.0
    alpha: float = 0.0
    beta: float = 0.0


@dataclass(frozen=True)
class Eq8Options:
    """``eq8``: ``S(n) = (δ+1)n/(δ+n)``; ``delta`` a number or a distribution (eq. 12, Figures 7, 9)."""

    delta: float | Mapping[str, Any] = 1.0


@dataclass(frozen=True)
class Eq13Options:
    """``eq13``: per-job φ' and β' drawn from the efficiency bounds ``c1``, ``c2`` (§4.3, eqs. 13–14)."""

    c1: float = 0.75
    c2: float = 0.5


#: ``workload.speedup.model`` -> the dataclass of that model's options (their defaults).
SPEEDUP_MODELS: dict[str, type] = {"linear": LinearOptions, "eq2": Eq2Options, "eq5": Eq5Options,
                                   "eq8": Eq8Options, "eq13": Eq13Options}
_SPEEDUP_OPTIONS: dict[str, dict[str, Any]] = {
    model: {f.name: f.default for f in fields(cls)} for model, cls in SPEEDUP_MODELS.items()
}
_OPTIONS = {"name", "kind", "parallelism", "demand_mean", "demand_scv", "demand_growth",
            "demand_normalise", "speedup"}
#: options that may be left out, with their defaults
_OPTIONAL = {"arrival_cv": 1.0, "load_unit": "rho", "parallelism_p": None}
_LOAD_UNITS = ("rho", "jobs_per_hour")

#: Distribution 4's per-size demand (CV96 §4.3, from Feitelson & Nitzberg's Table 2, not
#: available): mean runtime (s) and its CV per job size n, RECOMPUTED from the cleaned NASA Ames
#: iPSC/860 log (docs/model-notes.md §1, whose table it reproduces; subset
#: all_cleaned_log). m_n ∝ n × mean runtime(n), C_{W|n} = CV(n), scaled so that E[W] = W̄.
NASA_IPSC = {  # n: (mean runtime s, CV)
    1: (125.5, 5.552), 2: (577.7, 3.709), 4: (861.4, 4.207), 8: (596.7, 3.527),
    16: (512.5, 3.517), 32: (1211.7, 2.634), 64: (2095.8, 1.895), 128: (2526.5, 1.617),
}


@dataclass(frozen=True)
class MalleableJobs:
    """One job stream as columns, in arrival order: ``T_j(n) = a_j/n + b_j + c_j n``."""

    arrival: np.ndarray
    work: np.ndarray
    parallelism: np.ndarray
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    pws: np.ndarray

    def __len__(self) -> int:
        return self.arrival.size


def _number(cfg: Mapping[str, Any], key: str, prefix: str, lo: float, allowed: str) -> float:
    value = cfg[key]
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value >= lo:
        raise ValueError(f"{prefix}{key} must be {allowed}, got {value!r}")
    return float(value)


def _speedup(cfg: Any, beta_prime: np.ndarray | None = None) -> Speedup:
    """The speedup model of ``workload.speedup``; ``beta_prime`` replaces ``beta_prime: max``."""
    if not isinstance(cfg, Mapping) or cfg.get("model") not in _SPEEDUP_OPTIONS:
        model = cfg.get("model") if isinstance(cfg, Mapping) else cfg
        raise ValueError(f"workload.speedup.model must be one of {list(_SPEEDUP_OPTIONS)}, "
                         f"got {model!r}")
    model, defaults = cfg["model"], _SPEEDUP_OPTIONS[cfg["model"]]
    unknown = sorted(set(cfg) - set(defaults) - {"model"})
    if unknown:
        raise ValueError(f"workload.speedup.{unknown[0]} is not an option of speedup model "
                         f"{model}; allowed: {sorted(defaults)}")
    params = {**defaults, **{k: v for k, v in cfg.items() if k != "model"}}
    if model == "eq8" and not isinstance(params["delta"], numbers.Real | np.ndarray):
        validate_delta(params["delta"])
        params["delta"] = 1.0  # drawn per job by MalleableStream
    if model == "eq13":
        for key in ("c1", "c2"):
            if isinstance(params[key], bool) or not isinstance(params[key], numbers.Real) or \
                    not 0 < params[key] <= 1:
                raise ValueError(f"workload.speedup.{key} must be in (0, 1], got {params[key]!r}")
        return Eq5()  # φ', β' drawn per job by MalleableStream (eqs. 13–14)
    if model == "eq5" and params["beta_prime"] == "max":
        params["beta_prime"] = 0.0 if beta_prime is None else beta_prime
    ranges = {"phi": (1.0, ">= 1"), "phi_prime": (0.0, "in [0, 1]"),
              "beta_prime": (0.0, "in [0, 1] or max")}
    for key in params:
        if isinstance(params[key], np.ndarray):
            continue
        lo, allowed = ranges.get(key, (0.0, ">= 0"))
        params[key] = _number(params, key, "workload.speedup.", lo, allowed)
        if key in ("phi_prime", "beta_prime") and params[key] > 1:
            raise ValueError(f"workload.speedup.{key} must be {allowed}, got {params[key]!r}")
    classes = {"linear": Linear, "eq2": Eq2, "eq5": Eq5, "eq8": Eq8}
    return classes[model](**params)


def _parallelism(cfg: Mapping[str, Any]) -> BoundedGeometric | int | str:
    """The parallelism option: a distribution (refitted where ``parallelism_p`` is given), an
    integer or ``max_speedup`` (the options read are checked by :func:`validate_workload`)."""
    value = cfg.get("parallelism")
    if value in PARALLELISM:
        if cfg.get("parallelism_p") is None:
            return PARALLELISM[value]
        growth = cfg["demand_growth"]
        return refitted(value, float(cfg["parallelism_p"]), growth,
                        None if growth == "nasa_ipsc" else float(cfg["demand_scv"]))
    if value == "max_speedup":
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 1:
        return int(value)
    raise ValueError(f"workload.parallelism must be a positive integer, one of "
                     f"{list(PARALLELISM)}, or max_speedup; got {value!r}")


def overall_scv(parallelism: BoundedGeometric, growth: str, per_size_scv: float | None) -> float:
    """``C_W²``, the squared CV of the demand over all jobs: with per-size mean ``m_n`` (``n^k``, or
    the NASA table's) and squared CV ``C²_{W|n}``, ``E[W] = Σ P(n) m_n`` and
    ``E[W²] = Σ P(n) (1 + C²_{W|n}) m_n²`` (docs/model-notes.md §1; the scale of ``m_n`` cancels)."""
    if growth == "nasa_ipsc":
        mean, cv = _nasa_ipsc(parallelism, 1.0)
        scv = cv**2
    else:
        mean, scv = parallelism.values.astype(np.float64) ** _GROWTH[growth], per_size_scv
    first, second = np.dot(parallelism.pmf, mean), np.dot(parallelism.pmf, (1 + scv) * mean**2)
    return float(second / first**2 - 1)


@cache
def refitted(name: str, p: float, growth: str, per_size_scv: float | None) -> BoundedGeometric:
    """Distribution ``name`` with geometric parameter ``p`` and ``P_Nmax`` re-solved so that
    :func:`overall_scv` is the named distribution's with the same demand (``workload.parallelism_p``).

    CV96 prints ``C_W`` for the workloads of its figures (Figure 7: 6.6 with Distribution 3), not
    ``p``; Distribution 3's ``p`` is Distribution 1's, borrowed (docs/model-notes.md §1). ``C_W``
    need not be monotone in ``P_Nmax``: of the roots on a grid of ``[0, 1]`` (refined by Brent's
    method) the one nearest the named ``P_Nmax`` is taken. ValueError where there is none."""
    named = PARALLELISM[name]
    target = overall_scv(named, growth, per_size_scv)

    def gap(p_nmax: float) -> float:
        candidate = BoundedGeometric(p, p_nmax, named.n_star, named.n_max)
        return overall_scv(candidate, growth, per_size_scv) - target

    grid = np.linspace(0.0, 0.999, 1000)
    gaps = np.array([gap(q) for q in grid])
    brackets = np.flatnonzero(np.sign(gaps[:-1]) != np.sign(gaps[1:]))
    if brackets.size == 0:
        raise ValueError(f"workload.parallelism_p = {p}: no P_Nmax keeps {name}'s C_W = "
                         f"{np.sqrt(target):.3g} with this demand")
    roots = [optimize.brentq(gap, grid[i], grid[i + 1], xtol=1e-12) for i in brackets]
    p_nmax = min(roots, key=lambda q: abs(q - named.p_nmax))
    return BoundedGeometric(p, p_nmax, named.n_star, named.n_max)


def _validate_parallelism_p(cfg: Mapping[str, Any], named: BoundedGeometric | int | str) -> None:
    """``parallelism_p``: null, or a number in (0, 1) beside a named distribution."""
    if cfg.get("parallelism_p") is None:
        return
    if not isinstance(named, BoundedGeometric):
        raise ValueError(f"workload.parallelism_p needs workload.parallelism one of {list(PARALLELISM)}, "
                         f"got {cfg['parallelism']!r}")
    if not 0 < _number(cfg, "parallelism_p", "workload.", 0.0, "in (0, 1)") < 1:
        raise ValueError(f"workload.parallelism_p must be in (0, 1), got {cfg['parallelism_p']!r}")
    if cfg["demand_growth"] == "none":
        raise ValueError("workload.parallelism_p needs demand_growth n, n2 or nasa_ipsc: with none, C_W "
                         "does not depend on the parallelism, so nothing re-solves P_Nmax")


def _beta_at_max(cfg: Mapping[str, Any]) -> bool:
    """Whether ``β' = (1 − φ')/N_j²`` (Figure 6's ``beta_prime: max``)."""
    return cfg["speedup"]["model"] == "eq5" and cfg["speedup"].get("beta_prime") == "max"


@dataclass(frozen=True)
class MalleableWorkload:
    """``kind: malleable``: the options :func:`sweep.families.malleable._workload.validate_workload` reads.

    Synthetic malleable jobs of Chiang & Vernon 1996 §3.2: ``parallelism`` (an
    integer, ``dist1`` … ``dist4`` or ``max_speedup``), the demand's mean, squared
    CV, growth with ``n`` (eq. 11) and normalisation, ``speedup`` (a
    ``workload/speedup`` option), and the optional ``arrival_cv`` and
    ``load_unit`` (Figures 10–11). The family owns the defaults and the checks
    (``defaults_in_code``: the schema leaves every option unset, so a workload's
    stream key is made of what its YAML and the command line give).
    """

    defaults_in_code: ClassVar[bool] = True

    parallelism: int | str
    demand_mean: float
    demand_scv: float | None
    demand_growth: str
    demand_normalise: bool
    speedup: Mapping[str, Any]
    arrival_cv: float = 1.0
    load_unit: str = "rho"
    parallelism_p: float | None = None


def validate_workload(cfg: Mapping[str, Any]) -> None:
    """Raise ValueError (one line naming the option and its allowed values) unless ``cfg`` builds."""
    if cfg.get("kind") != "malleable":
        raise ValueError(f"workload.kind must be malleable for the malleable policies, "
                         f"got {cfg.get('kind')!r}")
    unknown = sorted(set(cfg) - _OPTIONS - set(_OPTIONAL))
    if unknown:
        raise ValueError(f"workload.{unknown[0]} is not an option of workload kind malleable; "
                         f"allowed: {sorted((_OPTIONS | set(_OPTIONAL)) - {'name', 'kind'})}")
    missing = sorted(_OPTIONS - set(cfg) - {"name"})
    if missing:
        raise ValueError(f"workload.{missing[0]} is required for workload kind malleable")
    named = _parallelism({**cfg, "parallelism_p": None})
    _number(cfg, "demand_mean", "workload.", np.finfo(float).tiny, "> 0")
    if cfg["demand_growth"] == "nasa_ipsc":
        if cfg["demand_scv"] is not None:
            raise ValueError(f"workload.demand_scv must be null with demand_growth nasa_ipsc (the "
                             f"per-size CVs come from the table), got {cfg['demand_scv']!r}")
        if not isinstance(named, BoundedGeometric):
            raise ValueError("workload.parallelism must be one of dist1..dist4 with demand_growth "
                             f"nasa_ipsc, got {cfg['parallelism']!r}")
    else:
        _number(cfg, "demand_scv", "workload.", 1.0, ">= 1")
    if cfg["demand_growth"] not in _GROWTH and cfg["demand_growth"] != "nasa_ipsc":
        raise ValueError(f"workload.demand_growth must be one of {[*_GROWTH, 'nasa_ipsc']}, "
                         f"got {cfg['demand_growth']!r}")
    _validate_parallelism_p(cfg, named)
    parallelism = _parallelism(cfg)
    options = {**_OPTIONAL, **cfg}
    if options["load_unit"] not in _LOAD_UNITS:
        raise ValueError(f"workload.load_unit must be one of {list(_LOAD_UNITS)}, "
                         f"got {options['load_unit']!r}")
    _number(options, "arrival_cv", "workload.", 1.0, ">= 1")
    if not isinstance(cfg["demand_normalise"], bool):
        raise ValueError(f"workload.demand_normalise must be true or false, "
                         f"got {cfg['demand_normalise']!r}")
    speedup = _speedup(cfg["speedup"])
    if parallelism == "max_speedup":
        if cfg["demand_growth"] != "none":
            raise ValueError("workload.demand_growth must be none when workload.parallelism is "
                             f"max_speedup, got {cfg['demand_growth']!r}")
        if not np.all(np.isfinite(speedup.maximum(1.0))) or _beta_at_max(cfg):
            raise ValueError("workload.parallelism: max_speedup needs a speedup with a finite "
                             "maximum (eq2 with beta > 0, eq5 with beta_prime or beta > 0)")


def _nasa_ipsc(parallelism: BoundedGeometric, mean_work: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-size mean demand and CV for n = 1, 2, 4, …: :data:`NASA_IPSC` scaled to ``E[W] = W̄``."""
    sizes = parallelism.values
    mean = np.array([n * NASA_IPSC[int(n)][0] for n in sizes])
    cv = np.array([NASA_IPSC[int(n)][1] for n in sizes])
    return mean * mean_work / float(np.dot(parallelism.pmf, mean)), cv


def mean_demand(cfg: Mapping[str, Any]) -> float:
    """``W̄``, the demand that defines the offered load ``ρ = λW̄/P`` (§4.1)."""
    return float(cfg["demand_mean"])


def expected_work(cfg: Mapping[str, Any]) -> float:
    """``E[W]``, the exact mean service demand of the jobs :func:`make_jobs` draws.

    ``W̄`` whenever the demand is normalised (the default, per-size tables, one
    ``N`` for all); with the literal multiplier ``n^k / E[N]^k`` it is
    ``W̄ E[N^k] / E[N]^k``. The known mean that makes the demand a control
    variate (:func:`sweep.stats.controlled_mean`).
    """
    parallelism = _parallelism(cfg)
    if cfg["demand_growth"] == "nasa_ipsc" or cfg["demand_normalise"] or \
            not isinstance(parallelism, BoundedGeometric):
        return mean_demand(cfg)
    k = _GROWTH[cfg["demand_growth"]]
    return mean_demand(cfg) * parallelism.moment(k) / parallelism.moment(1) ** k


def arrival_rate(cfg: Mapping[str, Any], processors: int, load: float) -> float:
    """``λ`` in jobs per second: ``ρP/W̄`` for ``ρ = λW̄/P`` (§4.1), or ``load/3600`` in jobs per hour."""
    if {**_OPTIONAL, **cfg}["load_unit"] == "jobs_per_hour":
        return load / 3600.0
    return load * processors / mean_demand(cfg)


#: The quantities of a malleable job stream, each drawn from its own child of the replication's
#: generator (in this order of ``spawn``), whatever the workload draws of them.
QUANTITIES = ("interarrival", "parallelism", "demand", "overhead", "overhead_second")


class MalleableStream(BlockStream):
    """The jobs of workload ``cfg`` at offered load ``load`` on ``processors``, in any split.

    ``load`` is ``ρ = λW̄/P`` or, with ``load_unit: jobs_per_hour``, ``λ`` in jobs
    per hour (Figures 10–11). Interarrival times are exponential, or with
    ``arrival_cv > 1`` two-stage hyperexponential with that CV (Figure 10b: 3).
    Each of :data:`QUANTITIES` comes from its own child of ``rng`` (``rng.spawn``):
    interarrival times, parallelism, the unit-mean hyperexponential demand
    factors, and the per-job overheads (δ, or φ' then β',
    :mod:`~sweep.families.malleable._overheads`). Drawn in fixed blocks of
    ``DRAW_BLOCK`` jobs (:class:`sweep.workloads.stream.BlockStream`), so job
    ``j`` is the same whatever the chunk size, the run length or the policy
    (common random numbers, docs/design.md §4).
    """

    def __init__(self, cfg: Mapping[str, Any], processors: int, load: float,
                 rng: np.random.Generator) -> None:
        validate_workload(cfg)
        self._cfg, self._processors = cfg, processors
        self._rate = arrival_rate(cfg, processors, load)
        self._rngs = dict(zip(QUANTITIES, rng.spawn(len(QUANTITIES)), strict=True))
        self._clock = 0.0
        super().__init__(self._draw_jobs)

    def jobs(self, count: int) -> MalleableJobs:
        """The next ``count`` jobs."""
        return MalleableJobs(*self.take(count))

    def _draw_jobs(self) -> tuple[np.ndarray, ...]:
        cfg, processors, rngs, count = self._cfg, self._processors, self._rngs, DRAW_BLOCK
        options = {**_OPTIONAL, **cfg}
        if options["arrival_cv"] == 1:
            gaps, scale = rngs["interarrival"].standard_exponential(count), 1.0 / self._rate
        else:
            gaps = Hyperexp2.sample_each(rngs["interarrival"], 1.0 / self._rate,
                                         float(options["arrival_cv"]), count)
            scale = 1.0
        arrival = accumulate(gaps, scale, self._clock)
        self._clock = float(arrival[-1])
        parallelism = _parallelism(cfg)
        if cfg["demand_growth"] == "nasa_ipsc":
            n = parallelism.sizes(rngs["parallelism"], count)
            mean, cv = _nasa_ipsc(parallelism, mean_demand(cfg))
            index = np.log2(n).astype(np.int64)
            work = Hyperexp2.sample_each(rngs["demand"], mean[index], cv[index], count)
        elif isinstance(parallelism, BoundedGeometric):
            n = parallelism.sizes(rngs["parallelism"], count)
            k = _GROWTH[cfg["demand_growth"]]
            scale = parallelism.moment(k) if cfg["demand_normalise"] else parallelism.moment(1) ** k
            mean = mean_demand(cfg) * n.astype(np.float64) ** k / scale
        else:
            # one N for all (or N = M_j, set below): m_n = W̄ n^k / n^k = W̄, normalised or literal
            n = np.full(count, parallelism if isinstance(parallelism, int) else processors, np.int64)
            mean = np.full(count, mean_demand(cfg))
        if cfg["demand_growth"] != "nasa_ipsc":
            work = mean * Hyperexp2(1.0, float(cfg["demand_scv"])).sample(rngs["demand"], count)
        speedup = _speedup(cfg["speedup"])
        if cfg["speedup"]["model"] == "eq13":
            phi, beta = draw_eq13(float(cfg["speedup"].get("c1", 0.75)), float(cfg["speedup"].get("c2", 0.5)),
                                  n, rngs["overhead"], rngs["overhead_second"])
            speedup = Eq5(phi_prime=phi, beta_prime=beta)
        elif cfg["speedup"]["model"] == "eq8" and isinstance(cfg["speedup"].get("delta"), Mapping):
            speedup = Eq8(delta=draw_delta(cfg["speedup"]["delta"], work, mean_demand(cfg), rngs["overhead"]))
        if parallelism == "max_speedup":
            n = np.clip(np.rint(speedup.maximum(work)), 1, processors).astype(np.int64)
        if _beta_at_max(cfg):
            phi = float(cfg["speedup"].get("phi_prime", 0.0))
            speedup = _speedup(cfg["speedup"], beta_prime_at_max(phi, n))
        a, b, c = speedup.coefficients(work)
        cap = np.minimum(n, processors)
        return arrival, work, n, a, b, c, speedup.pws(work, cap)


def make_jobs(cfg: Mapping[str, Any], processors: int, load: float, count: int,
              rng: np.random.Generator) -> MalleableJobs:
    """The first ``count`` jobs of :class:`MalleableStream` ``(cfg, processors, load, rng)``."""
    return MalleableStream(cfg, processors, load, rng).jobs(count)
