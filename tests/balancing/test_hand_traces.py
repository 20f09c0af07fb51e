"""Hand-worked timelines: two PEs, a handful of tasks, one migration per policy (and none in the
dispatcher's first message count).

The central dispatcher's traces count its messages under both readings of
``policy.notify`` (CSSE00 §1.2: "whenever a task arrives at or departs from a
processor, the processor notifies the central dispatcher of its new load
state"): one state message per arrival or departure (``every_event``), or at
most one report a slice and none while one is in flight (``coalesced``).

Common setting: ``fully_connected`` with P = 2, latency 1 slice, overhead 0,
task transfer 0, no CPU overhead, so a message or a migration sent in slice
``t`` arrives at ``t + 1`` and is handled in slice ``t + 1`` (deliveries,
then messages, then the policy's tick, then one slice of execution).
Tasks are numbered from 0; in the first three cases PE 1 holds one short task
and PE 0 several tasks of 10 slices, all released at 0; no task spawns.
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



WIRE3 = system("fully_connected", pes=3, latency=1.0, overhead=0.0, task_transfer=0.0, cpu_overhead=False)


@pytest.mark.kernel
@pytest.mark.parametrize(("options", "first_hop_hits"), [
    ({}, 0),
    ({"source_rule": "above"}, 1),
    ({"load_in_messages": True}, 0),
    ({"load_in_messages": True, "source_rule": "above"}, 1),
])
def test_rate_of_change_where_readings_trace(options, first_hop_hits):
    """RoC's Where readings (CSSE00 §3.2.1–3.2.3), three PEs, HT = 3, interval 1, ND fixed at 2.

    PE 0 holds one task of 2 slices, PE 1 three of 10 (exactly HT), PE 2 five of 10. At t=0 the
    allocator's mapping enters, in PE 0's table, PE 1 and PE 2 under ``source_rule: at_or_above``
    (§3.2.1: a source has a load "greater or equal to HT"), in the order PE 1, PE 2 (from PE i + 1
    round the machine); under ``above`` only PE 2 (load above HT: it can serve, §3.2.3). At t=2
    PE 0 is idle and asks its first source for 2 tasks. ``at_or_above``: PE 1 (load 3, nothing
    above HT) forwards to its first source, PE 2, which sends 2 tasks: served on the second PE
    asked. ``above``: PE 2 is asked first and serves. No PE is above HT after that (no task
    spawns), so every later request is unserved: first-hop hits 0 or 1, one served in full, 2
    tasks moved. ``load_in_messages`` changes none of this (the loads carried are those the tables
    already hold).
    """
    tasks = task_set([2] + [10] * 8, [-1] * 9, [0] * 9, [0] + [1] * 3 + [2] * 5, [0] * 9)
    params = {"name": "rate_of_change", "interval": 1, "nd": 2.0, "adaptive_nd": False, **options}
    s = simulate_tasks(point(params, WIRE3), tasks).summary
    assert (s["tasks_migrated"], s["transfers"]) == (2, 1)
    assert round(s["first_hop_hit_rate"] * s["requests"]) == first_hop_hits
    assert round(s["complete_entry_hit_rate"] * s["requests"]) == 1
    assert s["makespan"] == 32

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


@pytest.mark.kernel
@pytest.mark.parametrize(("notify", "messages"), [("every_event", 5), ("coalesced", 2)])
def test_central_dispatcher_state_messages_per_event_or_coalesced(notify, messages):
    """Two PEs, the dispatcher PE 0, a message delay of 2 slices, no move (low threshold 0).

    PE 0: task 0 (4 slices). PE 1: task 1 (2 slices), which spawns tasks 2 and
    3 (1 slice each) at its first slice. PE 1's queue: t=0 task 1 released
    (load 1); slice 0: task 1 runs and spawns 2 and 3 (load 3; queue 2, 3, 1);
    slice 1: task 2 ends (load 2); slice 2: task 3 ends (load 1); slice 3:
    task 1 ends, and so does task 0 on PE 0: makespan 4, no PE ever idle, so no
    request. PE 0 is the dispatcher: its own changes cost no message.
    every_event, at PE 1's ticks: t=0 one (the release), t=1 two (the two
    spawns, both carrying load 3), t=2 one, t=3 one: 5 messages.
    coalesced: t=0 sends load 1 (arrives at 2); t=1 load 3 differs but that
    message is in flight; t=2 sends load 2 (arrives at 4); t=3 load 1, in
    flight again: 2 messages.
    """
    wire = system("fully_connected", pes=2, latency=2.0, overhead=0.0, task_transfer=0.0,
                  cpu_overhead=False)
    tasks = task_set([4, 2, 1, 1], [-1, -1, 1, 1], [0, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 0])
    params = {"name": "central_dispatcher", "low_threshold": 0, "notify": notify}
    s = simulate_tasks(point(params, wire), tasks).summary
    assert (s["makespan"], s["makespan_no_balancing"]) == (4, 4)
    assert (s["messages"], s["transfers"], s["tasks_migrated"]) == (messages, 0, 0)


@pytest.mark.kernel
@pytest.mark.parametrize(("notify", "messages"), [("every_event", 10), ("coalesced", 5)])
def test_central_dispatcher_trace(notify, messages):
    """Dispatcher PE 0, low threshold 0; PE 0 idle, PE 1: tasks 0–4 (3 slices each).

    t=0: PE 1's five tasks are released; the idle dispatcher asks itself: its
    table still says PE 1 has 0 tasks, k = 0, nothing. t=1: PE 1's load 5
    reaches the table: k = (5 − 0) // 2 = 2, one order to PE 1 (the
    dispatcher is the requester: no decision message). t=2: PE 1 (queue 2, 3,
    4, 0, 1; tasks 0 and 1 have run a slice) sends its two youngest, 2 and 3,
    with a note (no cost). t=3: they reach PE 0, which runs them in slices 3–8
    (ends 8 and 9); PE 1 runs 4, 0, 1 round robin from slice 2: task 0 ends at
    7, task 1 at 8, task 4 at 9. Makespan 9 (T_noLB 15, T_opt 7.5: NP = 4/5);
    no PE is idle again before the end.
    State messages of PE 1: every_event, one per arrival or departure: 5
    releases (tick 0), 2 tasks migrated out (tick 2), the ends of tasks 0 and 1
    (ticks 7 and 8): 9, plus the order: 10. coalesced, one per tick with a new
    load (each arrives a slice later, before the next tick): ticks 0, 2, 7, 8:
    4, plus the order: 5.
    """
    params = {"name": "central_dispatcher", "low_threshold": 0, "notify": notify}
    tasks = task_set([3] * 5, [-1] * 5, [0] * 5, [1] * 5, [0] * 5)
    s = simulate_tasks(point(params, WIRE), tasks).summary
    assert (s["makespan"], s["makespan_no_balancing"], s["optimal_makespan"]) == (9, 15, 7.5)
    assert s["normalized_performance"] == pytest.approx(0.8)
    assert (s["tasks_migrated"], s["transfers"]) == (2, 1)
    assert s["messages"] == messages
