"""Hand-worked schedules, the worked example of Topcuoglu et al. (2002), naive references, invariants.

Hand-worked execution (``EXEC``): tasks 0 (w 2), 1 (w 3), 2 (w 1), 3 (w 2);
edges 0->1 data 4, 0->2 data 2, 1->3 data 1, 2->3 data 6; two unit-speed
processors joined by a link of bandwidth 2; tasks 0, 1 on P0, 2, 3 on P1:
0 runs [0, 2]; 1 [2, 5] (its input is local); 0->2 leaves at 2 over the
link for 2/2 = 1, so 2 runs [3, 4]; 3's inputs come in sender-finish order:
2's (local, at 4), then 1's (data 1, 0.5 on the link free since 3: leaves
at 5, arrives 5.5): 3 runs [5.5, 7.5]. Makespan 7.5.

Hand-worked contention (``JOIN``): 0 (w 1), 1 (w 1) on P0, 2 (w 1) on P1;
edges 0->2 data 4 and 1->2 data 2; bandwidth 2. 0 runs [0, 1], 1 [1, 2];
0's message holds the link [1, 3]; 1's must wait for it: [3, 4]; 2 runs
[4, 5]. Without contention it would arrive at 3 and 2 would run [3, 4].

Hand-worked gap (``GAP``): 0 (w 1) and 1 (w 3) on P0, 2 (w 1) and 3 (w 1)
on P1, edges 1->2 and 0->3 with data 2, bandwidth 1, taken in the order
0, 1, 2, 3. 0 runs [0, 1], 1 [1, 4]; 1->2 holds the link [4, 6], 2 runs
[6, 7]; 0->3, reserved after it, still fits the idle link at [1, 3] (an
append-only rule would have sent it at [6, 8]); 3 runs after 2: [7, 8].

Hand-worked mapping (``FORK``): 0 (w 2) and 1 (w 2) both feed 2 (w 1), data
4 and 2, two unit-speed processors, bandwidth 2, contention. HEFT (ranks 5,
4, 1 with c̄ = 1/2), CPOP (path 0-2 on P0), ETF and MH all put 0 on P0 (ties
to the lower processor), 1 on P1 (starts at 0 there, 2 on P0), and 2 on P0:
its inputs are there at max(2, 2 + 2/2) = 3 (at 4 on P1): makespan 4.

Hand-worked mapping on three processors (``FIVE`` on ``LINE3``): P0 - P1 - P2
in a line, speeds 1, 2, 1, bandwidths 2 (P0-P1) and 1 (P1-P2), contention.
Tasks 0 (w 4) -> 1 (w 2, data 4) and -> 2 (w 2, data 2); 1 -> 3 and 2 -> 3
(w 2, data 2 each); 4 (w 3) alone. Mean costs: w̄ = 10/3, 5/3, 5/3, 5/3, 5/2;
c̄ = mean of 1/bandwidth over the six ordered pairs = 5/6; rank_u = 35/3, 5,
5, 5/3, 5/2.

- HEFT (order 0, 1, 2, 4, 3): 0 finishes first on P1 (2 < 4); 1 and 2 follow
  it there ([2, 3], [3, 4]: earlier than 4 + 2 or 3 + 2 elsewhere); 4 ties P0
  and P2 at [0, 3], lower index P0; 3 on P1 at [4, 5]. Makespan 5.
- CPOP: rank_d = 0, 20/3, 5, 10, 0; priorities 35/3, 35/3, 10, 35/3, 5/2: the
  critical path 0-1-3 on P1 (costs 4 there, 8 elsewhere); 2 by earliest finish,
  P1 [3, 4]; 4 on P0. The same schedule, makespan 5.
- MH: 0 starts at 0 everywhere, finishes first on P1; 1 starts earliest on P1
  (2, against 4 on P0), then 2 (3 on P0 and P1, P1 finishes first), then 4 at
  [0, 3] on P0, then 3 on P1 at 4 (its messages to P0 would arrive at 5). Makespan 5.
- ETF (earliest start, ties by static level 20/3, 10/3, 10/3, 5/3, 5/2): 0 on
  P0 at 0 (all start at 0, lowest processor); 4 on P1 at 0; 1 on P0 at 4 (its
  input is local); 2 on P1 at 5 (4 + 2/2); 3 on P0 at 7 (2's message from P1,
  1 unit). Makespan 9: ETF's earliest start puts the heavy entry task on the
  slowest processor.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.mapping._instance import instance
from sweep.families.mapping._lists import upward_rank
from sweep.families.mapping._policy import Plan
from sweep.families.mapping._simulate import execute, order_of, run
from sweep.families.mapping.mh import _arrival_by_tables
from sweep.testing.naive import mapping as naive
from sweep.workloads.task_graphs import TaskGraph, read_json_graph, routes, topology
from tests.mapping._util import EXAMPLE, FAMILY, cases, line, make, random_instance

EXEC = TaskGraph(np.array([2.0, 3, 1, 2]), np.array([0, 0, 1, 2]), np.array([1, 2, 3, 3]),
                 np.array([4.0, 2, 1, 6]))
JOIN = TaskGraph(np.ones(3), np.array([0, 1]), np.array([2, 2]), np.array([4.0, 2.0]))
GAP = TaskGraph(np.array([1.0, 3, 1, 1]), np.array([1, 0]), np.array([2, 3]), np.array([2.0, 2.0]))
FORK = TaskGraph(np.array([2.0, 2, 1]), np.array([0, 1]), np.array([2, 2]), np.array([4.0, 2.0]))
TWO = line([1, 1], [2])
FIVE = TaskGraph(np.array([4.0, 2, 2, 2, 3]), np.array([0, 0, 1, 2]), np.array([1, 2, 3, 3]),
                 np.array([4.0, 2, 2, 2]))
LINE3 = line([1, 2, 1], [2, 1])
FIVE_EXPECTED = {  # processor and start of each task, makespan (module docstring)
    "heft": ([1, 1, 1, 1, 0], [0, 2, 3, 4, 0], 5),
    "cpop": ([1, 1, 1, 1, 0], [0, 2, 3, 4, 0], 5),
    "mh": ([1, 1, 1, 1, 0], [0, 2, 3, 4, 0], 5),
    "etf": ([0, 0, 1, 0, 1], [0, 4, 5, 7, 0], 9),
}


def _plan(proc, key=None):
    proc = np.asarray(proc, dtype=np.int64)
    return Plan(proc, np.arange(len(proc), dtype=float) if key is None else np.asarray(key, float), 0)


def _example():
    system = topology("full", (3,))
    return instance(read_json_graph(EXAMPLE), system, routes(system), contention=False)


@pytest.mark.kernel
def test_hand_worked_execution():
    start, finish, _ = execute(make(EXEC, TWO), _plan([0, 0, 1, 1]))
    assert start.tolist() == [0, 2, 3, 5.5] and finish.tolist() == [2, 5, 4, 7.5]


@pytest.mark.kernel
@pytest.mark.parametrize("contention, expected", [(True, [0, 1, 4]), (False, [0, 1, 3])])
def test_hand_worked_link_contention(contention, expected):
    start, _, _ = execute(make(JOIN, TWO, contention), _plan([0, 0, 1]))
    assert start.tolist() == expected


@pytest.mark.kernel
def test_hand_worked_gap_in_a_link():
    start, finish, _ = execute(make(GAP, line([1, 1], [1])), _plan([0, 0, 1, 1]))
    assert start.tolist() == [0, 1, 6, 7] and finish.tolist() == [1, 4, 7, 8]


@pytest.mark.kernel
@pytest.mark.parametrize("name", ["heft", "cpop", "etf", "mh"])
def test_hand_worked_mapping_of_a_join(name):
    policy = FAMILY.policies[name]
    plan, summary, start, _ = run(make(FORK, TWO), policy, policy.make_params({}), None)
    assert plan.proc.tolist() == [0, 1, 0] and start.tolist() == [0, 0, 3] and summary["makespan"] == 4


@pytest.mark.kernel
@pytest.mark.parametrize("name", list(FIVE_EXPECTED))
def test_hand_worked_mapping_on_three_processors(name):
    policy = FAMILY.policies[name]
    plan, summary, start, _ = run(make(FIVE, LINE3), policy, policy.make_params({}), None)
    proc, begin, makespan = FIVE_EXPECTED[name]
    assert plan.proc.tolist() == proc and start.tolist() == pytest.approx(begin)
    assert summary["makespan"] == pytest.approx(makespan) == summary["planned_makespan"]


@pytest.mark.kernel
def test_heft_reproduces_topcuoglu_2002():
    """Their Fig. 2 / Table 1 example: rank_u of task 1 is 108, HEFT's makespan 80 (their Fig. 5a)."""
    inst = _example()
    rank = upward_rank(inst)
    assert rank[[0, 1, 2, 3, 4, 9]] == pytest.approx([108, 77, 80, 80, 69, 14.666667], abs=1e-5)
    policy = FAMILY.policies["heft"]
    plan, summary, _, _ = run(inst, policy, policy.make_params({}), None)
    assert summary["planned_makespan"] == 80 and summary["makespan"] == 80


@pytest.mark.kernel
def test_cpop_reproduces_topcuoglu_2002():
    """Their Fig. 5b: CPOP's makespan 86, the critical path n1-n2-n9-n10 on P2."""
    inst = _example()
    policy = FAMILY.policies["cpop"]
    plan, summary, _, _ = run(inst, policy, policy.make_params({}), None)
    assert summary["planned_makespan"] == 86 and summary["makespan"] == 86
    assert plan.proc[[0, 1, 8, 9]].tolist() == [1, 1, 1, 1]


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("contention", [True, False])
def test_executor_matches_the_naive_reference(seed, contention):
    inst = random_instance(seed, contention=contention)
    rng = np.random.default_rng(seed)
    proc = rng.integers(0, inst.processors, size=inst.tasks)
    level = np.zeros(inst.tasks)  # a random topological order: depth plus a random fraction
    for t in inst.graph.order:
        preds = inst.graph.src[inst.graph.dst == t]
        level[t] = level[preds].max() + 1 if len(preds) else 0
    plan = _plan(proc, level + rng.random(inst.tasks))
    start, finish, _ = execute(inst, plan)
    order = order_of(inst, plan.key).tolist()
    s_ref, f_ref = naive.execute(inst.graph, inst.system, proc.tolist(), order, contention)
    assert start.tolist() == pytest.approx(s_ref, rel=1e-12) and finish.tolist() == pytest.approx(f_ref)


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(8))
def test_heft_matches_the_naive_reference(seed):
    inst = random_instance(seed, tasks=10, processors=4)
    policy = FAMILY.policies["heft"]
    plan, _, _, _ = run(inst, policy, policy.make_params({}), None)
    proc, start = naive.heft(inst.graph, inst.system)
    assert plan.proc.tolist() == proc and plan.key.tolist() == pytest.approx(start)


def test_heft_on_the_example_without_a_cost_matrix_uses_weight_over_speed():
    graph = read_json_graph(EXAMPLE)
    plain = TaskGraph(graph.weight, graph.src, graph.dst, graph.data)
    system = line([1, 2, 4], [1, 1])
    inst = make(plain, system, contention=False)
    expected = graph.weight[0] / np.array([1, 2, 4])
    assert inst.arrays.exec_time[0].tolist() == pytest.approx(expected.tolist())


def _invariants(inst, plan, start, finish):
    g, a = inst.graph, inst.arrays
    proc = plan.proc
    length = finish - start
    assert np.allclose(length, a.exec_time[np.arange(inst.tasks), proc])
    for e in range(g.edges):  # precedence and message transfer time
        u, v = g.src[e], g.dst[e]
        transfer = 0.0 if proc[u] == proc[v] else g.data[e] / a.route_bw[proc[u], proc[v]]
        assert start[v] >= finish[u] + transfer - 1e-9
    for p in range(inst.processors):  # one task at a time
        mine = np.flatnonzero(proc == p)
        spans = sorted(zip(start[mine], finish[mine], strict=True))
        assert all(s2 >= f1 - 1e-9 for (_, f1), (s2, _) in zip(spans, spans[1:], strict=False))
    makespan = finish.max()
    fastest = a.exec_time.min(axis=1)
    assert makespan >= naive.critical_path(g, fastest.tolist()) - 1e-9
    assert makespan >= g.weight.sum() / inst.system.speed.sum() - 1e-9


@pytest.mark.kernel
@pytest.mark.parametrize("name, example", cases(), ids=str)
@pytest.mark.parametrize("seed", range(4))
def test_invariants_of_every_mapper(name, example, seed):
    policy = FAMILY.policies[name]
    for contention in (True, False):
        inst = random_instance(seed, tasks=14, processors=5, contention=contention)
        plan, summary, start, finish = run(inst, policy, policy.make_params(example),
                                           np.random.default_rng(seed))
        _invariants(inst, plan, start, finish)
        assert summary["makespan"] == finish.max()
        assert summary["speedup"] == pytest.approx(summary["sequential_time"] / summary["makespan"])
        assert summary["efficiency"] == pytest.approx(summary["speedup"] / summary["processors_used"])
        if not contention and name in ("heft", "cpop", "etf", "mh"):
            assert summary["makespan"] == pytest.approx(summary["planned_makespan"])


@pytest.mark.kernel
@pytest.mark.parametrize("seed", range(4))
def test_mh_with_exact_contention_plans_exactly_what_the_executor_runs(seed):
    inst = random_instance(seed, tasks=20, processors=6, contention=True)
    policy = FAMILY.policies["mh"]
    _, summary, _, _ = run(inst, policy, policy.make_params({"contention": "exact"}), None)
    assert summary["makespan"] == summary["planned_makespan"]


@pytest.mark.kernel
def test_mh_routing_tables_see_a_link_as_busy_until_its_last_message():
    """``GAP`` again: 0 [0, 1] and 1 [1, 4] on P0; 1 -> 2 (data 2) is routed first and keeps the
    link busy until 6. MH's table then sends 0 -> 3 at 6 (arrival 8), where the executor found
    the idle link at [1, 3] (``test_hand_worked_gap_in_a_link``)."""
    inst = make(GAP, line([1, 1], [1]))
    proc, finish = np.array([0, 0, -1, -1]), np.array([1.0, 4, 0, 0])
    busy, buf = np.zeros(inst.arrays.channels), np.zeros(2, dtype=np.int64)
    log_c, log_v = np.zeros(2, dtype=np.int64), np.zeros(2)
    assert _arrival_by_tables(2, 1, inst.arrays, proc, finish, busy, buf, True, log_c, log_v)[0] == 6
    assert busy.tolist() == [6, 0]  # channel P0 -> P1 busy until 6, P1 -> P0 free
    assert _arrival_by_tables(3, 1, inst.arrays, proc, finish, busy, buf, False, log_c, log_v)[0] == 8
    assert busy.tolist() == [6, 0]  # a trial leaves the table as it was
