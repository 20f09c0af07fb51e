"""Sample designs beside the Cartesian grid (docs/sensitivity.md; docs/design.md §3 step 2).

The ``design`` config group chooses how numeric config keys are varied:

``grid`` (the default)
    No sample: the points are the Cartesian product of the ``grid.<key>`` axes.
``saltelli``
    Saltelli's (2002) scheme on a scrambled Sobol' sequence for first-, second-
    and total-order Sobol' indices (``SALib.sample.sobol``): ``samples · (2d + 2)``
    points for d parameters (``samples · (d + 2)`` with ``second_order=false``);
    ``samples`` must be a power of two.
``morris``
    ``samples`` Morris (1991) trajectories of d + 1 points on ``num_levels``
    levels (``SALib.sample.morris``).
``lhs``
    ``samples`` points of a Latin hypercube (McKay, Beckman & Conover 1979;
    ``scipy.stats.qmc.LatinHypercube``).
``sobol_qmc``
    The first ``samples`` points of a scrambled Sobol' sequence (Owen 1998;
    ``scipy.stats.qmc.Sobol``); ``samples`` must be a power of two.

``design.params`` maps dotted config keys to ranges ``[low, high]``
(``design.params.policy.slack_factor=[1,10]``); every parameter is uniform on
its range. The sampler draws in the unit cube ``u ∈ [0, 1)^d``; a key whose
configured value is an integer (``system.hosts``) takes each of the integers
``low … high`` with equal probability, ``low + min(⌊u (high − low + 1)⌋, high − low)``;
other values are ``low + u (high − low)``, rounded to 10 decimals like grid
labels. The points lie on a ``sample`` dimension, every other grid axis
(policy, workload, ...) is crossed with it, and each parameter is a coordinate
on ``sample`` named like a grid axis (the key's last component). ``design.seed``
(default: the root ``seed``) seeds the sampler; the job streams stay keyed by
workload and load (docs/design.md §4), so a sampled load or workload parameter
gives every sample its own stream, shared by all policies.

Everything here works on arrays (the unit sample, then the values per column),
so that expanding 10^6 points costs no Python per point.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweep.families import param
from sweep.families._params import check_params

#: The dimension a sample design's points lie on.
SAMPLE_DIM = "sample"
#: Dataset attribute holding the design as JSON text (netCDF attributes take no dicts).
ATTRIBUTE = "design"


def flatten_keys(section: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested section (``grid``, ``design.params``: Hydra's dotted overrides nest) as
    {dotted key: value}; lists are leaves."""
    flat: dict[str, Any] = {}
    for name, value in section.items():
        if isinstance(value, Mapping):
            flat.update(flatten_keys(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat


# --- the options of the config group (their schemas: sweep/config/schema.py) ------------------


@dataclass(frozen=True)
class GridOptions:
    """``design=grid``: the Cartesian product of the grid axes, no sample."""


@dataclass(frozen=True)
class SampleOptions:
    """What every sample design has: the parameters, the sample size, the sampler's seed."""

    params: dict[str, Any] = field(default_factory=dict)
    samples: int = param(64, ge=1, doc="sample size (base sample for saltelli, trajectories for morris)")
    seed: int | None = param(None, ge=0, nullable=True, doc="the sampler's seed; null: the root seed")


@dataclass(frozen=True)
class SaltelliOptions(SampleOptions):
    second_order: bool = param(True, doc="also the second-order indices (samples·(2d+2) points, "
                                         "else samples·(d+2))")


@dataclass(frozen=True)
class MorrisOptions(SampleOptions):
    num_levels: int = param(4, ge=2, doc="levels of the Morris grid (even: SALib's recommendation)")


def _saltelli(options: SaltelliOptions, d: int, seed: int) -> np.ndarray:
    from SALib.sample import sobol

    problem = {"num_vars": d, "names": [f"x{i}" for i in range(d)], "bounds": [[0.0, 1.0]] * d}
    return sobol.sample(problem, options.samples, calc_second_order=options.second_order, seed=seed)


def _morris(options: MorrisOptions, d: int, seed: int) -> np.ndarray:
    from SALib.sample import morris

    problem = {"num_vars": d, "names": [f"x{i}" for i in range(d)], "bounds": [[0.0, 1.0]] * d}
    return morris.sample(problem, options.samples, num_levels=options.num_levels, seed=seed)


def _lhs(options: SampleOptions, d: int, seed: int) -> np.ndarray:
    from scipy.stats import qmc

    return qmc.LatinHypercube(d, rng=np.random.default_rng(seed)).random(options.samples)


def _sobol_qmc(options: SampleOptions, d: int, seed: int) -> np.ndarray:
    from scipy.stats import qmc

    return qmc.Sobol(d, scramble=True, rng=np.random.default_rng(seed)).random_base2(
        int(math.log2(options.samples)))


@dataclass(frozen=True)
class Sampler:
    """One option of the ``design`` group: its options dataclass and how it draws the unit sample."""

    options: type
    draw: Callable[[Any, int, int], np.ndarray] | None
    power_of_two: bool = False


#: The options of the ``design`` config group (``conf/design/<name>.yaml``).
SAMPLERS: dict[str, Sampler] = {
    "grid": Sampler(GridOptions, None),
    "saltelli": Sampler(SaltelliOptions, _saltelli, power_of_two=True),
    "morris": Sampler(MorrisOptions, _morris),
    "lhs": Sampler(SampleOptions, _lhs),
    "sobol_qmc": Sampler(SampleOptions, _sobol_qmc, power_of_two=True),
}


# --- a design, read and drawn ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Design:
    """A sample design: parameters (dotted ``keys``, coordinate names ``dims``), ranges, the sample.

    ``unit`` is the sampler's points in ``[0, 1)^d`` (rows = points), ``values``
    the parameters' values (integer columns hold whole numbers), both of shape
    ``(points, d)``.
    """

    name: str
    keys: tuple[str, ...]
    dims: tuple[str, ...]
    low: np.ndarray
    high: np.ndarray
    integer: np.ndarray
    samples: int
    seed: int
    options: dict[str, Any]
    unit: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.unit)

    def rows(self) -> list[tuple[Any, ...]]:
        """Each point's values as plain Python numbers (ints for integer keys), for the configs."""
        columns = [column.astype(np.int64).tolist() if whole else column.tolist()
                   for column, whole in zip(self.values.T, self.integer, strict=True)]
        return list(zip(*columns, strict=True))

    def describe(self) -> dict[str, Any]:
        """What analysis needs to recognise the design (stored as JSON, :data:`ATTRIBUTE`)."""
        return {"name": self.name, "params": {k: [_plain(lo), _plain(hi)] for k, lo, hi
                                              in zip(self.keys, self.low, self.high, strict=True)},
                "dims": dict(zip(self.keys, self.dims, strict=True)),
                "integer": [k for k, whole in zip(self.keys, self.integer, strict=True) if whole],
                "samples": self.samples, "seed": self.seed, **self.options}


def _plain(x: Any) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


class DesignError(ValueError):
    """A bad design option (the grid turns it into a ConfigError)."""


def _range(key: str, bounds: Any) -> tuple[float, float]:
    number = (int, float)
    if (not isinstance(bounds, list | tuple) or len(bounds) != 2
            or not all(isinstance(b, number) and not isinstance(b, bool) for b in bounds)):
        raise DesignError(f"design.params.{key} must be a range [low, high] of two numbers, got {bounds!r}")
    low, high = bounds
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise DesignError(f"design.params.{key}: the range [{low}, {high}] needs low < high (both finite)")
    return float(low), float(high)


def read_options(section: Mapping[str, Any]) -> tuple[str, Any, dict[str, tuple[float, float]]]:
    """The design's name, its checked options and its parameter ranges {key: (low, high)}."""
    name = section.get("name", "grid")
    sampler = SAMPLERS.get(name)
    if sampler is None:
        raise DesignError(f"unknown design {name!r}; allowed: {', '.join(SAMPLERS)}")
    options = check_params(sampler.options, section, section="design", owner=f"design {name!r}")
    if sampler.draw is None:
        return name, options, {}
    ranges = {key: _range(key, bounds) for key, bounds in flatten_keys(options.params).items()}
    if not ranges:
        raise DesignError(f"design={name} needs parameters: design.params.<config key>=[low,high], "
                          f"e.g. design.params.load=[0.3,0.8]")
    samples = options.samples
    if sampler.power_of_two and samples & (samples - 1):
        raise DesignError(f"design.samples must be a power of two for design={name} (Sobol' sequence), "
                          f"got {samples}; e.g. {1 << (samples.bit_length() - 1)} or "
                          f"{1 << samples.bit_length()}")
    return name, options, ranges


def draw(name: str, options: Any, ranges: Mapping[str, tuple[float, float]], dims: Sequence[str],
         integer: Sequence[bool], root_seed: int) -> Design:
    """The design's points: the sampler's unit sample mapped onto the ranges (module docstring)."""
    sampler = SAMPLERS[name]
    seed = root_seed if options.seed is None else options.seed
    low, high = (np.array([r[i] for r in ranges.values()]) for i in (0, 1))
    whole = np.asarray(integer, dtype=bool)
    unit = np.asarray(sampler.draw(options, len(ranges), seed), dtype=np.float64)
    values = values_of(unit, low, high, whole)
    extra = {k: getattr(options, k) for k in ("second_order", "num_levels") if hasattr(options, k)}
    return Design(name, tuple(ranges), tuple(dims), low, high, whole, options.samples, seed, extra,
                  unit, values)


def values_of(unit: np.ndarray, low: np.ndarray, high: np.ndarray, integer: np.ndarray) -> np.ndarray:
    """Unit-cube points onto the ranges: integers equally likely, other values rounded to 10 decimals."""
    continuous = np.round(low + unit * (high - low), 10)
    whole = low + np.minimum(np.floor(unit * (high - low + 1)), high - low)
    return np.where(integer, whole, continuous)


def redraw(described: Mapping[str, Any]) -> np.ndarray:
    """The unit sample of a stored design (:meth:`Design.describe`), drawn again from its seed."""
    name = described["name"]
    sampler = SAMPLERS[name]
    kept = {k: described[k] for k in ("samples", "second_order", "num_levels") if k in described}
    options = sampler.options(params=dict(described["params"]), seed=described["seed"], **kept)
    return np.asarray(sampler.draw(options, len(described["params"]), described["seed"]), dtype=np.float64)


def to_json(design: Design) -> str:
    return json.dumps(design.describe(), sort_keys=False)


def from_attrs(attrs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The design stored in a Dataset's attributes; None for a grid (or a file from before designs)."""
    text = attrs.get(ATTRIBUTE)
    return json.loads(text) if text else None
