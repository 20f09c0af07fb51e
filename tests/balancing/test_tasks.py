"""The task model (sweep/families/balancing/_tasks.py): lifetimes, the forest, the three scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.balancing._tasks import draw_tasks, lifetimes, task_set, workload_of
from tests.balancing._util import workload


def test_lifetimes_follow_one_over_k_below_the_cap():
    u = np.array([1.0, 0.5, 0.34, 0.2, 1e-9])
    assert lifetimes(u, 1000).tolist() == [1, 2, 2, 5, 1000]
    life = draw_tasks(workload_of(workload()), 16, np.random.default_rng(0)).life
    for k in (2, 5, 20):  # Pr(L >= k) = 1/k; 32,000 draws: standard error below 0.003
        assert (life >= k).mean() == pytest.approx(1 / k, abs=0.01)
    assert life.max() <= 1000 and life.min() >= 1


def test_forest_parents_precede_children_and_spawn_within_the_parents_life():
    tasks = draw_tasks(workload_of(workload()), 16, np.random.default_rng(1))
    k = np.arange(len(tasks))
    spawned = tasks.parent >= 0
    assert spawned.sum() == 32000 - 320 and (tasks.parent[spawned] < k[spawned]).all()
    assert (tasks.spawn_age[spawned] >= 1).all()
    assert (tasks.spawn_age[spawned] <= tasks.life[tasks.parent[spawned]]).all()


@pytest.mark.parametrize(("scenario", "loaded", "homes"), [
    ("symmetric", "first_half", set(range(16))),
    ("asymmetric", "first_half", set(range(8))),
    ("asymmetric", "alternate", set(range(0, 16, 2))),
])
def test_initial_placement(scenario, loaded, homes):
    tasks = draw_tasks(workload_of(workload(scenario, loaded=loaded)), 16, np.random.default_rng(2))
    roots = tasks.parent < 0
    assert set(tasks.home[roots].tolist()) == homes and (tasks.release[roots] == 0).all()
    assert np.bincount(tasks.home[roots]).max() - np.bincount(tasks.home[roots])[list(homes)].min() <= 1


def test_arrivals_come_in_jobs_within_the_span():
    tasks = draw_tasks(workload_of(workload("arrivals")), 16, np.random.default_rng(3))
    release = tasks.release[:320].reshape(16, 20)  # 16 jobs of 20 roots
    assert (release == release[:, :1]).all() and release[0, 0] == 0
    assert release.max() <= 0.5 * tasks.total_work / 16
    assert len(set(tasks.home[:320].tolist())) == 16


def test_common_random_numbers_do_not_depend_on_the_topology_size_only_on_the_workload():
    a = draw_tasks(workload_of(workload()), 16, np.random.default_rng(4))
    b = draw_tasks(workload_of(workload()), 16, np.random.default_rng(4))
    assert np.array_equal(a.life, b.life) and np.array_equal(a.parent, b.parent)


def test_hand_made_task_sets_are_checked():
    with pytest.raises(ValueError, match="precede"):
        task_set([1, 1], [1, -1], [0, 0], [0, 0], [0, 0])
    with pytest.raises(ValueError, match="spawn_age"):
        task_set([2, 1], [-1, 0], [0, 3], [0, -1], [0, -1])


@pytest.mark.parametrize(("option", "value", "words"), [
    ("kind", "swf", "workload.kind"), ("tasks", 0, "workload.tasks"), ("roots", 40000, "workload.roots"),
    ("loaded", "odd", "workload.loaded"), ("arrival_span", -1, "workload.arrival_span"),
])
def test_bad_workload_options(option, value, words):
    with pytest.raises(ValueError, match=words):
        workload_of(workload(**{option: value}))
