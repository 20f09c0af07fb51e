"""CSSE00 §2.1's claims on Table 1, on a reduced design (the preset ``ipg00_table1`` is the full one).

Design here: the preset's workload and system (``conf/workload/random_dag.yaml``,
``conf/system/ipg00_random100.yaml``), M = 100, 300, 600, 1000, four graphs per M.

- "both MH and Cluster-M lead to the same type of results": the ratio of the
  mean speedups S_m(Cluster-M) / S_m(MH) at each M lies in [0.5, 2.05] — the
  band Table 1's own ratios span (0.69 at M = 300 to 2.02 at M = 800), widened
  below to 0.5 for the sampling error of four graphs.
- "In most cases Cluster-M obtains a better speedup than MH": at more than half the M.
- "Cluster-M is very much faster than MH both asymptotically and
  experimentally ... the running time of Cluster-M remains relatively stable":
  the growth exponent b of T_c ∝ M^b, fitted by least squares on log–log,
  is below 1 for Cluster-M and below half of MH's (Table 1: 0.02 and 2.0),
  from the deterministic operation counts (mean over graphs) and from wall
  time (median over graphs: Cluster-M's compiled mapping takes 0.1–0.3 ms,
  and on a shared machine one preempted run in four can be ten times that,
  which moves a mean but not a median).
- "in all cases Cluster-M has a significantly lower time complexity": at
  every M and on every graph, Cluster-M's mapping takes under a tenth of MH's operations.
"""

from __future__ import annotations

import numpy as np
import pytest

from sweep.engine.config import load_option
from sweep.families.mapping._instance import build
from sweep.families.mapping._simulate import run
from tests.mapping._util import FAMILY

SIZES = (100, 300, 600, 1000)
GRAPHS = 4


def _config(group: str, name: str) -> dict:
    return load_option(group, name)


@pytest.fixture(scope="module")
def table():
    """{(mapper, M): {"speedup": [...], "ops": [...], "seconds": [...]}} on common graphs."""
    workload, system = _config("workload", "random_dag"), _config("system", "ipg00_random100")
    out = {}
    for size in SIZES:
        for graph in range(GRAPHS):
            rng = np.random.default_rng([size, graph])
            inst = build({**workload, "size": size}, system, rng, rng)
            for name in ("cluster_m", "mh"):
                policy = FAMILY.policies[name]
                params = policy.make_params({})
                _, summary, _, _ = run(inst, policy, params, None)  # warmed up: times the algorithm
                seconds = summary["mapping_seconds"]
                row = out.setdefault((name, size), {"speedup": [], "ops": [], "seconds": []})
                row["speedup"].append(summary["speedup"])
                row["ops"].append(summary["mapping_operations"])
                row["seconds"].append(seconds)
    return out


def _mean(table, name, key):
    return np.array([np.mean(table[(name, m)][key]) for m in SIZES])


def _median(table, name, key):
    return np.array([np.median(table[(name, m)][key]) for m in SIZES])


def _exponent(values) -> float:
    return float(np.polyfit(np.log(SIZES), np.log(values), 1)[0])


@pytest.mark.xfail(strict=True, reason="measured S_m(Cluster-M)/S_m(MH) = 0.74, 0.54, 0.47, 0.48 at "
                   "M = 100, 300, 600, 1000 (the preset, 60 graphs: 0.69 at M = 100, 0.46-0.50 from "
                   "M = 300): Cluster-M's S_m stays near 5 while MH's grows from 7.5 to 11. MH places each "
                   "task knowing the link contention its messages will meet; with the routing tables' "
                   "coarse view (the default) as with the exact one (the first reconstruction) alike")
def test_cluster_m_and_mh_reach_the_same_type_of_speedup(table):
    ratio = _mean(table, "cluster_m", "speedup") / _mean(table, "mh", "speedup")
    assert np.all((ratio >= 0.5) & (ratio <= 2.05)), ratio


@pytest.mark.xfail(strict=True, reason="measured: Cluster-M's mean S_m is above MH's at 0 of the 4 M "
                   "(5.5, 4.8, 5.3, 5.2 against 7.5, 8.8, 11.2, 10.8; 0 of 10 in the preset): MH places "
                   "each task knowing the link contention its messages will meet; the Cluster-M reading "
                   "sizes and places a layer by computation and route bandwidth only")
def test_cluster_m_mostly_has_the_better_speedup(table):
    better = _mean(table, "cluster_m", "speedup") > _mean(table, "mh", "speedup")
    assert better.sum() > len(SIZES) / 2


def test_mapping_operations_grow_far_slower_for_cluster_m(table):
    """Measured: b = 0.45 (Cluster-M) against 1.68 (MH); Table 1's T_c gives 0.02 and 2.0."""
    cm, mh = _exponent(_mean(table, "cluster_m", "ops")), _exponent(_mean(table, "mh", "ops"))
    assert cm < 1.0 and cm < mh / 2, (cm, mh)


def test_mapping_wall_time_grows_far_slower_for_cluster_m(table):
    """Measured: b = 0.26 (Cluster-M) against 1.46 (MH), medians over graphs (module docstring)."""
    cm, mh = (_exponent(_median(table, name, "seconds")) for name in ("cluster_m", "mh"))
    assert cm < 1.0 and cm < mh / 2, (cm, mh)


def test_cluster_m_mapping_is_cheaper_in_every_case(table):
    for size in SIZES:
        cm, mh = np.array(table[("cluster_m", size)]["ops"]), np.array(table[("mh", size)]["ops"])
        assert np.all(cm * 10 < mh), (size, cm, mh)
