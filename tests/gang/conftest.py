"""Shared by the gang family's tests: run a policy's kernel on jobs given in ticks."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from sweep.families import Policy, load_families
from sweep.families.gang import _core

FAMILY = load_families()["gang"]
SIM = importlib.import_module("sweep.families.gang._simulate")


def machine(processors: int, ticks: int, slices: int, trace: bool = True) -> Any:
    return SIM.Machine(processors, 1.0, ticks, (float(slices),), slices if trace else 0)


def run(policy: str | Policy, jobs: dict, processors: int, ticks: int, slices: int, *,
        example: dict | None = None, workload: dict | None = None, deterministic: bool = True,
        pool: np.ndarray | None = None) -> tuple[Any, np.ndarray]:
    """Run ``policy`` (a registered one's name, or a Policy) on ``jobs`` (columns arrival, width,
    work in ticks; cls); (run, the kernel's settings).

    ``workload`` gives io_burst, io_wait, sync_phase in *seconds* of a 1-second slice, i.e.
    in slices; times ``ticks`` they are ticks.
    """
    m = machine(processors, ticks, slices)
    if isinstance(policy, str):
        policy = FAMILY.policies[policy]
    params = policy.make_params(example or {})
    settings = SIM.kernel_settings(params, workload or {}, m, 10**6, deterministic)
    pool = SIM.draw_pool(np.random.default_rng(0), 1 << 10) if pool is None else pool
    cls = np.asarray(jobs.get("cls", np.zeros(len(jobs["arrival"]), np.int64)), np.int64)
    result = SIM.run_kernel(policy, params, np.asarray(jobs["arrival"]), np.asarray(jobs["width"]),
                            np.asarray(jobs["work"]), cls, settings, m.report_ticks, processors,
                            pool, slices * ticks)
    return result, settings


def job_trace(result: Any) -> np.ndarray:
    """The trace with each task replaced by its job's index (−1: idle)."""
    return SIM._job_of_task(result, result.rec)


__all__ = ["FAMILY", "SIM", "_core", "job_trace", "machine", "run"]
