"""CPOP's critical path (Topcuoglu, Hariri & Wu 2002, §4.2, Fig. 4): one path of length |CP|.

Hand-worked shortcut (``SHORTCUT``): tasks 0 -> 2 -> 1 and the edge 0 -> 1,
unit costs on two processors, no data. rank_u = 3, 1, 2 and rank_d = 0, 2, 1:
every priority is 3 = |CP|. From 0 both successors have priority |CP|; only
2 keeps the path critical (rank_d(2) = rank_d(0) + w̄_0 = 1, while rank_d(1)
= 2), so the path is 0-2-1. Following the successor of highest priority (ties
by lowest index) alone would go straight to 1 and skip 2.

Random graphs (``_random_float_instance``): layered DAGs whose edges may jump
levels (so shortcut edges along a critical path are common), float weights,
data and an unrelated cost matrix. The marked tasks, in topological order,
must run from an entry task to an exit task along edges, and their mean
computation plus mean communication costs must add up to |CP|, the first
task's priority and the graph's longest path.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.mapping._instance import Instance
from sweep.families.mapping.cpop import critical_path
from sweep.workloads.task_graphs import TaskGraph, random_dag, random_system
from sweep.workloads.task_graphs import critical_path as longest_path
from tests.mapping._util import line, make

SHORTCUT = TaskGraph(np.ones(3), np.array([0, 2, 0]), np.array([2, 1, 1]), np.zeros(3))


def _random_float_instance(seed: int) -> Instance:
    """10–200 tasks, 2–8 processors, float costs, edges jumping up to 4 levels."""
    rng = np.random.default_rng(seed)
    graph = random_dag(rng, int(rng.integers(10, 201)), fat=float(rng.uniform(0.3, 0.8)),
                       density=float(rng.uniform(0.1, 0.6)), jump=int(rng.integers(2, 5)),
                       weights=lambda g, n: g.uniform(1.0, 10.0, n),
                       data=lambda g, n: g.uniform(0.0, 10.0, n))
    system = random_system(rng, int(rng.integers(2, 9)), degree=float(rng.uniform(1.5, 3.5)))
    cost = graph.weight[:, None] * rng.uniform(0.5, 2.0, (graph.tasks, system.processors))
    return make(TaskGraph(graph.weight, graph.src, graph.dst, graph.data, cost), system)


@pytest.mark.kernel
def test_the_critical_path_takes_no_shortcut():
    prio, on_cp, cp_proc, _ = critical_path(make(SHORTCUT, line([1, 1], [1])))
    assert prio.tolist() == [3, 3, 3]
    assert set(np.flatnonzero(on_cp).tolist()) == {0, 2, 1} and cp_proc == 0


@pytest.mark.parametrize("seed", range(200))
def test_the_critical_path_is_one_path_of_length_cp(seed):
    inst = _random_float_instance(seed)
    graph = inst.graph
    prio, on_cp, _, _ = critical_path(inst)
    position = np.empty(inst.tasks, dtype=np.int64)
    position[graph.order] = np.arange(inst.tasks)
    path = sorted(np.flatnonzero(on_cp).tolist(), key=lambda t: position[t])
    edge = {(int(s), int(d)): e for e, (s, d) in enumerate(zip(graph.src, graph.dst, strict=True))}
    hops = [edge.get(pair) for pair in zip(path, path[1:], strict=False)]
    assert None not in hops, f"seed {seed}: the marked tasks {path} are not joined by edges"
    assert not np.any(graph.dst == path[0]) and not np.any(graph.src == path[-1])
    length = inst.wbar[path].sum() + inst.cbar * graph.data[hops].sum()
    cp = prio[path[0]]
    assert length == pytest.approx(cp, rel=1e-9)
    assert cp == pytest.approx(longest_path(graph, inst.wbar, inst.cbar * graph.data), rel=1e-9)
