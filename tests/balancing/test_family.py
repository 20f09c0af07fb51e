"""The balancing family's contract: bad input, invariants of every policy, NP's two ends."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sweep.families.balancing._core import ERR_POOL, make_sim
from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._simulate import run_policy, simulate_tasks
from sweep.families.balancing._tasks import task_set
from tests.balancing._util import FAMILY, TOPOLOGIES, point, policy_cases, small_tasks, system, workload

FAST = ["engine.backend=serial", "replications=1", "progress=false", "plots=false",
        "workload.tasks=500", "workload.roots=50"]


@pytest.mark.parametrize(("args", "words"), [
    (["system.topology=torus"], ["system.topology", "torus", "hypercube"]),
    (["system.pes=12"], ["mesh of 4x4", "12"]),
    (["system=lb_hypercube", "system.pes=12"], ["power of two", "12"]),
    (["policy.critical_threshold=2", "policy.low_threshold=1"], ["critical_threshold <= low_threshold"]),
    (["policy.high_threshold=1", "policy.low_threshold=2"], ["low_threshold < high_threshold"]),
    (["system.latency=-1"], ["system.latency", "-1"]),
    (["workload.scenario=chaos"], ["workload.scenario", "chaos"]),
    (["policy.which=newest"], ["policy.which", "oldest"]),
])
def test_bad_input_is_one_line_and_exit_2(error_line, args, words):
    line = error_line([*FAST, "policy=rate_of_change", "workload=lb_symmetric", "system=lb_mesh", *args])
    assert all(word in line for word in words), line


def test_dispatcher_beyond_the_machine(error_line):
    line = error_line([*FAST, "policy=central_dispatcher", "workload=lb_symmetric", "system=lb_mesh",
                                "policy.dispatcher=16"])
    assert "policy.dispatcher" in line and "16" in line


def test_topologies_have_the_papers_shapes():
    mesh, cube = machine_of(system("mesh")), machine_of(system("hypercube"))
    full, now = machine_of(system("fully_connected")), machine_of(system("workstations"))
    assert (mesh.diameter, cube.diameter, full.diameter, now.diameter) == (6, 4, 1, 1)
    assert np.diff(mesh.nbr_ptr).tolist() == [2, 3, 3, 2, 3, 4, 4, 3, 3, 4, 4, 3, 2, 3, 3, 2]
    assert set(np.diff(cube.nbr_ptr)) == {4} and set(np.diff(full.nbr_ptr)) == {15}
    assert now.bus and not full.bus


def test_topology_from_a_file(tmp_path):
    path = tmp_path / "star.txt"
    path.write_text("# a star\n0 1\n0 2\n0 3\n")
    star = machine_of(system("file", pes=4, path=str(path)))
    assert star.diameter == 2 and star.dist[1, 2] == 2
    with pytest.raises(ValueError, match="not connected"):
        machine_of(system("file", pes=5, path=str(path)))


@pytest.mark.kernel
@pytest.mark.parametrize(("policy", "section"), policy_cases(), ids=lambda x: str(x))
@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_every_policy_conserves_work_and_is_deterministic(policy, section, topology):
    """Each run checks work conservation itself (it raises otherwise); here: same input, same run."""
    tasks = small_tasks(7, 8, tasks=200, scenario="asymmetric")
    p = point(section, system(topology, pes=8))
    first, again = simulate_tasks(p, tasks).summary, simulate_tasks(p, tasks).summary
    assert first["tasks"] == 200 and first["total_work"] == tasks.total_work
    assert first["makespan"] == again["makespan"] and first["messages"] == again["messages"]
    assert first["makespan"] >= first["optimal_makespan"]
    assert np.all(np.asarray(first["pe_idle_fraction"]) <= 1)


@pytest.mark.parametrize(("policy", "section"), policy_cases(), ids=lambda x: str(x))
def test_full_size_run_of_every_policy(policy, section):
    result = FAMILY.simulate(point(section, system("mesh"), workload("arrivals")), np.random.default_rng(3))
    s = result.summary
    assert s["tasks"] == 32000 and result.work == 32000
    assert s["makespan_no_balancing"] > s["optimal_makespan"]
    if policy == "no_balancing":
        assert s["normalized_performance"] == 0.0 and s["tasks_migrated"] == 0 and s["messages"] == 0
    else:
        assert s["tasks_migrated"] > 0


def test_idealised_balancer_at_zero_cost_approaches_t_opt():
    """No communication cost and a balancer that hears of every change: NP near 1."""
    free = system("fully_connected", latency=0.0, overhead=0.0, task_transfer=0.0, cpu_overhead=False)
    for scenario in ("symmetric", "asymmetric"):
        s = FAMILY.simulate(point("central_dispatcher", free, workload(scenario)),
                            np.random.default_rng(11)).summary
        assert s["normalized_performance"] > 0.95, (scenario, s["normalized_performance"])
        assert s["makespan"] < 1.02 * s["optimal_makespan"]


def test_same_tasks_for_every_topology_and_policy():
    """Common random numbers: T_noLB and the work do not depend on the policy."""
    seen = set()
    for name in FAMILY.policies:
        s = FAMILY.simulate(point(name, system("hypercube")), np.random.default_rng(5)).summary
        seen.add((s["makespan_no_balancing"], s["total_work"]))
    assert len(seen) == 1


def test_the_load_axis_is_ignored():
    """The family docstring: the engine's load has no meaning here (the same rng, the same run)."""
    p = point("rate_of_change", system("hypercube"), workload("asymmetric", tasks=2000, roots=40))
    low = FAMILY.simulate(p, np.random.default_rng(9)).summary
    high = FAMILY.simulate(dataclasses.replace(p, load=1.5), np.random.default_rng(9)).summary
    assert low["makespan"] == high["makespan"] and low["messages"] == high["messages"]


@pytest.mark.kernel
def test_a_run_that_fills_the_message_pool_runs_again_with_a_larger_one():
    """1,200 one-slice tasks released on PE 1 of 4 workstations holding the medium a whole slice a
    message: the dispatcher's per-event reports (1,200 at t = 0 alone) overflow the first pool (1,064
    slots); run_policy reruns with twice the pool until the run fits, and the rerun is the same run."""
    n = 1200
    tasks = task_set([1] * n, [-1] * n, [0] * n, [1] * n, [0] * n)
    machine = machine_of(system("workstations", pes=4, medium_hold="whole_slices"))
    policy = FAMILY.policies["central_dispatcher"]
    params = policy.make_params({})
    first = make_sim(machine, tasks)
    policy.hooks.kernel(first, policy.hooks.make_state(machine, tasks, params))
    assert first.err[0] == ERR_POOL and first.m_time.shape[0] == 1064
    sim, _ = run_policy(policy, params, machine, tasks)
    assert sim.m_time.shape[0] > 1064 and sim.err[0] == 0 and sim.done[0] == n
    assert sim.messages[0] >= 2 * n  # a release and an end (or a move) of every task of PE 1
    again = make_sim(machine, tasks, pool=sim.m_time.shape[0])
    policy.hooks.kernel(again, policy.hooks.make_state(machine, tasks, params))
    assert (again.makespan[0], again.messages[0]) == (sim.makespan[0], sim.messages[0])


def test_a_run_that_never_ends_is_marked_saturated_not_raised():
    """A message costing a whole slice of CPU at both ends (overhead 1): the dispatcher PE spends every
    slice on per-event reports and never runs its own tasks, so the work cannot end within the slice
    limit (20 times the serial time); the run is marked saturated with its measures NaN (docs/design.md
    §6: a saturated point is marked, never a hang or a crash)."""
    import sweep

    ds = sweep.run([*FAST, "policy=central_dispatcher", "workload=lb_symmetric", "system=lb_mesh",
                    "system.overhead=1.0", "system.latency=1.0"])
    assert bool(ds["saturated"].all())
    assert np.isnan(ds["normalized_performance"]).all()
    normal = sweep.run([*FAST, "policy=central_dispatcher", "workload=lb_symmetric", "system=lb_mesh"])
    assert not bool(normal["saturated"].any()) and np.isfinite(normal["normalized_performance"]).all()
