"""Parameter dataclasses as the schema of policies and other options (docs/adding-a-policy.md).

A policy's parameters are one frozen dataclass: each field's default is the
paper's value, its docstring says where it comes from, and :func:`param`
records what values are allowed. :func:`check_params` is the one place that
checks a config section against such a dataclass and builds it; every problem
is one line naming the option, the allowed values and the value given::

    @dataclass(frozen=True)
    class QuantumParams:
        quantum: float = param(10.0, gt=0, unit="seconds")

    check_params(QuantumParams, {"quantum": 0}, section="policy", owner="policy 'fb_pws'")
    # ValueError: policy.quantum must be a number of seconds > 0, got 0

Cross-field rules stay in the dataclass's ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["NoParams", "Spec", "check_params", "kernel_fields", "kernel_values", "param", "params_doc"]

#: What a compiled kernel reads of a parameter: a bool, an integer or a number.
KernelValue = bool | int | float


@dataclass(frozen=True)
class NoParams:
    """Parameters of a policy that has none."""


@dataclass(frozen=True)
class Spec:
    """What values a parameter allows (see :func:`param`)."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    lt: float | None = None
    choices: tuple[Any, ...] | None = None
    unit: str = ""
    finite: bool = True
    nullable: bool = False
    doc: str = ""

    def describe(self, default: Any) -> str:
        """The allowed values in words, e.g. ``a number of seconds > 0``."""
        if self.nullable:
            return "null or " + dataclasses.replace(self, nullable=False).describe(
                0.0 if default is None else default)
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        if isinstance(default, bool):
            return "true or false"
        if isinstance(default, str):
            return "a string"
        kind = "an integer" if isinstance(default, int) else "a number"
        if self.unit:
            kind = f"{kind} of {self.unit}"
        low = (">=", self.ge) if self.ge is not None else (">", self.gt) if self.gt is not None else None
        high = ("<=", self.le) if self.le is not None else ("<", self.lt) if self.lt is not None else None
        if low and high:
            left = "[" if low[0] == ">=" else "("
            right = "]" if high[0] == "<=" else ")"
            return f"{kind} in {left}{_num(low[1])}, {_num(high[1])}{right}"
        bound = low or high
        return f"{kind} {bound[0]} {_num(bound[1])}" if bound else kind

    def allows(self, value: Any, default: Any) -> bool:
        """Whether ``value`` has the default's type (an int is a float) and lies in range.

        A nullable parameter, or one whose default is ``None``, also takes ``None``;
        with a ``None`` default the type is that of :func:`sample` of the annotation.
        """
        if value is None and (self.nullable or default is None):
            return True
        if default is None:
            default = 0.0
        if self.choices is not None:
            return any(value == c and type(value) is type(c) for c in self.choices)
        if isinstance(default, bool):
            return isinstance(value, bool)
        if isinstance(default, str):
            return isinstance(value, str)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        if isinstance(default, int) and not float(value).is_integer():
            return False
        if math.isnan(value) or (self.finite and math.isinf(value)):
            return False
        return ((self.ge is None or value >= self.ge) and (self.gt is None or value > self.gt)
                and (self.le is None or value <= self.le) and (self.lt is None or value < self.lt))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def param(default: Any, *, ge: float | None = None, gt: float | None = None, le: float | None = None,
          lt: float | None = None, choices: Sequence[Any] | None = None, unit: str = "",
          finite: bool = True, nullable: bool = False, doc: str = "") -> Any:
    """A dataclass field with its allowed values: bounds, or ``choices`` for a string option.

    The type is the default's: ``bool`` true/false, ``int`` an integer, ``float``
    a number (an integer is accepted and converted), ``str`` one of ``choices``.
    A parameter without a spec (a plain default) is checked for its type only.

    Parameters
    ----------
    default
        The value when the config gives none; its type is the parameter's.
    ge, gt, le, lt
        Bounds of a number: at least, above, at most, below.
    choices
        The allowed values of a string option.
    unit
        The unit shown in ``sweep --help`` and the messages (``"seconds"``).
    finite
        Refuse infinite numbers (``False``: ``.inf`` allowed, e.g. "no limit").
    nullable
        Also allow ``None`` (with a ``None`` default: a number otherwise).
    doc
        One line for ``sweep --help``.

    Returns
    -------
    dataclasses.Field
        The field, its allowed values in its metadata (checked when a config is read).
    """
    spec = Spec(ge, gt, le, lt, tuple(choices) if choices is not None else None, unit, finite,
                nullable, doc)
    return field(default=default, metadata={"spec": spec})


def _spec(f: dataclasses.Field) -> Spec:
    return f.metadata.get("spec", Spec())


def check_params(cls: type, config: Mapping[str, Any], *, section: str, owner: str,
                 ignore: Sequence[str] = ("name",)) -> Any:
    """Build ``cls`` from ``config`` (``ignore``'d keys skipped); one-line ``ValueError`` otherwise.

    ``section`` prefixes the option in messages (``policy.quantum``); ``owner``
    names what has no such option (``policy 'eqs'``).
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    unknown = sorted(set(config) - set(fields) - set(ignore))
    if unknown:
        allowed = ", ".join(sorted(fields)) or "none"
        raise ValueError(f"{owner} has no option {unknown[0]!r}; allowed: {allowed}")
    values = {}
    for name, f in fields.items():
        if name not in config:
            continue
        value, spec = config[name], _spec(f)
        if value is None and (f.default is None or spec.nullable):
            values[name] = None
            continue
        scalar = f.default is not None and f.default is not dataclasses.MISSING
        default = f.default if scalar else sample(hints.get(name))
        if default is None:  # a mapping or a list: its family checks what is inside
            values[name] = value
            continue
        if not spec.allows(value, default):
            nullable = dataclasses.replace(spec, nullable=spec.nullable or f.default is None)
            raise ValueError(f"{section}.{name} must be {nullable.describe(default)}, got {value!r}")
        if isinstance(default, float):
            value = float(value)
        elif isinstance(default, int) and not isinstance(default, bool):
            value = int(value)
        values[name] = value
    return cls(**values)


def sample(annotation: Any) -> Any:
    """A value of the annotation's scalar type (``int | None`` -> 0), to type a ``None`` default."""
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    for kind, value in ((bool, False), (int, 0), (float, 0.0), (str, "")):
        if annotation is kind or (union and kind in typing.get_args(annotation)):
            return value
    return None


def params_doc(cls: type) -> list[tuple[str, Any, str, str]]:
    """``(name, default, allowed values, doc)`` of every parameter: for ``--help`` and docs."""
    return [(f.name, f.default, _spec(f).describe(f.default), _spec(f).doc)
            for f in dataclasses.fields(cls)]


def kernel_values(params: Any, *, taken: Sequence[str] = ()) -> dict[str, KernelValue]:
    """A policy's parameter dataclass as a compiled kernel reads it, field by field.

    A bool, an integer or a number is itself; a string of ``choices`` is its
    index in the field's ``choices`` (the policy's own code compares it with
    its constants). The fields named in ``taken`` are left out: the family
    fills those (e.g. from the workload, or options its loop reads itself).
    So a new parameter reaches a family's kernel by its name, with no edit of
    the family. One-line ``ValueError`` for a field no kernel can hold (a
    ``None``, a mapping, a list, a string without choices).
    """
    values: dict[str, KernelValue] = {}
    for f in dataclasses.fields(params):
        if f.name in taken:
            continue
        value, choices = getattr(params, f.name), _spec(f).choices
        if isinstance(value, str) and choices is not None:
            values[f.name] = choices.index(value)
        elif isinstance(value, bool | int | float):
            values[f.name] = value
        else:
            raise ValueError(f"parameter {f.name!r} of {type(params).__name__} cannot reach a compiled "
                             f"kernel: it must be a bool, an integer, a number or one of its choices, "
                             f"got {value!r}")
    return values


def kernel_fields(values: Mapping[str, KernelValue]) -> list[tuple[str, type]]:
    """The record fields that hold ``values`` (:func:`kernel_values`): ``np.bool_`` for a bool,
    ``np.int64`` for an integer, ``np.float64`` for a number, in their order."""
    return [(name, np.bool_ if isinstance(v, bool) else np.int64 if isinstance(v, int) else np.float64)
            for name, v in values.items()]
