"""Each verdict's sensitivity to a parameter the paper does not print (docs/design.md §9).

A ``calibrate:`` or ``sensitivity:`` block's design (:mod:`sweep.reproduce.calibration`) runs the
presets over the parameter's plausible range; here every claim that reads those presets is judged
at every design point, which the report turns into "robust" or "depends on"
(:func:`sweep.reproduce.calibration.sensitivity_text`). Apart from the calibration module because it
judges claims (:mod:`sweep.reproduce.claims`) on the points they read
(:mod:`sweep.reproduce.rounds`), both of which read the calibration blocks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.reproduce.calibration import Calibration, at, point_label
from sweep.reproduce.claims import evaluate
from sweep.reproduce.rounds import readings, union


def design_verdicts(calibration: Calibration, claims: Sequence[Any],
                    design: Mapping[str, xr.Dataset]) -> dict[str, dict[str, str]]:
    """Per claim, its verdict at every design point (``point_label`` → verdict, or ``error: <type>``).

    Judged: the claims that read only presets of the design and are not the block's targets. Left
    out: a claim that cannot be computed at any point (it reads a policy or a point the design's
    overrides leave out), and one that does not read the parameters (:func:`reads_parameters`)."""
    out = {}
    for claim in claims:
        if claim.id in calibration.claims or not set(claim.presets) <= set(calibration.presets):
            continue
        if not reads_parameters(calibration, claim, design):
            continue
        verdicts = {}
        for point in calibration.design():
            try:
                verdicts[point_label(point)] = evaluate(claim, at(design, point)).verdict
            except Exception as error:  # noqa: BLE001 - reported in the record, not raised
                verdicts[point_label(point)] = f"error: {type(error).__name__}"
        if any(not v.startswith("error") for v in verdicts.values()):
            out[claim.id] = verdicts
    return out


def reads_parameters(calibration: Calibration, claim: Any, design: Mapping[str, xr.Dataset]) -> bool:
    """Whether the points ``claim`` reads (:func:`sweep.reproduce.rounds.readings`) hold different
    results at different design points. They do not when the parameters do not enter them: a claim
    on EQS and EQS-PWS alone reads no ``policy.quantum``, and their runs are the same at every
    quantum (common random numbers: a policy parameter leaves the job stream as it is). Wall-clock
    variables (``*_seconds``) differ between any two runs and are not compared."""
    points = calibration.design()
    for preset in claim.presets:
        reading = union(readings(claim, preset)) or {}
        ds = design[preset]
        ds = ds[[name for name in ds.data_vars if not str(name).endswith("_seconds")]]
        try:
            ds = ds.sel({dim: labels for dim, labels in reading.items() if dim in ds.dims})
        except KeyError:  # labels the design did not run: the claim is judged (and fails) there
            return True
        first = at({preset: ds}, points[0])[preset]
        if any(not _same_values(first, at({preset: ds}, point)[preset]) for point in points[1:]):
            return True
    return False


def _same_values(a: xr.Dataset, b: xr.Dataset) -> bool:
    """Every data variable of ``a`` equal to ``b``'s, element by element (NaN equal to NaN)."""
    return all(np.array_equal(np.asarray(a[name].values), np.asarray(b[name].values),
                              equal_nan=a[name].dtype.kind == "f") for name in a.data_vars)
