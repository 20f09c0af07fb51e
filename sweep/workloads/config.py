"""Build a service-time distribution from a workload config (``conf/workload/*.yaml``).

A workload config is a mapping with ``kind`` and that kind's parameters
(``name``, the config's own name, is allowed and ignored). Each kind's
parameters are the fields of one dataclass in :data:`KINDS` (a field without a
default is required); the Hydra schema of ``conf/workload/<option>.yaml`` is
made from it (:mod:`sweep.config.schema`), so every parameter can be set on the
command line (``workload.scv=16``) and the YAML only chooses values. Bad
options give one line naming the option and the allowed values.

Kinds: ``exponential`` (mean), ``hyperexp2`` (mean, scv), ``bounded_pareto``
(k, p, alpha), ``c90`` and ``j90`` (the reconstructed PSC workloads of
Schroeder & Harchol-Balter 2000, as ``lognormal_pareto`` parameters whose
defaults are :data:`~sweep.workloads.named.C90_PARAMETERS` and
:data:`~sweep.workloads.named.J90_PARAMETERS`), ``j90_refit`` (the J90 fitted again
for another borrowed ``sigma`` and ``alpha``: :func:`~sweep.workloads.named.j90_refitted`),
``trace`` (a trace's run times, the paper's CTC workload; its ``sampling`` and ``cutoff_fraction`` are for the
family). Workloads of other kinds are not distributions and are checked by the
family that reads them (``swf``: the rigid family's trace replay; ``malleable``).

Each kind is a :class:`DistributionKind`: its name, its options' dataclass and the
function that builds the distribution from them. An installed package adds kinds
through the ``sweep.workloads`` entry point group (docs/plugins.md); they are used
wherever a distribution is (``workload=<kind>`` for the dispatch family, a mapping
workload's costs).
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, make_dataclass
from typing import Any

from sweep.workloads._discovery import PLUGIN_ERRORS, plugin_distributions, plugin_of_kind, reserve
from sweep.workloads._parts import REQUIRED, DistributionKind
from sweep.workloads.distributions import (
    BoundedPareto,
    Distribution,
    Empirical,
    Exponential,
    Hyperexp2,
    ParameterError,
)
from sweep.workloads.named import (
    C90_PARAMETERS,
    J90_PARAMETERS,
    j90_refitted,
    lognormal_pareto,
    resolve_trace_path,
    trace_sizes,
)
from sweep.workloads.swf import SWFError, SWFFileNotFoundError
from sweep.workloads.traces import reader_for

__all__ = ["BUILT_IN_KINDS", "KINDS", "SAMPLING_MODES", "SIZES_FROM", "WORKLOAD_KINDS", "DistributionKind",
           "distribution_kinds", "make_distribution", "plugin_parts_of", "validate_workload"]

#: How a family draws sizes from a trace: with replacement, or cycling in trace order.
SAMPLING_MODES = ("bootstrap", "trace_order")
#: Which part of a trace a family draws sizes from: all of it, or the part after the
#: leading ``cutoff_fraction`` that fits the SITA cutoffs (an out-of-sample evaluation).
SIZES_FROM = ("whole", "rest")


@dataclass(frozen=True)
class ExponentialWorkload:
    """``exponential``: service times of mean ``mean`` (s)."""

    mean: float


@dataclass(frozen=True)
class Hyperexp2Workload:
    """``hyperexp2``: two-phase hyperexponential, balanced means, ``scv`` >= 1."""

    mean: float
    scv: float


@dataclass(frozen=True)
class BoundedParetoWorkload:
    """``bounded_pareto``: ``B(k, p, alpha)`` of Harchol-Balter, Crovella & Murta."""

    k: float
    p: float
    alpha: float


def _lognormal_pareto(name: str, constants: dict[str, float], doc: str) -> type:
    """A kind whose options are :func:`~sweep.workloads.named.lognormal_pareto`'s, defaults ``constants``."""
    cls = make_dataclass(name, [(key, float, field(default=value)) for key, value in constants.items()],
                         frozen=True)
    cls.__doc__ = doc
    return cls


C90Workload = _lognormal_pareto("C90Workload", C90_PARAMETERS,
                                "``c90``: the reconstructed PSC C90 sizes (named.py: c90).")
J90Workload = _lognormal_pareto("J90Workload", J90_PARAMETERS,
                                "``j90``: the fitted PSC J90 sizes (named.py: j90).")


@dataclass(frozen=True)
class J90RefitWorkload:
    """``j90_refit``: the J90 reconstruction fitted again, with its mean and C² SH00's, for another
    borrowed lognormal ``sigma`` and Pareto ``alpha`` (named.py: j90_refitted)."""

    sigma: float = J90_PARAMETERS["sigma"]
    alpha: float = J90_PARAMETERS["alpha"]


@dataclass(frozen=True)
class TraceWorkload:
    """``trace``: the run times of a trace's jobs on ``processors`` processors.

    Jobs that ran longer than ``max_run_time`` seconds, the center's runtime
    limit, are left out (``inf``: none; Schroeder & Harchol-Balter 2000, §2.1:
    CTC killed jobs after 12 hours, ``conf/workload/ctc.yaml`` sets 43200).
    ``sampling``, ``cutoff_fraction`` and ``sizes_from`` are read by the family
    (§4.1: the CTC workload; SITA cutoffs fitted on the first half; sizes drawn
    from the whole trace, or from the rest only).
    """

    path: str
    processors: int = 8
    max_run_time: float = math.inf
    sampling: str = "bootstrap"
    cutoff_fraction: float = 0.5
    sizes_from: str = "whole"


#: The distribution kinds of sweep itself (module docstring).
BUILT_IN_KINDS: dict[str, DistributionKind] = {kind.name: kind for kind in (
    DistributionKind("exponential", ExponentialWorkload, Exponential),
    DistributionKind("hyperexp2", Hyperexp2Workload, Hyperexp2),
    DistributionKind("bounded_pareto", BoundedParetoWorkload, BoundedPareto),
    DistributionKind("c90", C90Workload, lognormal_pareto),
    DistributionKind("j90", J90Workload, lognormal_pareto),
    DistributionKind("j90_refit", J90RefitWorkload, j90_refitted),
    DistributionKind("trace", TraceWorkload, lambda **parameters: _trace_distribution(parameters)),
)}
#: The built-in kinds' options: each kind's options are the fields of its dataclass; a field
#: without a default is required (the Hydra schemas of ``sweep.config.schema`` are made from these).
KINDS: dict[str, type] = {name: kind.options for name, kind in BUILT_IN_KINDS.items()}
WORKLOAD_KINDS = tuple(BUILT_IN_KINDS)


reserve(kinds=BUILT_IN_KINDS)  # no plugin may take their names


def distribution_kinds() -> dict[str, DistributionKind]:
    """Every distribution kind by name: sweep's own, then the installed plugins'."""
    return {**BUILT_IN_KINDS, **plugin_distributions()}


def validate_workload(cfg: Mapping[str, Any]) -> None:
    """Raise ValueError (one line: the option and its allowed values) unless ``cfg`` builds."""
    make_distribution(cfg)


def make_distribution(cfg: Mapping[str, Any]) -> Distribution:
    """The distribution a workload config describes (see the module docstring).

    A ``trace`` workload gives the :class:`Empirical` distribution of the
    trace's run times, in trace order (``.values``).
    """
    kind, parameters = _checked_parameters(cfg)
    try:
        distribution = kind.build(**parameters)
    except ParameterError as error:
        raise ValueError(
            f"workload.{error.parameter} must be {error.allowed}, got {error.value!r}"
            f" (workload kind {kind.name})"
        ) from None
    except ValueError as error:
        if kind.name in BUILT_IN_KINDS:
            raise
        raise ValueError(f"workload kind {kind.name!r}: {str(error).splitlines()[0]}") from None
    if not isinstance(distribution, Distribution):
        raise ValueError(f"workload kind {kind.name!r} built a {type(distribution).__name__}, not a "
                         "sweep.workloads.Distribution")
    return distribution


def _checked_parameters(cfg: Mapping[str, Any]) -> tuple[DistributionKind, dict[str, Any]]:
    """``(kind, parameters with defaults filled in)``, after checking names and types."""
    if not isinstance(cfg, Mapping):
        raise ValueError(f"workload must be a mapping with a 'kind', got {type(cfg).__name__}")
    kinds = distribution_kinds()
    kind = cfg.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        left_out = "".join(f"; plugin {where!r} was left out ({why})" for where, why in PLUGIN_ERRORS.items())
        raise ValueError(f"workload.kind must be one of {list(kinds)}, got {kind!r}{left_out}")
    kind = kinds[kind]
    defaults = kind.parameters()
    texts = kind.texts()
    unknown = sorted(set(cfg) - set(defaults) - {"name", "kind"})
    if unknown:
        raise ValueError(
            f"workload.{unknown[0]} is not an option of workload kind {kind.name};"
            f" allowed: {sorted(defaults)}"
        )
    parameters = {key: cfg.get(key, default) for key, default in defaults.items()}
    for key, value in parameters.items():
        if value is REQUIRED:
            raise ValueError(f"workload.{key} is required for workload kind {kind.name}")
        if key not in texts and (
            isinstance(value, bool) or not isinstance(value, numbers.Real)
        ):
            raise ValueError(f"workload.{key} must be a number, got {value!r}")
    return kind, {
        key: value if key in texts else float(value) for key, value in parameters.items()
    }


def _trace_distribution(parameters: Mapping[str, Any]) -> Empirical:
    """The ``trace`` kind: check the options, read the trace, keep the selected run times."""
    processors, sampling = parameters["processors"], parameters["sampling"]
    fraction, limit = parameters["cutoff_fraction"], parameters["max_run_time"]
    if not processors.is_integer() or processors < 1:
        raise ValueError(f"workload.processors must be a positive integer, got {processors!r}")
    processors = int(processors)
    if sampling not in SAMPLING_MODES:
        raise ValueError(
            f"workload.sampling must be one of {list(SAMPLING_MODES)}, got {sampling!r}"
        )
    if not 0 < fraction <= 1:
        raise ValueError(f"workload.cutoff_fraction must be in (0, 1], got {fraction!r}")
    if parameters["sizes_from"] not in SIZES_FROM:
        raise ValueError(
            f"workload.sizes_from must be one of {list(SIZES_FROM)}, got {parameters['sizes_from']!r}"
        )
    if parameters["sizes_from"] == "rest" and fraction >= 1:
        raise ValueError("workload.sizes_from=rest needs workload.cutoff_fraction < 1 (no rest)")
    if not limit > 0:
        raise ValueError(f"workload.max_run_time must be > 0 s (inf: no limit), got {limit!r}")
    if not isinstance(parameters["path"], str | os.PathLike):
        raise ValueError(f"workload.path must be a file path, got {parameters['path']!r}")
    path = resolve_trace_path(parameters["path"])
    try:
        sizes = trace_sizes(path, processors, limit).sizes
    except SWFFileNotFoundError:
        raise ValueError(
            f"workload.path: no such trace file: {path} (relative paths are tried"
            " against the working directory, then the repository root)"
        ) from None
    except SWFError as error:
        raise ValueError(f"workload.path: malformed trace: {error}") from None
    if len(sizes) == 0:
        raise ValueError(
            f"workload.processors: no job in {path} ran on {processors} processors"
            f" with a run time in (0, {limit:g}] s (workload.max_run_time)"
        )
    return Empirical(sizes)


def plugin_parts_of(workload: Mapping[str, Any]) -> dict[tuple[str, str], str]:
    """The plugin distribution kinds and trace readers a workload section uses, each with the entry
    point that added it: ``{("workload kind" or "trace reader", name): entry point}``, from every
    ``kind`` in the section (nested ones too) and the reader of every ``path``. Sweep's own kinds and
    the SWF reader are not listed."""
    used: dict[tuple[str, str], str] = {}

    def visit(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "kind" and isinstance(value, str) and (where := plugin_of_kind(value)):
                    used["workload kind", value] = where
                elif key == "path" and isinstance(value, str | os.PathLike):
                    reader = reader_for(value).name
                    if where := plugin_of_kind(reader):
                        used["trace reader", reader] = where
                visit(value)
        elif isinstance(node, list | tuple):
            for value in node:
                visit(value)

    visit(workload)
    return used
