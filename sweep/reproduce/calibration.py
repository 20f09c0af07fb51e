"""Calibration where the paper is silent, and the sensitivity of each verdict (docs/design.md §9).

A paper's claims file may hold ``calibrate:`` blocks: a parameter the paper does
not print, its plausible range (from the model notes), the presets it enters,
and *targets*: numbers the paper prints that the parameter fixes. ::

    calibrate:
      gang_arrivals:
        words: offered load and jobs present at time 0 of Tables 5-7 (not printed)
        parameters: {load: [1.0, 4.0], workload.initial_jobs: [0, 64]}
        integer: [workload.initial_jobs]
        points: 5                  # design points per parameter (a grid over the ranges)
        replications: 4            # of every design point
        overrides: []              # of the presets, for the design runs only (e.g. fewer policies)
        presets: [ipg00_table5, ipg00_table6, ipg00_table7]
        targets:
          - words: "Table 5: Gang completes 2, 6, 14, 23, 28 jobs by 5,000 ... 40,000 s"
            quantity: mean
            args: {preset: ipg00_table5, variable: jobs_completed, select: {policy: gang}}
            values: [2, 6, 14, 23, 28]
        claims: [table2.rate_of_change_best]   # claims that read the targets: "used to calibrate"

``sweep-calibrate`` runs each preset over the design (one sweep per preset, the
parameters as grid axes, on one pool), computes each target's quantity at every
design point, fits a smooth surface to each (radial basis functions over the
ranges scaled to [0, 1]) and minimises the sum of squared relative residuals on
it, within the ranges (L-BFGS-B from the best design point). Its interval is the
5th–95th percentile of the fits to bootstrap resamples of the replications. The
fitted values go into ``conf/calibrated/<paper>_<name>.yaml``, which the presets
include (a generated reconstruction, named as such), and the fit, its residuals
and ranges into ``sweep/reproduce/calibrations/<paper>_<name>.yaml``, which the
report shows. Targets are used, never judged.

The same design gives each verdict's sensitivity: every claim that reads only
presets of the design is judged at every design point, and the report says
whether its verdict holds across the plausible range.

A parameter the paper does not print and no printed number fixes is named in a
``sensitivity:`` block instead: the same keys without ``targets`` and ``claims``,
with ``source`` (where its plausible range comes from) and optionally ``log``
(parameters whose design points are spaced evenly on a log scale). ::

    sensitivity:
      c90_small_jobs:
        words: the lower end of the C90 reconstruction's lognormal body, which sets E[1/X]
        source: docs/model-notes.md §3 (E[1/X] is pinned by no published number)
        parameters: {workload.lo: [0.25, 4.0]}
        log: [workload.lo]
        points: 3
        replications: 4
        presets: [sh00_fig2, sh00_fig7]

A reading the paper leaves open that is a choice, not a number (the readings of the
scheduler's events that Talby & Feitelson 1999 (TF99) §2 leaves open, say), is given as
its list of values instead of a range: every value is a design point, ``points`` and
``log`` do not apply to it, and the design is the grid over every parameter's points
and values. A list of two numbers is a range, a
list of strings (at least two, different) the values of a categorical parameter;
a ``calibrate:`` block's parameters are ranges only (a fit needs numbers).
``replications: own`` runs each preset with its own replications rather than one
number for all (TF99 §3.1's trace replays run once, its noise floor's jittered replays
ten times): the design point at the presets' own values is then the run's first round. ::

    sensitivity:
      slack_readings:
        words: what the slack scheduler does when a job ends early, and to a job moved up
        source: docs/model-notes.md §2 (TF99 §2 leaves the events' details open)
        parameters: {policy.completion: [compress, remove], policy.move_up: [allow, clamp]}
        replications: own
        presets: [tf99_table1, tf99_noise]

``sweep-calibrate`` runs it like a calibration (one sweep per preset, the parameters
as grid axes, all blocks on one pool) but fits nothing and writes no config: the
presets keep their reconstructed value, and the record
``sweep/reproduce/calibrations/<paper>_<name>.yaml`` holds each claim's verdict at
every design point (:func:`sweep.reproduce.sensitivity.design_verdicts`,
:func:`sensitivity_record`), which the report turns into "robust" or "depends on"
(:func:`sensitivity_text`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr
import yaml
from scipy.interpolate import RBFInterpolator
from scipy.optimize import minimize

#: Written at the top of every file this module generates.
GENERATED = "Written by sweep-calibrate; do not edit by hand."
#: Bootstrap resamples of the replications for the fitted values' interval.
RESAMPLES = 40


@dataclass(frozen=True)
class Target:
    """A printed number (or one per label, in order) that a calibration fits."""

    words: str
    quantity: str
    args: Mapping[str, Any]
    values: tuple[float, ...]


@dataclass(frozen=True)
class Calibration:
    """One ``calibrate:`` block of a paper's claims file (module docstring)."""

    paper: str
    name: str
    words: str
    #: A range ``(low, high)``, or a categorical parameter's values (strings; module docstring).
    parameters: Mapping[str, tuple[float, float] | tuple[str, ...]]
    integer: frozenset[str]
    points: int
    #: Of every design point; None: each preset's own (``replications: own``).
    replications: int | None
    presets: tuple[str, ...]
    targets: tuple[Target, ...]
    claims: tuple[str, ...]
    overrides: tuple[str, ...] = ()
    source: str = ""
    log: frozenset[str] = frozenset()

    @property
    def fits(self) -> bool:
        """Whether the block is fitted to targets (``calibrate:``) or only varied (``sensitivity:``)."""
        return bool(self.targets)

    @property
    def key(self) -> str:
        """``<paper>_<name>``: the stem of the generated config and fit files."""
        return f"{self.paper}_{self.name}"

    def design(self) -> list[dict[str, float | str]]:
        """The grid over the parameters: ``points`` values per range (integers rounded), every value
        of a categorical parameter."""
        axes = [self.axis(key) for key in self.parameters]
        return [dict(zip(self.parameters, values, strict=True)) for values in itertools.product(*axes)]

    def categorical(self, key: str) -> bool:
        """Whether ``key`` is given by its values (strings) rather than by a range."""
        return isinstance(self.parameters[key][0], str)

    def axis(self, key: str) -> list[float] | list[str]:
        """The design's values of one parameter: ``points`` over its range, evenly spaced (on a log
        scale for a key in ``log``; integers rounded), or a categorical parameter's values."""
        if self.categorical(key):
            return [str(v) for v in self.parameters[key]]
        low, high = self.parameters[key]
        values = (np.geomspace if key in self.log else np.linspace)(low, high, self.points)
        return sorted({int(round(v)) for v in values}) if key in self.integer else [round(float(v), 10)
                                                                                  for v in values]


#: The keys of a ``calibrate:`` block and of a ``sensitivity:`` block (module docstring).
CALIBRATE_KEYS = frozenset({"words", "parameters", "integer", "points", "replications", "presets",
                            "targets", "claims", "overrides"})
SENSITIVITY_KEYS = frozenset({"words", "source", "parameters", "integer", "log", "points", "replications",
                              "presets", "overrides"})


def parse(paper: str, spec: Mapping[str, Any] | None, kind: str = "calibrate") -> tuple[Calibration, ...]:
    """The ``calibrate:`` blocks of a claims file (``kind="sensitivity"``: its ``sensitivity:``
    blocks, which have a ``source`` and no targets), checked."""
    fitted = kind == "calibrate"
    allowed = CALIBRATE_KEYS if fitted else SENSITIVITY_KEYS
    required = ("words", "parameters", "presets", "targets") if fitted else ("words", "source", "parameters",
                                                                             "presets")
    out = []
    for name, block in (spec or {}).items():
        where = f"{paper}.yaml {kind} {name!r}"
        unknown = set(block) - allowed
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
        missing = [key for key in required if block.get(key) in (None, "")]
        if missing:
            raise ValueError(f"{where}: missing {', '.join(missing)}")
        parameters = {key: _parameter(where, key, r, fitted) for key, r in block["parameters"].items()}
        categorical = {key for key, r in parameters.items() if isinstance(r[0], str)}
        log = frozenset(block.get("log", ()))
        if log - set(parameters) or log & categorical or any(parameters[key][0] <= 0 for key in log):
            raise ValueError(f"{where}: log names parameters of the block whose ranges are above 0")
        if set(block.get("integer", ())) & categorical:
            raise ValueError(f"{where}: integer names a parameter given by its values")
        replications = block.get("replications", 4)
        if replications == "own" and fitted:
            raise ValueError(f"{where}: replications: own is for sensitivity: blocks")
        targets = tuple(Target(" ".join(t["words"].split()), t["quantity"], dict(t["args"]),
                               tuple(float(v) for v in t["values"])) for t in block.get("targets", ()))
        out.append(Calibration(paper, name, " ".join(block["words"].split()), parameters,
                               frozenset(block.get("integer", ())), int(block.get("points", 5)),
                               None if replications == "own" else int(replications),
                               tuple(block["presets"]), targets,
                               tuple(block.get("claims", ())), tuple(block.get("overrides", ())),
                               " ".join(str(block.get("source", "")).split()), log))
        if fitted and not targets:
            raise ValueError(f"{where}: no targets (a parameter no printed number fixes goes in a "
                             "sensitivity: block)")
    return tuple(out)


def _parameter(where: str, key: str, given: Sequence[Any],
               fitted: bool) -> tuple[float, float] | tuple[str, ...]:
    """One entry of a block's ``parameters``: a range ``[low, high]`` of two numbers, low < high, or
    (``sensitivity:`` blocks) the values of a categorical parameter, at least two different strings."""
    values = list(given)
    if values and all(isinstance(v, str) for v in values):
        if fitted:
            raise ValueError(f"{where}: {key}: a fitted parameter needs a range of numbers, not values")
        if len(values) < 2 or len(set(values)) < len(values):
            raise ValueError(f"{where}: {key}: give at least two different values")
        return tuple(values)
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(values) != 2 or len(numbers) != 2 or float(values[0]) >= float(values[1]):
        raise ValueError(f"{where}: {key}: every range must be [low, high] with low < high "
                         "(or, for a choice, a list of its values)")
    return float(values[0]), float(values[1])


def dimension(key: str) -> str:
    """The Dataset dimension of a grid key (its last component, docs/design.md §5)."""
    return key.rsplit(".", 1)[-1]


def at(datasets: Mapping[str, xr.Dataset], point: Mapping[str, float | str]) -> dict[str, xr.Dataset]:
    """Each Dataset at one design point (its parameter dimensions selected away)."""
    out = {}
    for name, ds in datasets.items():
        selection = {dimension(k): v for k, v in point.items() if dimension(k) in ds.dims}
        out[name] = ds.sel(selection) if selection else ds
    return out


def target_values(calibration: Calibration, datasets: Mapping[str, xr.Dataset]) -> np.ndarray:
    """Every target's quantity at every design point: (design point, target value), flattened."""
    from sweep.reproduce.quantities import QUANTITIES

    rows = []
    for point in calibration.design():
        here = at(datasets, point)
        row = []
        for target in calibration.targets:
            measured = QUANTITIES[target.quantity](here, **target.args)
            values = np.asarray(measured.values, dtype=np.float64).ravel()
            if values.size != len(target.values):
                raise ValueError(f"{calibration.key}: target {target.words!r} gives {values.size} values, "
                                 f"prints {len(target.values)}")
            row.append(values)
        rows.append(np.concatenate(row))
    return np.asarray(rows)


@dataclass(frozen=True)
class Fit:
    """The fitted parameters, their bootstrap interval, and the targets beside the fitted model."""

    values: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    printed: np.ndarray
    fitted: np.ndarray
    objective: float


def fit(calibration: Calibration, surface_values: np.ndarray, resampled: Sequence[np.ndarray]) -> Fit:
    """Minimise the relative residuals on the fitted surface; the interval from ``resampled``
    (the same ``surface_values`` computed on bootstrap resamples of the replications)."""
    printed = np.concatenate([np.asarray(t.values) for t in calibration.targets])
    unit = _scaled_design(calibration)
    best = _minimise(unit, surface_values, printed)
    boots = np.asarray([_minimise(unit, values, printed) for values in resampled])
    surface = _surface(unit, surface_values)
    keys = list(calibration.parameters)
    lows, highs = np.percentile(boots, [5, 95], axis=0) if len(boots) else (best, best)
    return Fit({k: _unscale(calibration, k, best[i]) for i, k in enumerate(keys)},
               {k: _unscale(calibration, k, lows[i]) for i, k in enumerate(keys)},
               {k: _unscale(calibration, k, highs[i]) for i, k in enumerate(keys)},
               printed, surface(best[None, :])[0], float(_objective(surface, printed)(best)))


def _scaled_design(calibration: Calibration) -> np.ndarray:
    points = calibration.design()
    ranges = calibration.parameters
    return np.asarray([[(p[k] - ranges[k][0]) / (ranges[k][1] - ranges[k][0]) for k in ranges]
                       for p in points])


def _unscale(calibration: Calibration, key: str, unit: float) -> float:
    low, high = calibration.parameters[key]
    return float(low + unit * (high - low))


def _surface(unit: np.ndarray, values: np.ndarray) -> RBFInterpolator:
    """Each target value as a smooth function of the scaled parameters (thin-plate splines,
    smoothed a little: the design's values carry simulation noise)."""
    finite = np.isfinite(values).all(axis=1)
    return RBFInterpolator(unit[finite], values[finite], kernel="thin_plate_spline", smoothing=1e-3)


def _objective(surface: RBFInterpolator, printed: np.ndarray):
    scale = np.where(printed != 0, np.abs(printed), 1.0)

    def objective(x: np.ndarray) -> float:
        return float((((surface(x[None, :])[0] - printed) / scale) ** 2).sum())

    return objective


def _minimise(unit: np.ndarray, values: np.ndarray, printed: np.ndarray) -> np.ndarray:
    surface = _surface(unit, values)
    objective = _objective(surface, printed)
    start = unit[int(np.argmin([objective(x) for x in unit]))]
    result = minimize(objective, start, method="L-BFGS-B", bounds=[(0.0, 1.0)] * unit.shape[1])
    return result.x


def resample(datasets: Mapping[str, xr.Dataset], rng: np.random.Generator) -> dict[str, xr.Dataset]:
    """The Datasets with their replications drawn with replacement (the same draw for every design
    point and policy: common random numbers stay paired)."""
    out = {}
    for name, ds in datasets.items():
        n = ds.sizes.get("replication", 1)
        drawn = rng.integers(0, n, n)
        out[name] = ds.isel(replication=drawn).assign_coords(replication=np.arange(n)) \
            if "replication" in ds.dims else ds
    return out


# ---------------------------------------------------------------------------------------------
# The generated files


def config_text(calibration: Calibration, result: Fit) -> str:
    """``conf/calibrated/<paper>_<name>.yaml``: the fitted values as a config the presets include."""
    nested: dict[str, Any] = {}
    for key, value in result.values.items():
        node = nested
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = int(round(value)) if key in calibration.integer else round(value, 4)
    ranges = ", ".join(f"{k} in [{lo:g}, {hi:g}]" for k, (lo, hi) in calibration.parameters.items())
    return (f"# @package _global_\n# {GENERATED}\n# RECONSTRUCTION, fitted: {calibration.words}.\n"
            f"# Fitted by `sweep-calibrate --paper {calibration.paper}` over {ranges} to the paper's "
            f"printed numbers;\n# the fit and its residuals: "
            f"sweep/reproduce/calibrations/{calibration.key}.yaml.\n"
            + yaml.safe_dump(nested, sort_keys=True))


def fit_record(calibration: Calibration, result: Fit, sensitivity: Mapping[str, Mapping[str, str]],
               design_seconds: float) -> dict[str, Any]:
    """What the report shows: the fit, its targets and residuals, the ranges, and per claim its
    verdict at every design point."""
    targets, start = [], 0
    for target in calibration.targets:
        count = len(target.values)
        fitted = result.fitted[start : start + count]
        targets.append({"words": target.words, "printed": list(target.values),
                        "fitted": [round(float(v), 4) for v in fitted],
                        "relative_residuals": [round(float((f - p) / p), 4) if p else None
                                               for f, p in zip(fitted, target.values, strict=True)]})
        start += count
    return {"generated": GENERATED, "paper": calibration.paper, "name": calibration.name,
            "words": calibration.words,
            "parameters": {k: {"range": list(r), "fitted": round(result.values[k], 4),
                               "interval": [round(result.low[k], 4), round(result.high[k], 4)],
                               "written": int(round(result.values[k])) if k in calibration.integer
                               else round(result.values[k], 4)}
                           for k, r in calibration.parameters.items()},
            "objective": round(result.objective, 6), "targets": targets,
            "design": {"points": len(calibration.design()), "replications": calibration.replications,
                       "compute_seconds": round(design_seconds, 1)},
            "sensitivity": {claim: dict(verdicts) for claim, verdicts in sensitivity.items()}}


def records_folder() -> Path:
    """``sweep/reproduce/calibrations`` in this installation."""
    return Path(str(resources.files("sweep.reproduce"))) / "calibrations"


def load_records(paper: str) -> list[dict[str, Any]]:
    """The fit records of a paper's calibrations (empty before ``sweep-calibrate`` has run)."""
    folder = records_folder()
    if not folder.is_dir():
        return []
    return [yaml.safe_load(path.read_text()) for path in sorted(folder.glob(f"{paper}_*.yaml"))]


def point_label(point: Mapping[str, float | str]) -> str:
    """``load=2.5, initial_jobs=16`` (``completion=remove``): a design point as the report writes it."""
    return ", ".join(f"{dimension(k)}={v if isinstance(v, str) else format(v, 'g')}"
                     for k, v in point.items())


def sensitivity_record(calibration: Calibration, sensitivity: Mapping[str, Mapping[str, str]],
                       design_seconds: float) -> dict[str, Any]:
    """What the report shows of a ``sensitivity:`` block: the parameters, their plausible ranges and
    the source of those, the design, and per claim its verdict at every design point."""
    replications = "own" if calibration.replications is None else calibration.replications
    return {"generated": GENERATED, "paper": calibration.paper, "name": calibration.name,
            "kind": "sensitivity", "words": calibration.words, "source": calibration.source,
            "parameters": {k: {"values" if calibration.categorical(k) else "range": list(r),
                               "design": calibration.axis(k)}
                           for k, r in calibration.parameters.items()},
            "design": {"points": len(calibration.design()),
                       "replications": replications,
                       "overrides": list(calibration.overrides),
                       "compute_seconds": round(design_seconds, 1)},
            "sensitivity": {claim: dict(verdicts) for claim, verdicts in sensitivity.items()}}


#: The verdicts a design point can decide (the others: undecided, or an error).
DECIDED = ("reproduced", "deviates", "contradicted")


def sensitivity_text(verdict: str, at_points: Mapping[str, str], name: str) -> str:
    """"robust" when no design point gives another decided verdict, else where it flips.

    ``verdict`` is the claim's verdict in the run (at the presets' own values of the parameters);
    ``at_points`` its verdict at each design point
    (:func:`sweep.reproduce.sensitivity.design_verdicts`). A verdict the run did not
    decide is not said to flip: the text then counts the design's verdicts; and one that no design
    point decides is not called robust."""
    tail = _not_decided(at_points)
    counts = Counter(v for v in at_points.values() if v in DECIDED)
    if not counts:  # nothing to hold or flip: one replication of a saturation claim, say
        if all(v == "undecided" for v in at_points.values()):
            return f"undecided at every design point of {name}'s range"
        return f"decided at no design point of {name}'s range{tail}"
    if verdict not in DECIDED:
        shown = ", ".join(f"{count} {v}" for v, count in sorted(counts.items()))
        return f"not decided here; over {name}'s range: {shown}{tail}"
    flips = {point: v for point, v in at_points.items() if v != verdict and v in DECIDED}
    if not flips:
        return f"robust across {name}'s range{tail}"
    return f"depends on {name}: flips {_flips_text(flips)}{tail}"


def _flips_text(flips: Mapping[str, str], most: int = 3) -> str:
    """``to deviates at lo=1 and lo=4; to contradicted at lo=8``: the first ``most`` points that
    flip the verdict, grouped by the verdict they give."""
    groups: dict[str, list[str]] = {}
    for point, verdict in flips.items():
        groups.setdefault(verdict, []).append(point)
    parts, shown = [], 0
    for verdict, points in groups.items():
        taken = points[: most - shown]
        if taken:
            parts.append(f"to {verdict} at {' and '.join(taken)}")
            shown += len(taken)
    more = f" and {len(flips) - shown} more" if len(flips) > shown else ""
    return "; ".join(parts) + more


def _not_decided(at_points: Mapping[str, str]) -> str:
    """`` (1 of 3 design points undecided)`` (and those not computed), or nothing."""
    undecided = sum(1 for v in at_points.values() if v == "undecided")
    failed = sum(1 for v in at_points.values() if v not in (*DECIDED, "undecided"))
    if not undecided and not failed:
        return ""
    first, other = (undecided, failed) if undecided else (failed, 0)
    words = "undecided" if undecided else "not computed"
    return (f" ({first} of {len(at_points)} design points {words}"
            + (f", {other} not computed" if other else "") + ")")
