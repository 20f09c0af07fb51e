"""Are two runs' Datasets bit-identical? For refactorings that must not change a single result.

Usage::

    sweep-reproduce --quick --out BEFORE      # at the commit before
    sweep-reproduce --quick --out AFTER       # at the commit after
    python benchmarks/same_datasets.py BEFORE AFTER

Every ``*.nc`` below BEFORE is compared with the file of the same relative path below AFTER:
each data variable and coordinate, values byte for byte (NaN equal to NaN) with dtype, shape
and dimensions, except wall-clock measurements (variables ending in ``_seconds``, which no two
runs share; named, not compared). Attributes that say when, where and with what a file was made
(``date_created``, ``history``, ``software_versions``, ``command_line``) are left out; any
other attribute that differs is listed, apart from the verdict. Exit 1 when a file is missing
or a value differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import xarray as xr

#: Attributes that record when, where and with which versions a file was written, not what it holds.
WHEN_WRITTEN = {"date_created", "history", "software_versions", "command_line"}
#: Variables measured on the clock: never the same in two runs.
WALL_CLOCK = "_seconds"


def differences(before: xr.Dataset, after: xr.Dataset) -> list[str]:
    """What differs between two Datasets' values (variables and coordinates), one line each."""
    found = []
    names = set(before.variables) | set(after.variables)
    for name in sorted(names):
        if name not in before.variables or name not in after.variables:
            found.append(f"{name}: only in {'after' if name in after.variables else 'before'}")
            continue
        a, b = before.variables[name], after.variables[name]
        if name.endswith(WALL_CLOCK):
            continue
        if a.dims != b.dims or a.dtype != b.dtype or a.shape != b.shape:
            found.append(f"{name}: {a.dtype}{a.dims}{a.shape} against {b.dtype}{b.dims}{b.shape}")
        elif not _same_values(a.values, b.values):
            found.append(f"{name}: values differ")
    return found


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype.kind in "fc":
        return a.tobytes() == b.tobytes() or bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def attribute_differences(before: xr.Dataset, after: xr.Dataset) -> list[str]:
    keys = (set(before.attrs) | set(after.attrs)) - WHEN_WRITTEN
    return sorted(key for key in keys if str(before.attrs.get(key)) != str(after.attrs.get(key)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    files = sorted(path.relative_to(args.before) for path in args.before.rglob("*.nc"))
    if not files:
        print(f"no .nc file below {args.before}", file=sys.stderr)
        return 2
    failed = 0
    for relative in files:
        other = args.after / relative
        if not other.exists():
            print(f"{relative}: missing in {args.after}")
            failed += 1
            continue
        with xr.open_dataset(args.before / relative) as before, xr.open_dataset(other) as after:
            found = differences(before, after)
            attributes = attribute_differences(before, after)
            clocks = sorted(str(n) for n in before.variables if str(n).endswith(WALL_CLOCK))
        failed += bool(found)
        note = f" (attributes differ: {', '.join(attributes)})" if attributes else ""
        note += f" (wall clock, not compared: {', '.join(clocks)})" if clocks else ""
        print(f"{relative}: {'DIFFERENT: ' + '; '.join(found) if found else 'identical'}{note}")
    extra = sorted({p.relative_to(args.after) for p in args.after.rglob("*.nc")} - set(files))
    for relative in extra:
        print(f"{relative}: only in {args.after}")
    print(f"{len(files) - failed} of {len(files)} Datasets identical"
          + (f", {len(extra)} only in {args.after}" if extra else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
