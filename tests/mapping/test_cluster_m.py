"""Cluster-M worked by hand on a 5-task DAG and a 4-processor system (cluster_m.py's readings).

System: speeds 1, 2, 3, 4; links 0-1 (bandwidth 5), 1-2 (4), 0-2 (3), 2-3 (1).
CNUG, layer 1: edges by weight 0-1, 1-2, 0-2, 2-3. 0-1 seeds a cluster; 1-2
brings in 2 (linked to both 0 and 1); 2-3 does not bring 3 (not linked to 0).
So layer 2 holds A = {0, 1, 2} with (σ, δ, Π, π) = (3, 6, 5 + 4 + 3, 5) and
{3} alone; layer 3 merges them: (4, 10, 13, 1). Processors in clustering
order: A first (its members by decreasing speed 2, 1, 0), then 3.

DAG: 0 -> 1 (data 3), 0 -> 2 (5), 1 -> 3 (1), 2 -> 3 (2), 3 -> 4 (1); weights
2, 1, 3, 2, 1; layers 0, 1, 1, 2, 3. CNDG: fork 0 embeds its heaviest child 2;
join 3 embeds its heaviest free parent 2; 3 -> 4 is a plain edge: 4 embeds
into 3. Spec clusters: {1, 2} (siblings), the others alone.

Mapping (f = mean task weight / mean speed 2.5, capped at 1): layer 0: task 0
asks for ⌈0.8⌉ = 1 processor, least estimated time 2/4 on processor 3. Layer
1: 2 follows 0 to processor 3; 1 asks for 1 processor among 0, 1, 2 (3 is
used), each reached from 3 at bandwidth 1: estimates 1/s + 3, least on
processor 2. Layers 2 and 3 follow their embeddings: 3 and 4 on processor 3.
Execution with contention: 0 [0, 0.5] on P3; 1 waits for 3 units of data
(arrives 3.5), runs [3.5, 3.8333] on P2; 2 [0.5, 1.25] on P3; 3 waits for 1's
message (1 unit on the 2 -> 3 channel, free): [4.8333, 5.3333]; 4 [5.3333,
5.5833].
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.mapping._simulate import run
from sweep.families.mapping.cluster_m import ClusterMParams, cndg, cnug
from sweep.testing.naive import mapping_cluster_m as naive
from sweep.workloads.task_graphs import SystemGraph, TaskGraph
from tests.mapping._util import FAMILY, make, random_instance

SYSTEM = SystemGraph(np.array([1.0, 2, 3, 4]), np.array([0, 1, 0, 2]), np.array([1, 2, 2, 3]),
                     np.array([5.0, 4, 3, 1]))
DAG = TaskGraph(np.array([2.0, 1, 3, 2, 1]), np.array([0, 0, 1, 2, 3]), np.array([1, 2, 3, 3, 4]),
                np.array([3.0, 5, 1, 2, 1]))


@pytest.mark.kernel
def test_cnug_by_hand():
    rep, ops = cnug(make(DAG, SYSTEM))
    assert [m.tolist() for m in rep.members[4:]] == [[0, 1, 2], [0, 1, 2, 3]]
    assert rep.params[4].tolist() == [3, 6, 12, 5] and rep.params[5].tolist() == [4, 10, 13, 1]
    assert rep.order.tolist() == [2, 1, 0, 3] and rep.layers == 3 and ops > 0


@pytest.mark.kernel
def test_cndg_by_hand():
    spec, _ = cndg(make(DAG, SYSTEM), chains=True)
    assert spec.layer.tolist() == [0, 1, 1, 2, 3]
    assert spec.embedded_into.tolist() == [-1, -1, 0, 2, 3]
    assert spec.spec.tolist() == [0, 1, 1, 3, 4]
    assert cndg(make(DAG, SYSTEM), chains=False)[0].embedded_into.tolist() == [-1, -1, 0, 2, -1]


@pytest.mark.kernel
def test_mapping_by_hand():
    policy = FAMILY.policies["cluster_m"]
    plan, summary, start, finish = run(make(DAG, SYSTEM), policy, ClusterMParams(), None)
    assert plan.proc.tolist() == [3, 2, 3, 3, 3]
    assert start.tolist() == pytest.approx([0, 3.5, 0.5, 4 + 5 / 6, 5 + 1 / 3])
    assert summary["makespan"] == pytest.approx(5 + 7 / 12)


@pytest.mark.parametrize("seed", range(5))
def test_rep_clusters_are_nested_and_contiguous_in_clustering_order(seed):
    inst = random_instance(seed, tasks=20, processors=12)
    rep, _ = cnug(inst)
    position = np.empty(12, dtype=int)
    position[rep.order] = np.arange(12)
    assert sorted(rep.order.tolist()) == list(range(12)) and len(rep.members[-1]) == 12
    for members in rep.members:
        spots = np.sort(position[members])
        assert spots[-1] - spots[0] == len(members) - 1  # a contiguous run


@pytest.mark.parametrize("seed", range(5))
def test_embedded_tasks_share_their_parents_processor(seed):
    inst = random_instance(seed, tasks=30, processors=6)
    policy = FAMILY.policies["cluster_m"]
    params = ClusterMParams()
    (spec, _), _ = policy.hooks.cluster(inst, params)
    plan, _, _, _ = run(inst, policy, params, None)
    into = spec.embedded_into
    assert np.all(plan.proc[into >= 0] == plan.proc[into[into >= 0]])


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(12))
def test_compiled_cluster_m_agrees_with_the_plain_python_reading(seed):
    """The compiled CNUG, CNDG and layer mapping against sweep/testing/naive/mapping_cluster_m.py:
    the same Rep and Spec clusters, the same processor per task and the same operation counts,
    for every example."""
    inst = random_instance(seed, tasks=20 + 7 * seed, processors=3 + seed)
    policy = FAMILY.policies["cluster_m"]
    for example in policy.examples:
        params = policy.make_params(example)
        proc, _, cluster_ops, map_ops, (members, table, order, layers), (_, into, roots) = \
            naive.cluster_m(inst, params)
        (spec, rep), ops = policy.hooks.cluster(inst, params)
        plan = policy.hooks.map(inst, params, None, (spec, rep))
        assert [m.tolist() for m in rep.members] == [m.tolist() for m in members]
        assert np.array_equal(rep.params, table) and np.array_equal(rep.order, order) and rep.layers == layers
        assert np.array_equal(spec.embedded_into, into) and np.array_equal(spec.spec, roots)
        assert plan.proc.tolist() == proc.tolist()
        assert (ops, plan.ops) == (cluster_ops, map_ops)


#: Two processors (speeds 1 and 2, one link of bandwidth 1); tasks 0 (weight 6) and 2 (weight 1) in
#: layer 0, task 1 (weight 3) in layer 1 receiving 0.5 units of data from task 2.
PAIR = SystemGraph(np.array([1.0, 2.0]), np.array([0]), np.array([1]), np.array([1.0]))
LATE = TaskGraph(np.array([6.0, 3.0, 1.0]), np.array([2]), np.array([1]), np.array([0.5]))


@pytest.mark.kernel
@pytest.mark.parametrize(("placement", "procs", "starts", "makespan"), [
    ("layer_free", [1, 1, 0], [0, 3, 0], 4.5),
    ("earliest_free", [1, 0, 0], [0, 1, 0], 4.0),
])
def test_placement_by_when_processors_are_free_by_hand(placement, procs, starts, makespan):
    """``placement`` on :data:`LATE` (chains off: the edge 2 -> 1 embeds nothing), worked by hand.

    f = (weight / 1) / (mean speed 1.5), capped at 1: every Spec cluster asks for one processor.
    Layer 0, heaviest first: task 0 on processor 1 (estimate 6/2 = 3 against 6/1), task 2 on the
    one left, processor 0. Layer 1, task 1 (weight 3): ``layer_free`` estimates 3/1 = 3 on
    processor 0 (its sender's) and 3/2 + 0.5/1 = 2 on processor 1, so processor 1, where task 0
    holds it until 3: task 1 runs [3, 4.5]. ``earliest_free`` adds when each processor's work ends
    (processor 0 at 1/1 = 1, processor 1 at 6/2 = 3): 3 + 1 = 4 against 2 + 3 = 5, so processor 0,
    after task 2, with its data local: [1, 4]; the makespan is task 0's or task 1's end, 4.
    """
    policy = FAMILY.policies["cluster_m"]
    params = ClusterMParams(chains=False, placement=placement)
    plan, summary, start, _ = run(make(LATE, PAIR), policy, params, None)
    assert plan.proc.tolist() == procs
    assert start.tolist() == pytest.approx(starts)
    assert summary["makespan"] == pytest.approx(makespan)


@pytest.mark.parametrize("seed", range(5))
def test_earliest_free_placement_keeps_embedded_tasks_with_their_parents(seed):
    inst = random_instance(seed, tasks=30, processors=6)
    policy = FAMILY.policies["cluster_m"]
    params = ClusterMParams(placement="earliest_free")
    (spec, _), _ = policy.hooks.cluster(inst, params)
    plan, _, _, _ = run(inst, policy, params, None)
    into = spec.embedded_into
    assert np.all(plan.proc >= 0)
    assert np.all(plan.proc[into >= 0] == plan.proc[into[into >= 0]])
