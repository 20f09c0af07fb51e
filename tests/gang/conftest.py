"""Shared by the gang family's tests: run a policy's kernel on jobs given in ticks (``run`` and
``machine``: :mod:`sweep.testing.gang`, which a plugin's tests share)."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from sweep.families import load_families
from sweep.families.gang import _core
from sweep.testing.gang import machine, run

FAMILY = load_families()["gang"]
SIM = importlib.import_module("sweep.families.gang._simulate")


def job_trace(result: Any) -> np.ndarray:
    """The trace with each task replaced by its job's index (−1: idle)."""
    return SIM._job_of_task(result, result.rec)


__all__ = ["FAMILY", "SIM", "_core", "job_trace", "machine", "run"]
