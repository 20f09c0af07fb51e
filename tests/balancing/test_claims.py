"""CSSE00's claims about Tables 2–4 (§2.2, §3.2) as tests on the model.

Every cell (scenario × topology × policy) is run at the paper's size, 32,000
tasks on 16 PEs, over :data:`REPLICATIONS` replications with fixed seeds, NP
paired with a no-balancing run of the same tasks. The presets
``ipg00_table2..4`` run the same cells with 30 replications. Where the model
disagrees with the paper the test is a strict expected failure whose reason
gives the measured values and the cause.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._simulate import run_policy
from sweep.families.balancing._tasks import draw_tasks, workload_of
from tests.balancing._util import FAMILY, TOPOLOGIES, point, system, workload

SCENARIOS = {"table2": "symmetric", "table3": "asymmetric", "table4": "arrivals"}
POLICIES = ("gradient", "sender_diffusion", "central_dispatcher", "rate_of_change")
REPLICATIONS = 4


def _np_of_cell(scenario: str, topology: str) -> dict[str, float]:
    """Mean NP of every policy, the no-balancing run shared (the same NP as ``simulate``'s)."""
    machine = machine_of(system(topology))
    values: dict[str, list[float]] = {policy: [] for policy in POLICIES}
    for r in range(REPLICATIONS):
        tasks = draw_tasks(workload_of(workload(scenario)), machine.pes, np.random.default_rng(1000 + r))
        base = FAMILY.policies["no_balancing"]
        t_nolb = run_policy(base, base.make_params({}), machine, tasks)[0].makespan[0]
        t_opt = tasks.total_work / machine.pes
        for name in POLICIES:
            policy = FAMILY.policies[name]
            t_bal = run_policy(policy, policy.make_params({}), machine, tasks)[0].makespan[0]
            values[name].append((t_nolb - t_bal) / (t_nolb - t_opt))
    return {name: float(np.mean(v)) for name, v in values.items()}


@pytest.fixture(scope="module")
def np_cells() -> dict[str, dict[tuple[str, str], float]]:
    """Mean NP by table, then (policy, topology)."""
    cells: dict[str, dict[tuple[str, str], float]] = {}
    for table, scenario in SCENARIOS.items():
        cells[table] = {}
        for topology in TOPOLOGIES:
            for policy, value in _np_of_cell(scenario, topology).items():
                cells[table][policy, topology] = value
    return cells


def _show(cells: dict[tuple[str, str], float]) -> str:
    return "; ".join(f"{p}/{t}={v:.2f}" for (p, t), v in sorted(cells.items()))


def test_cells_agree_with_simulate(np_cells):
    """The shared no-balancing run gives the NP that ``Family.simulate`` reports."""
    values = [FAMILY.simulate(point("rate_of_change", system("hypercube"), workload("asymmetric")),
                              np.random.default_rng(1000 + r)).summary["normalized_performance"]
              for r in range(REPLICATIONS)]
    assert np.mean(values) == pytest.approx(np_cells["table3"]["rate_of_change", "hypercube"], rel=1e-12)


@pytest.mark.parametrize("table", list(SCENARIOS))
def test_np_lies_in_zero_one(np_cells, table):
    """NP -> 0 for an ineffective strategy, -> 1 for an effective one (§2.2): every cell in (0, 1]."""
    values = np_cells[table]
    assert all(0 < v <= 1 for v in values.values()), _show(values)


ROC_BEST = ("measured (4 replications, mesh/hypercube/fully connected/workstations): CJD 0.95/0.95/0.96/0.95 "
            "vs RoC 0.91/0.91/0.92/0.91 (table2), CJD 0.98-0.99 vs RoC 0.95-0.96 (table3), CJD 0.95/"
            "0.95/0.97/0.94 vs RoC 0.88/0.88/0.89/0.88 (table4). Cause: the model's dispatcher table is "
            "refreshed by cheap state messages, a near-ideal global balancer, while RoC's source "
            "tables go stale (first-hop hit rate 0.01-0.12 in table2) and requests are forwarded")


@pytest.mark.xfail(strict=True, reason=ROC_BEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_rate_of_change_best_on_every_topology(np_cells, table):
    """Tables 2–4: RoC has the highest NP in every column."""
    values = np_cells[table]
    for topology in TOPOLOGIES:
        best = max(POLICIES, key=lambda p: values[p, topology])
        assert best == "rate_of_change", (topology, _show(values))


NOW_LOWEST = ("measured table2 (mesh/hypercube/fully connected/workstations): gradient 0.87/0.89/0.91/"
              "0.89, diffusion 0.89/0.92/0.76/0.82, CJD 0.95/0.95/0.96/0.95, RoC 0.91/0.91/0.92/0.91: "
              "the shared medium costs little because messages are short beside a slice (0.14 of one) "
              "and pushes wait for the previous transfer, while diffusion's many neighbours on the "
              "fully connected network cost it more")


@pytest.mark.xfail(strict=True, reason=NOW_LOWEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_workstations_lowest_for_every_policy(np_cells, table):
    """Tables 2–4: the network of workstations gives the lowest NP of every row."""
    values = np_cells[table]
    for policy in POLICIES:
        worst = min(TOPOLOGIES, key=lambda t: values[policy, t])
        assert worst == "workstations", (policy, _show(values))


CJD_WORST = ("measured: the central dispatcher is the best policy in every cell (table2 0.95/0.95/0.96/"
             "0.95, table3 0.98-0.99, table4 0.94-0.97), not the worst: its PE spends only the "
             "per-message overhead (0.02 slice) on state messages and no link contention is modelled, "
             "so the centralised table is not the bottleneck the paper measured")


@pytest.mark.xfail(strict=True, reason=CJD_WORST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_central_dispatcher_worst_in_most_cells(np_cells, table):
    """Tables 2–4: the central job dispatcher has the lowest NP in most columns."""
    values = np_cells[table]
    worst = [min(POLICIES, key=lambda p: values[p, t]) for t in TOPOLOGIES]
    assert worst.count("central_dispatcher") > len(TOPOLOGIES) / 2, _show(values)
