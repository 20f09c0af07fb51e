"""Small mapping instances, and any mapper against its plain-Python reference.

:func:`random_instance` is a small random DAG on a small random system (``tests/mapping`` builds
its instances with it); :func:`compare_with_reference` runs a mapper that has a reference
(registered with :func:`sweep.testing.naive.reference`, :mod:`sweep.testing.naive.mapping`)
on such instances, with and without link contention, which ``pytest --pyargs sweep.testing``
runs on a plugin's mappers too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from sweep.families import load_families
from sweep.families.mapping._instance import Instance, instance
from sweep.families.mapping._simulate import run
from sweep.testing.checks import assert_matches
from sweep.testing.naive import REFERENCES, WHERE
from sweep.testing.naive import mapping as naive  # noqa: F401 (registers sweep's own mappers' references)
from sweep.workloads.task_graphs import SystemGraph, TaskGraph, random_dag, random_system, routes

__all__ = ["HOW_TO_ADD", "compare_on_seed", "compare_with_reference", "instances", "make", "random_instance"]

#: How a mapper gets a reference ({name}: the policy's).
HOW_TO_ADD = ("register mapper(inst, params, rng) -> sweep.testing.naive.mapping.Mapped with "
              "@sweep.testing.naive.reference({name!r}), " + WHERE)


def make(graph: TaskGraph, system: SystemGraph, contention: bool = True) -> Instance:
    """The mapping instance of ``graph`` on ``system``, its routes the family's."""
    return instance(graph, system, routes(system), contention)


def random_instance(seed: int, tasks: int = 12, processors: int = 5, contention: bool = True) -> Instance:
    """A small random DAG on a small random system (sizes chosen by the seed)."""
    rng = np.random.default_rng(seed)
    graph = random_dag(rng, tasks, fat=float(rng.uniform(0.3, 0.8)), density=float(rng.uniform(0.1, 0.6)),
                       jump=int(rng.integers(1, 3)))
    system = random_system(rng, processors, degree=float(rng.uniform(1.5, 3.5)))
    return make(graph, system, contention)


def instances(seed: int) -> Iterator[Instance]:
    """Three sizes (1-15 tasks on 1-8 processors) from one seed, each with and without contention."""
    rng = np.random.default_rng(seed)
    for _ in range(3):
        tasks, processors = int(rng.integers(1, 16)), int(rng.integers(1, 9))
        for contention in (True, False):
            yield random_instance(int(rng.integers(1 << 30)), tasks=tasks, processors=processors,
                                  contention=contention)


def compare_on_seed(name: str, example: Mapping[str, Any], seed: int) -> None:
    """On the six :func:`instances` of ``seed``, the mapper and its reference (the same generator
    seed) give every task the same processor and the same ordering key, and predict the same
    makespan; else one ``AssertionError`` naming the policy, the instance and the first
    difference."""
    policy = load_families()["mapping"].policies[name]
    params = policy.make_params(example)
    reference = REFERENCES[name]
    for k, inst in enumerate(instances(seed)):
        plan, _, _, _ = run(inst, policy, params, np.random.default_rng(seed))
        want = reference(inst, params, np.random.default_rng(seed))
        case = (f"{dict(example)}, seed {seed} instance {k}: {inst.tasks} tasks on {inst.processors} "
                f"processors, {'with' if k % 2 == 0 else 'without'} contention")
        assert_matches(name, case, {"proc": plan.proc}, {"proc": want.proc})
        assert_matches(name, case, {"key": plan.key, "planned": plan.planned},
                       {"key": want.key, "planned": want.planned}, rtol=1e-12)


def compare_with_reference(name: str, example: Mapping[str, Any], seeds: int = 6) -> None:
    """:func:`compare_on_seed` on seeds ``0 .. seeds - 1``: 36 instances."""
    for seed in range(seeds):
        compare_on_seed(name, example, seed)
