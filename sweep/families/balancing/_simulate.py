"""The balancing family's entry points: validate, simulate (the engine contract).

``simulate`` draws the run's tasks (:func:`~sweep.families.balancing._tasks.draw_tasks`,
from the replication's generator only, so every policy and topology executes
the same tasks), runs the policy, and runs ``no_balancing`` on the same tasks
to get ``T_noLB``: NP is a paired value per replication (CSSE00 §2.2)::

    NP = (T_noLB - T_bal) / (T_noLB - T_opt),   T_opt = W / P,

``W`` the total work (CPU slices of all tasks), as the paper defines ``T_opt``
("the time to complete the work on one processor divided by the number of
processors"). ``T_opt`` is not a bound on ``T_bal`` (tasks cannot be split), so
NP can exceed 1 only in principle; it is NaN when ``T_noLB = T_opt``.
``simulate_tasks`` runs a given :class:`TaskSet` (hand-worked traces).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweep.families import Point, Policy, Result, Variable, load_families
from sweep.families.balancing._core import ERR_TIMEOUT, Sim, check_outcome, make_sim, run_with_room
from sweep.families.balancing._machine import Machine, machine_of
from sweep.families.balancing._tasks import TaskSet, draw_tasks, workload_of

#: The policy that defines T_noLB.
BASELINE = "no_balancing"

VARIABLES = (
    Variable("makespan", "slice", "time to complete all tasks with the policy (T_bal)"),
    Variable("makespan_no_balancing", "slice", "time to complete the same tasks without balancing (T_noLB)"),
    Variable("optimal_makespan", "slice", "total work / PEs (T_opt, CSSE00 2.2)"),
    Variable("normalized_performance", "1", "NP = (T_noLB - T_bal) / (T_noLB - T_opt), paired"),
    Variable("total_work", "slice", "CPU slices of all tasks"),
    Variable("tasks", "1", "tasks executed", dtype="int64"),
    Variable("tasks_migrated", "1", "task migrations (a task moved twice counts twice)", dtype="int64"),
    Variable("transfers", "1", "migration transfers (one or more tasks each)", dtype="int64"),
    Variable("messages", "1", "control messages sent (a broadcast on a shared medium counts once)",
             dtype="int64"),
    Variable("mean_migration_distance", "hop", "mean hops travelled per migrated task"),
    Variable("mean_idle_fraction", "1", "idle slices over P x makespan"),
    Variable("requests", "1", "load requests made (rate_of_change)", dtype="int64"),
    Variable("first_hop_hit_rate", "1",
             "requests served (>= 1 task) by the first PE asked (rate_of_change)"),
    Variable("first_entry_hit_rate", "1",
             "requests served in full by the first PE asked (rate_of_change)"),
    Variable("complete_entry_hit_rate", "1",
             "requests served in full by some PE along the forwarding chain (rate_of_change)"),
    Variable("pe_idle_fraction", "1", "fraction of the makespan each PE had no task", dims=("pe",)),
    Variable("pe_overhead_fraction", "1",
             "fraction of the makespan each PE spent on message overhead with tasks waiting",
             dims=("pe",)),
    Variable("saturated", "1", "the work did not finish within 20 times its serial time (the balancer's "
             "messages took the PEs' time): marked, its measures NaN", dtype="bool"),
)


def _policy_of(point: Point) -> Policy:
    return load_families()["balancing"].policy(point)


def validate(point: Point) -> None:
    """One-line ``ValueError`` for a bad option, before anything runs."""
    policy = _policy_of(point)
    params = policy.make_params(point.policy)
    machine = machine_of(point.system)
    workload_of(point.workload)
    if policy.hooks.check is not None:
        policy.hooks.check(machine, params)
    if point.model != "simulation":
        raise ValueError(f"model must be simulation for the balancing family, got {point.model!r}")


def run_policy(policy: Policy, params: Any, machine: Machine, tasks: TaskSet) -> tuple[Sim, Any]:
    """Run ``policy`` on ``tasks``; the final state and the policy's state, checked.

    A run that fills the message pool runs again from the start with twice the
    pool (``_core``'s docstring): the kernel is deterministic, so the rerun is
    the same run.
    """
    def start(sim: Sim) -> Any:
        pst = policy.hooks.make_state(machine, tasks, params)
        policy.hooks.kernel(sim, pst)
        return pst

    sim, pst = run_with_room(lambda pool: make_sim(machine, tasks, pool), start)
    if sim.err[0] != ERR_TIMEOUT:  # a run past the slice limit is saturated (simulate_tasks)
        check_outcome(sim, policy.name)
    return sim, pst


def _ratio(num: float, den: float) -> float:
    return float(num / den) if den else float("nan")


def summarise(policy: Policy, sim: Sim, pst: Any, baseline: int, machine: Machine,
              tasks: TaskSet) -> dict[str, Any]:
    """The declared variables of one run (module docstring)."""
    span = int(sim.makespan[0])
    t_opt = tasks.total_work / machine.pes
    summary = {
        "makespan": float(span), "makespan_no_balancing": float(baseline),
        "optimal_makespan": t_opt,
        "normalized_performance": _ratio(baseline - span, baseline - t_opt),
        "total_work": float(tasks.total_work), "tasks": len(tasks),
        "tasks_migrated": int(sim.migrated[0]), "transfers": int(sim.migrations[0]),
        "messages": int(sim.messages[0]),
        "mean_migration_distance": _ratio(sim.hops_moved[0], sim.migrated[0]),
        "mean_idle_fraction": float(sim.idle.sum() / (span * machine.pes)),
        "pe_idle_fraction": sim.idle / span, "pe_overhead_fraction": sim.ovh / span,
        "requests": 0, "first_hop_hit_rate": float("nan"), "first_entry_hit_rate": float("nan"),
        "complete_entry_hit_rate": float("nan"), "saturated": False,
    }
    if policy.hooks.stats is not None:
        summary.update(policy.hooks.stats(pst))
    return summary


def simulate_tasks(point: Point, tasks: TaskSet) -> Result:
    """One run of the point's policy on the given tasks, paired with ``no_balancing``."""
    policy = _policy_of(point)
    params = policy.make_params(point.policy)
    machine = machine_of(point.system)
    if len(tasks) and int(tasks.home.max()) >= machine.pes:
        raise ValueError(f"a task's home PE is beyond system.pes = {machine.pes}")
    sim, pst = run_policy(policy, params, machine, tasks)
    if sim.err[0] == ERR_TIMEOUT:  # saturated: marked, never a hang (docs/design.md §6)
        return Result(summary={"saturated": True, "tasks": len(tasks), "messages": int(sim.messages[0])},
                      work=len(tasks))
    if policy.name == BASELINE:
        baseline = int(sim.makespan[0])
    else:
        base = load_families()["balancing"].policies[BASELINE]
        baseline = int(run_policy(base, base.make_params({}), machine, tasks)[0].makespan[0])
    summary = summarise(policy, sim, pst, baseline, machine, tasks)
    return Result(summary=summary, work=len(tasks))


def simulate(point: Point, rng: np.random.Generator) -> Result:
    """One replication: the workload's tasks drawn from ``rng``, then :func:`simulate_tasks`."""
    machine = machine_of(point.system)
    tasks = draw_tasks(workload_of(point.workload), machine.pes, rng)
    return simulate_tasks(point, tasks)
