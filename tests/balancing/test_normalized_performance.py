"""NP as the family reports it equals NP put together from its parts (CSSE00 §2.2's definition).

NP = (T_noLB − T_bal) / (T_noLB − T_opt), T_opt = W / P: here T_noLB and T_bal
come from two separate runs of the kernel (``no_balancing`` and the policy) on
the task set drawn from the replication's generator, and must equal what
``Family.simulate`` reports from its one paired run. The claims about Tables 2–4
are records in ``sweep/papers/ipg00/claims.yaml``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.balancing._machine import machine_of
from sweep.families.balancing._simulate import run_policy
from sweep.families.balancing._tasks import draw_tasks, workload_of
from tests.balancing._util import FAMILY, point, system, workload


def _np_from_parts(policy: str, topology: str, scenario: str, tasks: int, roots: int, seed: int) -> float:
    machine = machine_of(system(topology))
    drawn = draw_tasks(workload_of(workload(scenario, tasks=tasks, roots=roots)), machine.pes,
                       np.random.default_rng(seed))
    base = FAMILY.policies["no_balancing"]
    t_nolb = run_policy(base, base.make_params({}), machine, drawn)[0].makespan[0]
    balancer = FAMILY.policies[policy]
    t_bal = run_policy(balancer, balancer.make_params({}), machine, drawn)[0].makespan[0]
    t_opt = drawn.total_work / machine.pes
    return (t_nolb - t_bal) / (t_nolb - t_opt)


def _check(tasks: int, roots: int, replications: int) -> None:
    wl = workload("asymmetric", tasks=tasks, roots=roots)
    reported = [FAMILY.simulate(point("rate_of_change", system("hypercube"), wl),
                                np.random.default_rng(1000 + r)).summary["normalized_performance"]
                for r in range(replications)]
    parts = [_np_from_parts("rate_of_change", "hypercube", "asymmetric", tasks, roots, 1000 + r)
             for r in range(replications)]
    assert reported == pytest.approx(parts, rel=1e-12)


def test_np_is_its_definition_on_a_quarter_of_the_size():
    _check(tasks=8000, roots=80, replications=6)


@pytest.mark.slow
def test_np_is_its_definition_at_the_papers_size():
    _check(tasks=32000, roots=320, replications=4)
