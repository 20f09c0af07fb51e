"""A paper's claims as records, and their verdicts (docs/design.md §9).

A paper's claims file ``sweep/papers/<paper>/claims.yaml`` (:mod:`sweep.papers`) holds::

    paper: sh00
    title: Schroeder & Harchol-Balter 2000, ...
    presets:                      # every preset the claims read, with the reduced
      sh00_fig2:                  # precision of `sweep-reproduce --quick` and of the tests
        quick: ["stop.jobs=1000000", "replications=3"]
        replicate: 32             # replications an undecided claim's points may reach (full run)
        quick_replicate: 6        # the same for --quick (absent: no rounds)
        min_replicate: 4          # full run: every claim is judged on at least 4 replications of
                                  # the points it reads, decided or not (absent: 1)
    notes: |                      # optional Markdown: what the report shows above the claims
      The C90 sizes are a reconstruction ...
    claims:
      - id: fig2.random_10x_sita_e
        section: "§3.2"
        words: "The slowdown under Random exceeds that of SITA-E by a factor of 10"
        quantity: ratio           # a function of sweep.reproduce.quantities
        args: {preset: sh00_fig2, policy: random, baseline: sita_e}
        expect: {value: 10, figures: 1}
        direction: {above: 1}     # the qualitative claim: Random is worse
        deviation: null           # the measured values and their cause (or "Cause unknown")
        full_only: null           # why quick precision cannot judge it (then only the full run does)
        verdict: reproduced       # the expected verdict at full precision (the tests assert it)
        replicate: 8              # this claim's budget of replications, above its presets' own
        quick_verdict: null       # the expected verdict at quick precision, where it differs

A quantity returns a DataArray (one value per remaining label, e.g. per
load) with its confidence interval as ``low``/``high`` coordinates, the
convention of :func:`sweep.analysis.confidence_interval`. The verdict
(:func:`judge`) places each value's interval against the paper's printed range
(``expect``) and the qualitative claim (``direction``; without one, ``expect``
itself), per value:

reproduced
    the interval lies wholly inside the paper's printed range: within the
    printed precision of its value, or wholly on the claimed side of an
    inequality;
deviates
    the interval lies wholly on the claimed side (``direction``) and wholly
    outside the printed range: the qualitative claim holds, the number does not;
contradicted
    the interval lies wholly on the other side of the qualitative claim (without
    a ``direction``: wholly outside the printed range);
undecided
    anything else: the interval straddles a boundary, so the run cannot tell (an
    interval that merely touches the paper's value is undecided, not reproduced).

A claim with several values is contradicted if one value is; else reproduced if
all are; else deviates if every value lies on the claimed side and one decidedly
off the number; else undecided. ``sweep-reproduce`` adds
replications to the presets of undecided claims until they are decided or their
budget is spent (:mod:`sweep.reproduce.cli`).

A decided verdict is *marginal* when its intervals, made :data:`MARGIN` times as
wide about their values, would not give it: a value lies within about one
interval's width of a boundary, and another seed's replications may leave the
claim undecided (BENCHMARKS.md, "Two seeds"). The report marks it, so that a
referee sees which decisions are close. A quantity that makes calls of its own
(CV96's sign test of saturation, its orders of two policies) takes ``strict``
and gives its strict reading: its calls made as if one flagged replication went
the other way, and on intervals MARGIN times as wide. The verdict is marginal
when that reading does not give it. Any other value without an interval (a
count) is never marginal.

Each record states its expected verdict at full precision (``verdict``, default
reproduced) and, where the quick run differs, at quick precision
(``quick_verdict``); the tests assert them exactly. A record whose expected
verdict is deviates or contradicted carries a ``deviation`` note naming the
measured values and their cause, or saying ``Cause unknown``. A ``tolerance``
(relative, for ``value``) needs its ``reason``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import xarray as xr
import yaml

from sweep.config.files import paper_folders
from sweep.reproduce.calibration import Calibration
from sweep.reproduce.calibration import parse as parse_calibrations

#: The verdicts, best first.
VERDICTS = ("reproduced", "deviates", "contradicted", "undecided")

#: How many times as wide a decided verdict's intervals may be and still decide it, else it is
#: *marginal* (:attr:`Judgement.marginal`): twice, so that a value's distance from the boundary is
#: at least about one interval width (about 3.3 standard errors at 90%).
MARGIN = 2.0

#: A deviation note that says this (case-insensitive) states that the cause is not known.
CAUSE_UNKNOWN = "cause unknown"


def _unit(x: float, figures: int) -> float:
    return 10.0 ** (math.floor(math.log10(abs(x))) - figures + 1)


def printed_range(low: float, high: float, figures: int) -> tuple[float, float]:
    """The values that round, to ``figures`` significant figures, into the printed ``[low, high]``.

    Papers print factors to one or two figures ("a factor of 10", "3–4"): 3–4 at one figure is
    [2.5, 4.5), 10 is [9.5, 15). Below a power of ten the unit is ten times smaller (0.96
    rounds to 1, 0.9 does not).
    """
    below = _unit(low, figures) / (10.0 if _unit(low, figures) == low else 1.0)
    return low - below / 2, high + _unit(high, figures) / 2


@dataclass(frozen=True)
class Expectation:
    """The paper's number as an interval ``[low, high]`` of acceptable values, as it was printed; or,
    from ``values``, one such interval per value the quantity returns, in its order."""

    low: float | tuple[float, ...]
    high: float | tuple[float, ...]
    printed: str

    @classmethod
    def parse(cls, spec: Mapping[str, Any], where: str) -> Expectation:
        """From ``{value: v}``, ``{values: [v1, v2, ...]}`` (one printed number per value of the
        quantity, in its order: a column of a table), ``{between: [a, b]}``, ``{at_least: a}``,
        ``{at_most: b}`` or ``{similar: true}`` (a ratio whose value and inverse both round to 1),
        each with an optional ``figures`` (read the printed numbers to that many significant
        figures: "at least 4" at one figure is ≥ 3.5; with ``values``, one per value) or
        ``tolerance`` (relative, for ``value``)."""
        kinds = [k for k in ("value", "values", "between", "at_least", "at_most", "similar", "above",
                             "below") if k in spec]
        unknown = set(spec) - {*kinds, "figures", "tolerance", "reason"}
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)} in {dict(spec)}")
        if len(kinds) != 1:
            raise ValueError(f"{where}: expect needs exactly one of value, between, at_least, at_most, "
                             f"similar, above, below; got {dict(spec)}")
        kind, figures = kinds[0], spec.get("figures")
        if kind == "values":
            return cls._column([float(v) for v in spec["values"]], figures, where)
        if kind == "similar":
            return cls(0.95, 1 / 0.95, "similar (a ratio rounding to 1)")
        if not isinstance(figures, int | None):
            raise ValueError(f"{where}: figures is one number except with values, got {figures!r}")
        if kind in ("at_least", "above"):
            bound = float(spec[kind])
            low = printed_range(bound, bound, int(figures))[0] if figures else bound
            return cls(low, math.inf, f"≥ {spec[kind]}")
        if kind in ("at_most", "below"):
            bound = float(spec[kind])
            high = printed_range(bound, bound, int(figures))[1] if figures else bound
            return cls(-math.inf, high, f"≤ {spec[kind]}")
        low, high = (spec["between"] if kind == "between" else (spec["value"], spec["value"]))
        printed = f"{low}–{high}" if kind == "between" else f"{low}"
        if figures:
            return cls(*printed_range(float(low), float(high), int(figures)), printed)
        tolerance = float(spec.get("tolerance", 0.0))
        if tolerance and not spec.get("reason"):
            raise ValueError(f"{where}: a tolerance needs its reason (expect: {{..., reason: ...}})")
        return cls(float(low) * (1 - tolerance), float(high) * (1 + tolerance),
                   printed + (f" ± {tolerance:.0%}" if tolerance else ""))

    @classmethod
    def _column(cls, values: list[float], figures: Any, where: str) -> Expectation:
        """Per value its printed range: ``figures`` one number for all, a list one per value."""
        digits = figures if isinstance(figures, list) else [figures] * len(values)
        if len(digits) != len(values):
            raise ValueError(f"{where}: {len(values)} values but {len(digits)} figures")
        ranges = [printed_range(v, v, int(f)) if f else (v, v) for v, f in zip(values, digits, strict=True)]
        return cls(tuple(r[0] for r in ranges), tuple(r[1] for r in ranges),
                   ", ".join(f"{v:g}" for v in values))

    def bounds(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``low`` and ``high`` for ``size`` values (a column's must have exactly that many)."""
        low, high = np.asarray(self.low, dtype=np.float64), np.asarray(self.high, dtype=np.float64)
        if low.ndim and low.size != size:
            raise ValueError(f"the paper prints {low.size} values ({self.printed}), "
                             f"the quantity gives {size}")
        return low, high

    def contains(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """Whether each interval ``[low, high]`` lies wholly inside ``[self.low, self.high]`` (closed:
        a value printed without a tolerance contains that value exactly, and no wider interval)."""
        least, most = self.bounds(np.size(low))
        return (low >= least) & (high <= most)

    def excludes(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """Whether each interval ``[low, high]`` lies wholly outside ``[self.low, self.high]``."""
        least, most = self.bounds(np.size(low))
        return (high < least) | (low > most)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper: its words, where it is, what it reads, what the paper says."""

    paper: str
    id: str
    section: str
    words: str
    quantity: str
    args: Mapping[str, Any]
    expect: Expectation
    direction: Expectation | None = None
    deviation: str | None = None
    full_only: str | None = None
    verdict: str = "reproduced"
    quick_verdict: str | None = None
    replicate: int | None = None

    def expected(self, quick: bool) -> str:
        """The verdict the record expects at quick or at full precision."""
        return (self.quick_verdict or self.verdict) if quick else self.verdict

    @property
    def reads_wall_clock(self) -> bool:
        """Whether the claim reads a wall-clock measurement (a variable ending in ``_seconds``: not
        reproducible, docs/design.md §4): ``--check`` and the seed tests report its verdict but do not
        hold to it."""
        return _wall_clock(self.args)

    @property
    def cause_unknown(self) -> bool:
        """Whether the deviation note says that the cause is not known."""
        return bool(self.deviation) and CAUSE_UNKNOWN in self.deviation.lower()

    @property
    def presets(self) -> tuple[str, ...]:
        """The presets whose Datasets the claim reads: every ``preset``/``presets`` of ``args``,
        also inside nested arguments (a quantity of quantities, e.g. ``quotient``), in order."""
        return tuple(dict.fromkeys(_named_presets(self.args)))


def _wall_clock(args: Any) -> bool:
    if isinstance(args, Mapping):
        return any(_wall_clock(value) for value in args.values())
    if isinstance(args, list | tuple):
        return any(_wall_clock(value) for value in args)
    return isinstance(args, str) and args.endswith("_seconds")


def _named_presets(args: Any) -> list[str]:
    if isinstance(args, Mapping):
        named = list(args.get("presets", [])) + ([args["preset"]] if "preset" in args else [])
        return named + [p for key, value in args.items() if key not in ("preset", "presets")
                        for p in _named_presets(value)]
    if isinstance(args, list | tuple):
        return [p for value in args for p in _named_presets(value)]
    return []


@dataclass(frozen=True)
class Paper:
    """A paper's claims file: its presets (with quick-precision overrides), claims, and the
    replication budget of each preset (``replicate``, ``quick_replicate``: the most replications
    ``sweep-reproduce`` may run of a point an undecided claim reads; absent: no rounds), the
    fewest replications a full run judges any claim of a preset on (``min_replicate``: where one
    run's own interval does not cover the spread between runs), and its ``calibrate:`` and
    ``sensitivity:`` blocks (``calibrations``, :mod:`sweep.reproduce.calibration`)."""

    key: str
    title: str
    presets: Mapping[str, Sequence[str]]
    claims: tuple[Claim, ...] = field(default=())
    notes: str = ""
    budgets: Mapping[str, int] = field(default_factory=dict)
    quick_budgets: Mapping[str, int] = field(default_factory=dict)
    floors: Mapping[str, int] = field(default_factory=dict)
    calibrations: tuple[Calibration, ...] = field(default=())

    def calibrated_by(self, claim_id: str) -> str | None:
        """The calibration whose targets the claim reads (it is then used, not judged), or None."""
        return next((c.name for c in self.calibrations if claim_id in c.claims), None)

    def budget(self, preset: str, quick: bool, claim: Claim | None = None) -> int:
        """The most replications of ``preset``'s points (0: no rounds beyond the preset's own); a
        claim's own ``replicate`` raises its preset's budget at full precision."""
        budget = int((self.quick_budgets if quick else self.budgets).get(preset, 0))
        if claim is not None and claim.replicate and not quick and budget:
            return max(budget, claim.replicate)
        return budget

    def floor(self, preset: str, quick: bool) -> int:
        """The fewest replications a claim reading ``preset`` is judged on (1 at ``--quick``)."""
        return 1 if quick else int(self.floors.get(preset, 1))


def papers() -> list[str]:
    """The papers with a claims file, by key (``cv96``, ``ipg00``, ``sh00``, ``tf99``)."""
    return list(paper_folders())


@cache
def load_paper(key: str) -> Paper:
    """Read and check ``sweep/papers/<key>/claims.yaml``."""
    if key not in papers():
        raise ValueError(f"no claims file for paper {key!r}; papers: {', '.join(papers())}")
    text = (paper_folders()[key] / "claims.yaml").read_text()
    spec = yaml.safe_load(text)
    unknown = set(spec) - {"paper", "title", "presets", "notes", "claims", "calibrate", "sensitivity"}
    if unknown:
        raise ValueError(f"{key}/claims.yaml: unknown keys {sorted(unknown)}")
    entries = {name: entry or {} for name, entry in spec["presets"].items()}
    for name, entry in entries.items():
        unknown = set(entry) - {"quick", "replicate", "quick_replicate", "min_replicate"}
        if unknown:
            raise ValueError(f"{key}/claims.yaml preset {name}: unknown keys {sorted(unknown)}")
    presets = {name: tuple(entry.get("quick", ())) for name, entry in entries.items()}
    claims = tuple(_claim(key, entry, presets) for entry in spec["claims"])
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"{key}/claims.yaml: claim ids repeat: {repeated}")
    budgets = {name: int(e["replicate"]) for name, e in entries.items() if "replicate" in e}
    quick_budgets = {name: int(e["quick_replicate"]) for name, e in entries.items() if "quick_replicate" in e}
    floors = {name: int(e["min_replicate"]) for name, e in entries.items() if "min_replicate" in e}
    for name, least in floors.items():
        if least > budgets.get(name, least):
            raise ValueError(f"{key}/claims.yaml preset {name}: min_replicate {least} is above its "
                             f"replicate {budgets[name]}")
    notes = (spec.get("notes") or "").strip()
    calibrations = parse_calibrations(key, spec.get("calibrate")) + \
        parse_calibrations(key, spec.get("sensitivity"), kind="sensitivity")
    names = [c.name for c in calibrations]
    if len(set(names)) != len(names):
        raise ValueError(f"{key}/claims.yaml: calibrate and sensitivity block names repeat: "
                         f"{sorted({n for n in names if names.count(n) > 1})}")
    for calibration in calibrations:
        unknown = [c for c in calibration.claims if c not in ids] + \
            [p for p in calibration.presets if p not in presets]
        if unknown:
            block = "calibrate" if calibration.fits else "sensitivity"
            raise ValueError(f"{key}/claims.yaml {block} {calibration.name!r}: unknown claims or presets "
                             f"{unknown}")
    return Paper(key, spec["title"], presets, claims, notes, budgets, quick_budgets, floors, calibrations)


def _claim(paper: str, entry: Mapping[str, Any], presets: Mapping[str, Any]) -> Claim:
    where = f"{paper}/claims.yaml claim {entry.get('id')!r}"
    from sweep.reproduce.quantities import QUANTITIES

    if entry["quantity"] not in QUANTITIES:
        raise ValueError(f"{where}: unknown quantity {entry['quantity']!r}; known: {', '.join(QUANTITIES)}")
    direction = entry.get("direction")
    unknown = set(entry) - {"id", "section", "words", "quantity", "args", "expect", "direction", "deviation",
                            "full_only", "verdict", "quick_verdict", "replicate"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    claim = Claim(paper, entry["id"], entry["section"], " ".join(entry["words"].split()),
                  entry["quantity"], dict(entry.get("args") or {}), Expectation.parse(entry["expect"], where),
                  Expectation.parse(direction, where) if direction else None,
                  _text(entry.get("deviation")), _text(entry.get("full_only")),
                  entry.get("verdict", "reproduced"), entry.get("quick_verdict"),
                  int(entry["replicate"]) if "replicate" in entry else None)
    for verdict in (claim.verdict, claim.quick_verdict):
        if verdict is not None and verdict not in VERDICTS:
            raise ValueError(f"{where}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    if claim.verdict in ("deviates", "contradicted") and not claim.deviation:
        raise ValueError(f"{where}: a claim expected to be {claim.verdict} needs a deviation note "
                         "(the measured values and their cause, or 'Cause unknown')")
    missing = [p for p in claim.presets if p not in presets]
    if missing:
        raise ValueError(f"{where}: presets {missing} are not listed under presets:")
    return claim


def _text(value: str | None) -> str | None:
    """A YAML text block as one line (None stays None)."""
    return " ".join(value.split()) if value else None


@dataclass(frozen=True)
class Judgement:
    """A claim's verdict and the measurement behind it."""

    claim: Claim
    verdict: str
    measured: xr.DataArray
    #: The quantity's strict reading, where it makes calls of its own (``strict=True``: CV96's sign
    #: test one flag the other way, its orders on intervals MARGIN times as wide); else None.
    strict: xr.DataArray | None = None

    @property
    def marginal(self) -> bool:
        """Decided, but not with intervals :data:`MARGIN` times as wide (the module docstring), on
        the quantity's strict reading where it has one."""
        reading = self.measured if self.strict is None else self.strict
        return self.verdict != "undecided" and verdict_scaled(self.claim, reading, MARGIN) != self.verdict

    def measured_text(self, digits: int = 3) -> str:
        """``9.9 [9.6, 10.2] at load=0.5; ...``: each value with its interval and label."""
        return "; ".join(_value_text(value, low, high, label, digits)
                         for value, low, high, label in _elements(self.measured))


def _elements(da: xr.DataArray):
    flat = da.stack(_element=da.dims) if da.dims else da.expand_dims("_element")
    for i in range(flat.sizes["_element"]):
        item = flat.isel(_element=i)
        label = ", ".join(f"{d}={item[d].item()}" for d in da.dims)
        yield (float(item), float(item["low"]) if "low" in item.coords else math.nan,
               float(item["high"]) if "high" in item.coords else math.nan, label)


def _value_text(value: float, low: float, high: float, label: str, digits: int) -> str:
    text = f"{value:.{digits}g}"
    if math.isfinite(low) and math.isfinite(high):
        text += f" [{low:.{digits}g}, {high:.{digits}g}]"
    return f"{text} at {label}" if label else text


def judge(claim: Claim, measured: xr.DataArray, strict: xr.DataArray | None = None) -> Judgement:
    """The verdict of ``claim`` on ``measured`` (values with ``low``/``high``; see the module);
    ``strict``, the quantity's strict reading (:attr:`Judgement.strict`), decides only whether the
    verdict is marginal."""
    values = np.asarray(measured.values, dtype=np.float64)
    low = _bound(measured, "low", values)
    high = _bound(measured, "high", values)
    if values.size == 0 or (np.isnan(values).all() and "replications_needed" not in measured.attrs):
        raise ValueError(f"claim {claim.paper}:{claim.id}: the quantity has no value")
    return Judgement(claim, verdict_of(claim, low.ravel(), high.ravel()), measured, strict)


def verdict_of(claim: Claim, low: np.ndarray, high: np.ndarray) -> str:
    """The verdict on intervals ``[low, high]``, one per value (the module docstring's rule).

    A value whose interval is NaN (a value that could not be computed) is undecided.
    """
    direction = claim.direction or claim.expect
    if direction.excludes(low, high).any():
        return "contradicted"
    if claim.expect.contains(low, high).all():
        return "reproduced"
    if direction.contains(low, high).all() and claim.expect.excludes(low, high).any():
        return "deviates"  # one value decidedly off the number, every value on the claimed side
    return "undecided"


def decidable(claim: Claim, measured: xr.DataArray, shrink: float) -> bool:
    """Whether the claim could be decided were every interval ``shrink`` times as wide about its
    value (more replications: the half-width falls as one over the square root of their number).
    ``sweep-reproduce`` spends no replications on a claim that its budget cannot decide."""
    return verdict_scaled(claim, measured, shrink) != "undecided"


def verdict_scaled(claim: Claim, measured: xr.DataArray, factor: float) -> str:
    """The verdict were every interval ``factor`` times as wide about its value (an infinite value,
    CV96's ratio to a saturated point, keeps its empty interval)."""
    values = np.asarray(measured.values, dtype=np.float64).ravel()
    low, high = (_bound(measured, end, values.reshape(measured.shape)).ravel() for end in ("low", "high"))
    with np.errstate(invalid="ignore"):
        return verdict_of(claim, *(np.where(end == values, values, values + factor * (end - values))
                                   for end in (low, high)))


def _bound(measured: xr.DataArray, name: str, values: np.ndarray) -> np.ndarray:
    """The interval's end, or the value itself where the interval is unknown (one replication)."""
    if name not in measured.coords:
        return values
    bound = np.asarray(measured[name].values, dtype=np.float64)
    return np.where(np.isnan(bound), values, bound)


def evaluate(claim: Claim, datasets: Mapping[str, xr.Dataset]) -> Judgement:
    """Compute the claim's quantity from the presets' Datasets and judge it."""
    from sweep.reproduce.quantities import QUANTITIES

    missing = [p for p in claim.presets if p not in datasets]
    if missing:
        raise KeyError(f"claim {claim.paper}:{claim.id} needs the Datasets of {missing}")
    compute = QUANTITIES[claim.quantity]
    strict = (compute(datasets, **claim.args, strict=True)
              if "strict" in inspect.signature(compute).parameters else None)
    return judge(claim, compute(datasets, **claim.args), strict)
