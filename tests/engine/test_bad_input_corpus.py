"""Every option's out-of-range values are one line, exit 2, and touch nothing (issue 30).

The corpus is made from the declarations themselves: for each option of sweep's
own settings and of every policy (its ``param`` spec: bounds, choices, type),
values just outside its range, of the wrong type, and NaN where a finite number
is required. A new option or policy joins the corpus without editing this file.
Each case runs against an output that already holds another sweep's results:
the file must come out byte for byte the same, with no checkpoint or lock left.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sweep
from sweep.config import schema
from sweep.families import all_policies

FAST = ["engine.backend=serial", "stop.jobs=500", "stop.warmup=0", "replications=1", "progress=false",
        "plots=false"]


def _bad_values(spec: Any, default: Any, every_kind: bool = True) -> Iterator[str]:
    """Values the spec refuses, as command-line text: past each bound, not a number, and (with
    ``every_kind``) NaN where a finite number is wanted or a fraction where an integer is."""
    if spec.choices is not None:
        yield "no_such_choice"
        return
    if isinstance(default, bool):
        yield "maybe"
        return
    if isinstance(default, str):
        return
    integer = isinstance(default, int)

    def text(value: float) -> str:
        return str(int(value)) if integer else repr(float(value))

    if spec.ge is not None:
        yield text(spec.ge - 1 if integer else spec.ge - 0.5)
    if spec.gt is not None:
        yield text(spec.gt)
    if spec.le is not None:
        yield text(spec.le + 1 if integer else spec.le + 0.5)
    if spec.lt is not None:
        yield text(spec.lt)
    yield "abc"
    if every_kind and integer:
        yield "2.5"
    elif every_kind and spec.finite:
        yield "nan"


def _cases() -> Iterator[Any]:
    for section, cls in schema.SECTIONS:
        prefix = f"{section}." if section else ""
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            spec = f.metadata.get("spec")
            if spec is None:
                continue
            default = schema._typed_default(hints[f.name], f)
            for value in _bad_values(spec, default):
                yield pytest.param([f"{prefix}{f.name}={value}"], f"{prefix}{f.name}",
                                   id=f"{prefix}{f.name}={value}")
    for name, policy in sorted(all_policies().items()):
        if not dataclasses.is_dataclass(policy.params):
            continue
        for f in dataclasses.fields(policy.params):
            spec = f.metadata.get("spec")
            if spec is None:
                continue
            for value in _bad_values(spec, f.default, every_kind=False):  # the kinds: the root's cases
                yield pytest.param([f"policy={name}", f"policy.{f.name}={value}"], f.name,
                                   id=f"{name}.{f.name}={value}")


@pytest.fixture(scope="module")
def another_sweeps_output(tmp_path_factory) -> tuple[Path, bytes]:
    output = tmp_path_factory.mktemp("kept") / "kept.nc"
    sweep.run([*FAST, "policy=random", f"output={output}"])
    return output, output.read_bytes()


@pytest.mark.parametrize(("args", "named"), list(_cases()))
def test_an_option_outside_its_range_is_one_line_and_touches_nothing(error_line, another_sweeps_output,
                                                                      args, named):
    output, before = another_sweeps_output
    line = error_line([*FAST, *args, "seed=3", f"output={output}"])
    assert named in line
    assert output.read_bytes() == before
    assert sorted(p.name for p in output.parent.iterdir()) == [output.name]


def test_the_corpus_covers_every_option_with_a_range():
    assert len(list(_cases())) >= 150
