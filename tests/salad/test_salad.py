"""The salad family: its loop against hand-worked schedules, a naive reference and the mapping executor."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families import Point, StopRule, load_families
from sweep.families.mapping._instance import instance
from sweep.families.mapping._simulate import execute
from sweep.families.salad import _simulate as salad
from sweep.families.salad._machine import system_of
from sweep.workloads.task_graphs import TaskGraph, random_dag
from tests.naive import salad as naive

FAMILY = load_families()["salad"]
MESH4 = {"topology": "mesh", "pes": 4, "rows": 2, "cols": 2, "bandwidth": 1.0}


def point(**policy) -> Point:
    return Point({"name": "ipg_salad", "balancer": "no_balancing", **policy}, {"kind": "dag_jobs"}, MESH4,
                 0.5, StopRule(jobs=10, warmup=0))


def by_hand(weights, place, edges=()) -> salad.Mapped:
    """An application mapped by hand: tasks in the given order, on the given PEs."""
    src = np.array([e[0] for e in edges], np.int64)
    dst = np.array([e[1] for e in edges], np.int64)
    graph = TaskGraph(np.array(weights, float), src, dst, np.array([e[2] for e in edges], float))
    return salad.Mapped(graph, np.array(place), np.arange(len(weights)), 0, 0, float(max(weights)))


def ends(pt: Point, apps, chosen, arrival) -> np.ndarray:
    _, _, jobs, _, _ = salad.run(salad.stages_of(pt), system_of(pt.system), apps, np.array(chosen),
                                 np.array(arrival, float), 10**6)
    return jobs.end


@pytest.mark.parametrize(("scheduler", "expected"), [("gang", [6, 4]), ("concurrent_gang", [4, 4])])
def test_the_slot_left_empty_is_filled_only_by_concurrent_gang(scheduler, expected):
    """Job A: tasks of 2 and 4 slices on PEs 0 and 1; job B: 2 slices on PE 0. A takes row 0, B row 1.

    Gang: PE 1 idles in B's slices 1 and 3, so A's long task runs in slices 0, 2, then every slice
    once B has ended (the matrix is one row from slice 4): it ends at 6. Concurrent Gang runs it in
    B's slices too: slices 0-3, ending at 4. B runs in slices 1 and 3 under both.
    """
    apps = [by_hand([2, 4], [0, 1]), by_hand([2], [0])]
    assert list(ends(point(scheduler=scheduler), apps, [0, 1], [0, 0])) == expected


def test_data_waits_for_its_message_and_the_mappers_order_holds():
    """A chain 0 -> 1 with 3 data units from PE 0 to PE 1 (one hop, bandwidth 1), and task 2 on
    PE 1 after task 1 in the mapper's order although it could start at once: task 0 runs in slice 0,
    the data arrives at 1 + 3 = 4, task 1 runs slices 4-5, task 2 slices 6-7: the job ends at 8."""
    apps = [by_hand([1, 2, 2], [0, 1, 1], edges=[(0, 1, 3.0)])]
    assert list(ends(point(scheduler="gang"), apps, [0], [0])) == [8]


def _random_case(seed: int, mapper: str):
    rng = np.random.default_rng(seed)
    pt = point(mapper=mapper, scheduler="gang")
    system = system_of(pt.system)
    stages = salad.stages_of(pt)
    graphs = [random_dag(rng, int(rng.integers(3, 9)), density=0.4) for _ in range(3)]
    apps = [salad.map_application(g, system, stages, rng) for g in graphs]
    chosen = rng.integers(0, 3, size=int(rng.integers(2, 7)))
    arrival = np.sort(rng.uniform(0, 15, size=len(chosen)))
    return system, apps, chosen, arrival


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
def test_the_loop_matches_the_naive_reference(seed, scheduler):
    system, apps, chosen, arrival = _random_case(seed, ["heft", "map_random", "cluster_m"][seed % 3])
    got = ends(point(scheduler=scheduler, mapper="heft"), apps, chosen, arrival)
    bw = system.routes.bandwidth
    jobs = [{"released": int(np.ceil(a)), "place": apps[c].place.tolist(), "rank": apps[c].rank.tolist(),
             "life": apps[c].graph.weight.astype(int).tolist(),
             "edges": list(zip(apps[c].graph.src.tolist(), apps[c].graph.dst.tolist(),
                               apps[c].graph.data.tolist(), strict=True))}
            for c, a in zip(chosen, arrival, strict=True)]
    assert got.tolist() == naive.simulate(jobs, bw, system.pes, scheduler == "concurrent_gang")


@pytest.mark.parametrize("mapper", ["heft", "cluster_m", "mh", "map_random", "cpop", "etf"])
@pytest.mark.parametrize("seed", range(4))
def test_one_job_alone_is_the_mapping_familys_executor(mapper, seed):
    """CSSE00 §3: mapped "as if the only job", and alone it is: its response is the makespan the
    mapping family's executor measures for the same plan (contention-free, as the salad family's
    messages are)."""
    rng = np.random.default_rng(seed)
    pt = point(mapper=mapper)
    system, stages = system_of(pt.system), salad.stages_of(pt)
    graph = random_dag(rng, 12, density=0.3)
    app = salad.map_application(graph, system, stages, np.random.default_rng(seed))
    inst = instance(graph, system.graph, system.routes, contention=False)
    hooks = stages.mapper.hooks
    clusters = hooks.cluster(inst, stages.mapper_params)[0] if hooks.cluster else None
    plan = hooks.map(inst, stages.mapper_params, np.random.default_rng(seed), clusters)
    _, finish, _ = execute(inst, plan)
    assert ends(pt, [app], [0], [0.0])[0] == finish.max()


def test_a_task_graphs_clustering_is_charged_with_its_first_job_only():
    """Mapping 10 and 20 operations, clustering 5 and 7: jobs of applications 1, 0, 1, 0, 0 are
    charged 20 + 7, 10 + 5, 20, 10, 10 (CSSE00 §3.1: clustering is done once per graph)."""
    apps = [salad.Mapped(TaskGraph(np.ones(1), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)),
                         np.zeros(1, np.int64), np.zeros(1, np.int64), ops, clustering, 1.0)
            for ops, clustering in ((10, 5), (20, 7))]
    assert salad.job_operations(apps, np.array([1, 0, 1, 0, 0])).tolist() == [27, 15, 20, 10, 10]


@pytest.mark.parametrize("seed", range(3))
def test_cluster_m_charges_the_system_graphs_clustering_once_per_machine(seed):
    """Cluster-M's per-application clustering is CNDG's (the task graph's) alone; CNUG's (the
    system graph's) is the same for every task graph, paid once per machine (CSSE00 §3.1)."""
    from sweep.families.mapping.cluster_m import cndg, cnug

    pt = point(mapper="cluster_m")
    system, stages = system_of(pt.system), salad.stages_of(pt)
    graph = random_dag(np.random.default_rng(seed), 12, density=0.3)
    app = salad.map_application(graph, system, stages, np.random.default_rng(seed))
    inst = instance(graph, system.graph, system.routes, contention=False)
    assert app.clustering == cndg(inst, stages.mapper_params.chains)[1] > 0
    assert stages.mapper.hooks.system_clustering_operations(inst, stages.mapper_params) == cnug(inst)[1] > 0
    mh = salad.map_application(graph, system, salad.stages_of(point(mapper="mh")), np.random.default_rng(0))
    assert mh.clustering == 0


def test_mapping_time_queues_jobs_at_the_allocator():
    """One allocator, one job at a time: arrivals 0, 1, 10 with 4 slices of mapping each."""
    released = salad.release_times(np.array([0.0, 1.0, 10.0]), np.array([4.0, 4.0, 4.0]), 1.0)
    assert released.tolist() == [4.0, 8.0, 14.0]


@pytest.mark.parametrize("balancer", ["rate_of_change", "gradient", "sender_diffusion", "central_dispatcher"])
@pytest.mark.parametrize("scheduler", ["gang", "concurrent_gang"])
def test_every_balancer_conserves_work_and_ends_every_job(balancer, scheduler):
    pt = Point({"name": "ipg_salad", "balancer": balancer, "scheduler": scheduler}, {"kind": "dag_jobs"},
               {**MESH4, "pes": 16, "rows": 4, "cols": 4}, 0.7, StopRule(jobs=300, warmup=0))
    FAMILY.validate(pt)
    result = FAMILY.simulate(pt, np.random.default_rng(3))  # raises if work is not conserved
    s = result.summary
    assert s["jobs"] == 300 and not s["saturated"]
    assert 0 <= s["idle_with_work_fraction"] <= s["idle_fraction"] < 1
    assert s["gangs_split"] <= 300 and s["tasks_migrated"] >= s["transfers"]


def test_a_bad_slot_is_one_line():
    with pytest.raises(ValueError, match="^policy.balancer must be a balancing policy .*got 'roc'$"):
        FAMILY.validate(point(balancer="roc"))
    with pytest.raises(ValueError, match="^policy.scheduler must be a gang policy .*got 'lwl'$"):
        FAMILY.validate(point(scheduler="lwl"))
    with pytest.raises(ValueError, match="^policy.mapper_params: policy 'cluster_m' has no option 'x'"):
        FAMILY.validate(point(mapper_params={"x": 1}))


def test_the_trace_is_drawn_and_animated_until_the_last_busy_slice(tmp_path):
    """Four PEs, ten traced slices, the last job ends in slice 6: the diagram, and a GIF of 7 frames
    (the figure registry saves an animated figure as a GIF whatever the suffixes asked)."""
    import xarray as xr
    from PIL import Image

    from sweep.analysis.figures import write_figures

    jobs = np.full((10, 4), -1)
    jobs[:7, 0], jobs[2:5, 3] = 0, 1
    moved = np.zeros(10, int)
    moved[3] = 2
    ds = xr.Dataset({"trace_job": (("trace_slice", "pe"), jobs),
                     "trace_migrations": (("trace_slice",), moved)})
    written = write_figures(ds, "ipg00_salad_trace", tmp_path, suffixes=(".png",))
    assert sorted(p.name for p in written) == ["ipg00_salad_trace.png", "ipg00_salad_trace_animation.gif"]
    assert Image.open(tmp_path / "ipg00_salad_trace_animation.gif").n_frames == 7
