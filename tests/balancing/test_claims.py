"""CSSE00's claims about Tables 2–4 (§2.2, §3.2) as tests on the model.

Every cell (scenario × topology × policy) runs over a few replications with
fixed seeds, NP paired with a no-balancing run of the same tasks; every
policy and topology of a replication executes the same tasks, so differences
between cells are paired too.

- The ``slow`` tests are the precise claims: the paper's size, 32,000 tasks on
  16 PEs, :data:`FULL` replications, the claims asserted on the mean NP of
  each cell. The presets ``ipg00_table2..4`` run the same cells with 30
  replications.
- The default-suite tests run :data:`QUICK`, a quarter of the size (8,000
  tasks from 80 roots, 16 PEs, 6 replications), and assert the same claims with a tolerance
  from their own runs: an order between two cells counts as contradicted only
  when the 90% Student-t interval of their paired difference over the
  replications excludes the claimed order.

Where the model disagrees with the paper the test is a strict expected failure
whose reason gives the measured values and the cause.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pytest

from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._simulate import run_policy
from sweep.families.balancing._tasks import draw_tasks, workload_of
from sweep.stats import ci_halfwidth
from tests.balancing._util import FAMILY, TOPOLOGIES, point, system, workload

SCENARIOS = {"table2": "symmetric", "table3": "asymmetric", "table4": "arrivals"}
POLICIES = ("gradient", "sender_diffusion", "central_dispatcher", "rate_of_change")


class Size(NamedTuple):
    tasks: int
    roots: int
    replications: int


FULL = Size(32000, 320, 4)
QUICK = Size(8000, 80, 6)

Cells = dict[tuple[str, str], np.ndarray]  # (policy, topology) -> NP per replication


@functools.cache
def _table(scenario: str, size: Size) -> Cells:
    """NP of every cell of one scenario, per replication (the no-balancing run shared)."""
    cells: Cells = {}
    for topology in TOPOLOGIES:
        machine = machine_of(system(topology))
        values: dict[str, list[float]] = {policy: [] for policy in POLICIES}
        for r in range(size.replications):
            wl = workload_of(workload(scenario, tasks=size.tasks, roots=size.roots))
            tasks = draw_tasks(wl, machine.pes, np.random.default_rng(1000 + r))
            base = FAMILY.policies["no_balancing"]
            t_nolb = run_policy(base, base.make_params({}), machine, tasks)[0].makespan[0]
            t_opt = tasks.total_work / machine.pes
            for name in POLICIES:
                policy = FAMILY.policies[name]
                t_bal = run_policy(policy, policy.make_params({}), machine, tasks)[0].makespan[0]
                values[name].append((t_nolb - t_bal) / (t_nolb - t_opt))
        for name in POLICIES:
            cells[name, topology] = np.asarray(values[name])
    return cells


def _show(cells: Cells) -> str:
    return "; ".join(f"{p}/{t}={v.mean():.2f}" for (p, t), v in sorted(cells.items()))


def _above(cells: Cells, first: tuple[str, str], second: tuple[str, str], tolerant: bool) -> bool:
    """Whether cell ``first`` has a higher NP than ``second``: the means, or (``tolerant``) the
    paired difference's 90% interval lying wholly above 0."""
    difference = cells[first] - cells[second]
    if not tolerant:
        return bool(difference.mean() > 0)
    return bool(difference.mean() - ci_halfwidth(difference) > 0)


def _np_in_zero_one(cells: Cells) -> None:
    assert all(0 < v.mean() <= 1 for v in cells.values()), _show(cells)


def _rate_of_change_best(cells: Cells, tolerant: bool) -> None:
    for topology in TOPOLOGIES:
        better = [p for p in POLICIES if _above(cells, (p, topology), ("rate_of_change", topology), tolerant)]
        assert not better, (topology, better, _show(cells))


def _workstations_lowest(cells: Cells, tolerant: bool) -> None:
    for policy in POLICIES:
        lower = [t for t in TOPOLOGIES if _above(cells, (policy, "workstations"), (policy, t), tolerant)]
        assert not lower, (policy, lower, _show(cells))


def _central_dispatcher_worst_in_most(cells: Cells, tolerant: bool) -> None:
    worst = [t for t in TOPOLOGIES
             if not any(_above(cells, ("central_dispatcher", t), (p, t), tolerant) for p in POLICIES)]
    assert len(worst) > len(TOPOLOGIES) / 2, (worst, _show(cells))


#: Shared by the reasons below: why the model's dispatcher is the best balancer.
CHEAP = ("a control message or a migration takes a seventh of a slice a hop (latency 0.1, overhead 0.02, "
         "no per-task cost: the authors' ND formula), so every point-to-point delay rounds up to one slice "
         "and the dispatcher's table is about a slice old: it balances like an ideal global balancer")
ROC_BEST = ("measured (4 replications of 32,000 tasks; mesh/hypercube/fully connected/workstations): CJD "
            "0.955/0.955/0.955/0.957 vs RoC 0.905/0.905/0.905/0.906 (table2; diffusion 0.913 and 0.917 "
            "on mesh and hypercube), CJD 0.986/0.986/0.986/0.981 vs RoC 0.964/0.964/0.964/0.956 "
            "(table3), CJD 0.947/0.947/0.947/0.952 vs RoC 0.879/0.879/0.879/0.880 (table4); at 8,000 "
            "tasks CJD above RoC beyond the paired 90% interval. Cause: " + CHEAP + ", while RoC's "
            "source tables go stale and requests are forwarded")
NOW_LOWEST = ("measured (32,000 tasks; mesh/hypercube/fully connected/workstations) table2: gradient "
              "0.902/0.882/0.900/0.886, diffusion 0.913/0.917/0.693/0.763, CJD 0.955/0.955/0.955/0.957, "
              "RoC 0.905/0.905/0.905/0.906; in tables 3-4 too gradient and diffusion do better on "
              "workstations than on some point-to-point network. Cause: the shared medium carries "
              "seven messages a slice and is busy at most a third of the time (the dispatcher's "
              "reports; 2-22% for the others), so it costs no more than a point-to-point network, "
              "where every delay rounds up to one slice; diffusion loses most "
              "on the fully connected network, where it has fifteen neighbours to exchange with")
CJD_WORST = ("measured: the central dispatcher is the best policy in every cell (table2 0.955-0.957, "
             "table3 0.981-0.986, table4 0.947-0.952), not the worst. Cause: " + CHEAP + "; its PE "
             "handles at most 30 messages a slice at 0.02 slice each, so handling them one at a time "
             "would end within the slice: the centralised table is not the bottleneck the paper measured")


# The precise claims, at the paper's size.

@pytest.mark.slow
def test_cells_agree_with_simulate():
    """The shared no-balancing run gives the NP that ``Family.simulate`` reports."""
    values = [FAMILY.simulate(point("rate_of_change", system("hypercube"), workload("asymmetric")),
                              np.random.default_rng(1000 + r)).summary["normalized_performance"]
              for r in range(FULL.replications)]
    assert values == pytest.approx(_table("asymmetric", FULL)["rate_of_change", "hypercube"].tolist(),
                                   rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_np_lies_in_zero_one(table):
    """NP -> 0 for an ineffective strategy, -> 1 for an effective one (§2.2): every cell in (0, 1]."""
    _np_in_zero_one(_table(SCENARIOS[table], FULL))


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=ROC_BEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_rate_of_change_best_on_every_topology(table):
    """Tables 2–4: RoC has the highest mean NP in every column."""
    _rate_of_change_best(_table(SCENARIOS[table], FULL), tolerant=False)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=NOW_LOWEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_workstations_lowest_for_every_policy(table):
    """Tables 2–4: the network of workstations gives the lowest mean NP of every row."""
    _workstations_lowest(_table(SCENARIOS[table], FULL), tolerant=False)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=CJD_WORST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_central_dispatcher_worst_in_most_cells(table):
    """Tables 2–4: the central job dispatcher has the lowest mean NP in most columns."""
    _central_dispatcher_worst_in_most(_table(SCENARIOS[table], FULL), tolerant=False)


# The same claims at a quarter of the size, each order within its paired 90% interval.

def test_cells_agree_with_simulate_quick():
    values = [FAMILY.simulate(point("rate_of_change", system("hypercube"),
                                    workload("asymmetric", tasks=QUICK.tasks, roots=QUICK.roots)),
                              np.random.default_rng(1000 + r)).summary["normalized_performance"]
              for r in range(QUICK.replications)]
    assert values == pytest.approx(_table("asymmetric", QUICK)["rate_of_change", "hypercube"].tolist(),
                                   rel=1e-12)


@pytest.mark.parametrize("table", list(SCENARIOS))
def test_np_lies_in_zero_one_quick(table):
    _np_in_zero_one(_table(SCENARIOS[table], QUICK))


@pytest.mark.xfail(strict=True, reason=ROC_BEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_rate_of_change_best_on_every_topology_quick(table):
    _rate_of_change_best(_table(SCENARIOS[table], QUICK), tolerant=True)


@pytest.mark.xfail(strict=True, reason=NOW_LOWEST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_workstations_lowest_for_every_policy_quick(table):
    _workstations_lowest(_table(SCENARIOS[table], QUICK), tolerant=True)


@pytest.mark.xfail(strict=True, reason=CJD_WORST)
@pytest.mark.parametrize("table", list(SCENARIOS))
def test_central_dispatcher_worst_in_most_cells_quick(table):
    _central_dispatcher_worst_in_most(_table(SCENARIOS[table], QUICK), tolerant=True)
