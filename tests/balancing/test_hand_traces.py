"""Hand-worked timelines: two PEs, a handful of tasks, one migration per policy.

Common setting: ``fully_connected`` with P = 2, latency 1 slice, overhead 0,
task transfer 0, no CPU overhead, so a message or a migration sent in slice
``t`` arrives at ``t + 1`` and is handled in slice ``t + 1`` (deliveries,
then messages, then the policy's tick, then one slice of execution).
Tasks are numbered from 0; in each case PE 1 holds one short task and PE 0
several tasks of 10 slices, all released at 0; no task spawns.
"""

from __future__ import annotations

import pytest

from sweep.families.balancing._simulate import simulate_tasks
from sweep.families.balancing._tasks import task_set
from tests.balancing._util import point, system

WIRE = system("fully_connected", pes=2, latency=1.0, overhead=0.0, task_transfer=0.0, cpu_overhead=False)


def _tasks(on_pe0: int, short: int = 2):
    n = on_pe0 + 1
    return task_set([10] * on_pe0 + [short], [-1] * n, [0] * n, [0] * on_pe0 + [1], [0] * n)


@pytest.mark.kernel
def test_rate_of_change_trace():
    """RoC, HT/LT/CT = 3/1/0, interval 1, ND fixed at 2 slices; PE 0: tasks 0–4, PE 1: task 5 (2 slices).

    t=0: the allocator's mapping puts PE 0 (load 5 >= HT) in PE 1's source table.
    Both PEs sample every slice. PE 1 runs task 5 in slices 0–1; at t=2 its
    load is 0: DL = -1, PL = 0 + (-1)(2)/1 = -2 < 0, so it asks its first
    source, PE 0, for ceil(2) = 2 tasks. t=3: PE 0 has run tasks 0, 1, 2 one
    slice each (queue 3, 4, 0, 1, 2); its load 5 is 2 above HT, so it sends its
    2 oldest tasks by CPU age, 0 and 1 (age 1; the first met from the head),
    then runs task 3. t=4: tasks 0 and 1 (9 slices left each) reach PE 1, which
    finishes them at 22. PE 0 keeps tasks 2, 3 (9 left) and 4 (10 left): 28
    slices from t=4, makespan 32. Its load stays at HT = 3 until the end, so
    PE 1's later requests come back unfulfilled: one migration of 2 tasks.
    PE 1 is idle in slices 2, 3 and 22–31: 12 of 32.
    T_noLB = 50 (PE 0's 5 × 10), T_opt = 52/2 = 26, NP = (50 − 32)/(50 − 26) = 0.75.
    The first request was served in full by the first PE asked.
    """
    params = {"name": "rate_of_change", "interval": 1, "nd": 2.0, "adaptive_nd": False}
    s = simulate_tasks(point(params, WIRE), _tasks(5)).summary
    assert (s["makespan"], s["makespan_no_balancing"], s["optimal_makespan"]) == (32, 50, 26)
    assert s["normalized_performance"] == pytest.approx(0.75)
    assert (s["tasks_migrated"], s["transfers"], s["mean_migration_distance"]) == (2, 1, 1.0)
    assert s["requests"] >= 2
    assert s["first_hop_hit_rate"] == s["first_entry_hit_rate"] == pytest.approx(1 / s["requests"])
    assert s["pe_idle_fraction"].tolist() == [0.0, pytest.approx(12 / 32)]


@pytest.mark.kernel
def test_gradient_trace():
    """Gradient, HT 3, LT 1, interval 1, batch 1 (w_max = diameter + 1 = 2); PE 0: tasks 0–3, PE 1: task 4.

    t=0: PE 0 has not heard PE 1: PP_0 = min(2, 1 + 2) = 2, it sends 2; PE 1
    (load 1 <= LT) sends PP 0. PE 0 runs task 0. t=1: PE 0 hears 0 < w_max and
    its load 4 > HT: it moves min(1, 4 − 3) = 1 task, the youngest by CPU age
    (task 1, age 0, first from the head of 1, 2, 3, 0), and runs task 2. PE 1
    finishes task 4 at 2. t=2: task 1 reaches PE 1 and runs there in slices
    2–11. PE 0's load is 3 = HT from then on: no more moves. PE 0 has 9 + 9 + 10
    = 28 slices left from t=2: makespan 30. T_noLB = 40, T_opt = 42/2 = 21,
    NP = 10/19.
    """
    params = {"name": "gradient", "interval": 1, "batch": 1}
    s = simulate_tasks(point(params, WIRE), _tasks(4)).summary
    assert (s["makespan"], s["makespan_no_balancing"], s["optimal_makespan"]) == (30, 40, 21)
    assert s["normalized_performance"] == pytest.approx(10 / 19)
    assert (s["tasks_migrated"], s["transfers"]) == (1, 1)


@pytest.mark.kernel
def test_sender_diffusion_trace():
    """SID, threshold 4, interval 2 (PE 0 acts at even slices, PE 1 at odd); PE 0: tasks 0–5, PE 1: task 6.

    t=0: PE 0 sends its load 6 but knows no neighbour's load: no move. t=1:
    PE 1 sends its load 1 (task 6 ends at 2). t=2: PE 0 knows L_1 = 1: the
    neighbourhood average is (6 + 1)/2 = 3.5, surplus 2.5, PE 1's deficit 2.5 of
    2.5, so it sends floor(2.5) = 2 tasks in one transfer, the youngest (tasks
    2 and 3, never run; queue 2, 3, 4, 5, 0, 1). t=3: they reach PE 1, which
    finishes them at 23 (idle in slice 2 and in 23–39: 18 of 40 slices). PE 0's
    load is 4, not above 4, from then on: 9 + 9 + 10 + 10 = 38 slices from t=2,
    makespan 40. T_noLB = 60, T_opt = 31, NP = 20/29.
    """
    params = {"name": "sender_diffusion", "interval": 2, "high_threshold": 4}
    s = simulate_tasks(point(params, WIRE), _tasks(6)).summary
    assert (s["makespan"], s["makespan_no_balancing"], s["optimal_makespan"]) == (40, 60, 31)
    assert s["normalized_performance"] == pytest.approx(20 / 29)
    assert (s["tasks_migrated"], s["transfers"]) == (2, 1)
    assert s["pe_idle_fraction"].tolist() == [0.0, pytest.approx(18 / 40)]
