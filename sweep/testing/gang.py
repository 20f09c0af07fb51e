"""Runs of any gang policy on jobs given in ticks, and its comparison with its plain-Python reference.

:func:`run` runs a policy's kernel on a small machine (``tests/gang`` runs sweep's own policies
through it); :func:`compare_with_reference` runs a policy that has a reference (its local
scheduler, registered with :func:`sweep.testing.naive.reference`) against the tick-by-tick
simulation of :mod:`sweep.testing.naive.gang` (CSSE00 §3.3), which ``pytest --pyargs
sweep.testing`` runs on a plugin's policies too.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from sweep.families import Policy, load_families
from sweep.families.gang import _simulate as SIM
from sweep.testing.checks import assert_matches
from sweep.testing.naive import WHERE
from sweep.testing.naive import gang as naive

__all__ = ["HOW_TO_ADD", "compare_with_reference", "machine", "run"]

#: How a gang policy gets a reference ({name}: the policy's).
HOW_TO_ADD = ("register its local scheduler, local(matrix, cur, p, rr, par) -> task or None "
              "(sweep.testing.naive.gang), with @sweep.testing.naive.reference({name!r}), " + WHERE)

#: What the reference's run returns, in the order of the kernel's last counters row.
COUNTS = ("idle", "empty", "busy", "held", "held_idle", "idle_slots", "task_slices")


def machine(processors: int, ticks: int, slices: int, trace: bool = True) -> Any:
    """A machine of ``processors`` PEs, slices of ``ticks`` ticks, recording ``slices`` slices."""
    return SIM.Machine(processors, 1.0, ticks, (float(slices),), slices if trace else 0)


def run(policy: str | Policy, jobs: Mapping[str, Any], processors: int, ticks: int, slices: int, *,
        example: Mapping[str, Any] | None = None, workload: Mapping[str, float] | None = None,
        deterministic: bool = True, pool: np.ndarray | None = None) -> tuple[Any, np.ndarray]:
    """Run ``policy`` (a registered one's name, or a Policy) on ``jobs`` (columns arrival, width,
    work in ticks; cls); (run, the kernel's settings).

    ``workload`` gives io_burst, io_wait, sync_phase in *seconds* of a 1-second slice, i.e.
    in slices; times ``ticks`` they are ticks.
    """
    m = machine(processors, ticks, slices)
    if isinstance(policy, str):
        policy = load_families()["gang"].policies[policy]
    params = policy.make_params(example or {})
    settings = SIM.kernel_settings(params, workload or {}, m, 10**6, deterministic)
    pool = SIM.draw_pool(np.random.default_rng(0), 1 << 10) if pool is None else pool
    cls = np.asarray(jobs.get("cls", np.zeros(len(jobs["arrival"]), np.int64)), np.int64)
    result = SIM.run_kernel(policy, params, np.asarray(jobs["arrival"]), np.asarray(jobs["width"]),
                            np.asarray(jobs["work"]), cls, settings, m.report_ticks, processors,
                            pool, slices * ticks)
    return result, settings


def _random_case(rng: np.random.Generator, classes: int) -> tuple[int, int, dict, dict]:
    """1-6 PEs, 1-4 ticks a slice, 1-8 jobs of the first ``classes`` classes, a random workload."""
    P = int(rng.integers(1, 7))
    K = int(rng.integers(1, 5))
    n = int(rng.integers(1, 9))
    jobs = {"arrival": np.sort(rng.integers(0, 12 * K, n)), "width": rng.integers(1, P + 1, n),
            "work": rng.integers(1, 15 * K, n), "cls": rng.integers(0, classes, n)}
    workload = {"io_burst": float(rng.uniform(0.2, 2)), "io_wait": float(rng.uniform(0.2, 3)),
                "sync_phase": float(rng.uniform(0.3, 3)), "sync_imbalance": float(rng.uniform(0, 1))}
    return P, K, jobs, workload


def _reference_settings(settings: np.ndarray, example: Mapping[str, Any], deterministic: bool) -> dict:
    """What the reference reads (``par``), from the kernel's settings record and the example: a
    policy without a local priority has no alpha or beta in its record, the reference reads none."""
    s = settings[0]
    own = {name: s[name] if name in s.dtype.names else np.nan for name in ("alpha", "beta")}
    return {**own, "gamma": s["smoothing"], "burst": s["io_burst"], "wait": s["io_wait"],
            "phase": s["sync_phase"], "imbalance": s["sync_imbalance"], "det": deterministic,
            "best_fit": example.get("packing") == "best_fit", "ispan": example.get("classifier") == "ispan"}


def compare_with_reference(policy: str, example: Mapping[str, Any], cases: int = 60) -> None:
    """``cases`` small random machines and workloads of every class (every other one without
    barriers, so that the loop's PE-major order is used throughout), random and deterministic
    bursts: the whole trace diagram, every job's start and end, and the idle, empty-slot and busy
    PE-tick counts, the idle slots and the task-slices equal to the reference's; else one
    ``AssertionError`` naming the policy, the case and the first difference."""
    rng = np.random.default_rng(zlib.crc32(f"{policy}{dict(example)}".encode()))
    for case in range(cases):
        P, K, jobs, workload = _random_case(rng, 2 if case % 2 else 3)
        deterministic = bool(case % 3 == 0)
        u = rng.random(1 << 8)
        pool = np.column_stack([u, -np.log1p(-u)])
        slices = 60
        got, settings = run(policy, jobs, P, K, slices, example=example, workload=workload,
                            deterministic=deterministic, pool=pool)
        par = _reference_settings(settings, example, deterministic)
        want = naive.simulate(policy, jobs["arrival"].tolist(), jobs["width"].tolist(), jobs["work"].tolist(),
                              jobs["cls"].tolist(), P, K, slices, par, pool)
        label = (f"{dict(example)}, case {case}: P={P} K={K}, {len(jobs['arrival'])} jobs "
                 f"{ {k: v.tolist() for k, v in jobs.items()} }, {workload}")
        assert_matches(policy, label, {"trace": got.rec, "start": got.jobs.start, "end": got.jobs.end,
                                       **dict(zip(COUNTS, got.out[-1].tolist(), strict=True))},
                       {"trace": want["trace"], "start": want["start"], "end": want["end"],
                        **{name: want[name] for name in COUNTS}})
