"""How a sweep's tasks are cut into batches for the workers (issue 27: compile side by side)."""

from __future__ import annotations

from sweep.engine.tasks import Task, batches, kernels_first
from sweep.families import Point, StopRule


def _tasks(policies: str) -> list[Task]:
    """One task per letter, the letter naming its policy."""
    return [Task(n, 0, Point(policy={"name": name}, workload={"name": "w"}, system={}, load=0.5,
                             stop=StopRule(jobs=10, warmup=0)), (n,), 1)
            for n, name in enumerate(policies)]


def _names(batch: list[Task]) -> str:
    return "".join(task.point.policy["name"] for task in batch)


def test_each_policys_first_task_goes_alone_and_first_then_the_rest_in_order():
    tasks = _tasks("aaabbcccc")
    sent = list(kernels_first(tasks, 2))
    assert [_names(b) for b in sent] == ["a", "b", "c", "aa", "b", "cc", "c"]
    assert [t.index for b in sent for t in b] == [0, 3, 5, 1, 2, 4, 6, 7, 8]


def test_every_task_is_sent_exactly_once():
    tasks = _tasks("abcabcaabbccdda")
    sent = [t.index for b in kernels_first(tasks, 3) for t in b]
    assert sorted(sent) == list(range(len(tasks)))
    assert all(len(b) <= 3 for b in kernels_first(tasks, 3))


def test_one_policy_is_batched_as_before():
    tasks = _tasks("aaaaa")
    assert [[t.index for t in b] for b in kernels_first(tasks, 2)] == \
        [[t.index for t in b] for b in batches(tasks, 2)]


def _sweeps(lengths: list[int]) -> list[Task]:
    """``lengths[i]`` tasks of sweep ``i``, one policy, the sweeps one after the other."""
    return [Task(n, 0, Point(policy={"name": "a"}, workload={"name": "w"}, system={}, load=0.5,
                             stop=StopRule(jobs=10, warmup=0)), (n,), 1, sweep=i)
            for i, length in enumerate(lengths) for n in range(length)]


def test_a_run_of_several_sweeps_batches_each_by_its_own_size_and_never_across_two():
    """Sized by the whole run, a small sweep of long tasks shared one batch (one worker) with a big one."""
    tasks = _sweeps([5, 3, 1])
    sent = [[(t.sweep, t.index) for t in batch] for batch in batches(tasks, {0: 2, 1: 4, 2: 3})]
    assert sent == [[(0, 0), (0, 1)], [(0, 2), (0, 3)], [(0, 4)], [(1, 0), (1, 1), (1, 2)], [(2, 0)]]
    assert [len(b) for b in kernels_first(tasks, {0: 2, 1: 4, 2: 3})] == [2, 2, 1, 3, 1]


def test_a_run_sizes_each_sweeps_batches_by_its_own_tasks(tmp_path):
    from sweep.config.compose import compose
    from sweep.engine import runner
    from sweep.engine.tasks import batch_size

    common = ["policy=lwl", "stop.jobs=100", "stop.warmup=0", "progress=false", "plots=false"]
    small = [*common, "replications=2", f"output={tmp_path / 's.nc'}"]
    big = [*common, "grid.load=[0.3,0.4,0.5,0.6,0.7,0.8]", "replications=50", f"output={tmp_path / 'b.nc'}"]
    sweeps = [runner.prepare(compose(o), o) for o in (small, big)]
    try:
        many = runner._ManySweeps(sweeps, verbose=False)
        assert many._batch_sizes(4, None, False) == {0: batch_size(2, 4, None), 1: batch_size(300, 4, None)} \
            == {0: 1, 1: 10}
        assert many._batch_sizes(4, 7, False) == {0: 7, 1: 7}
    finally:
        for prepared in sweeps:
            prepared.lock.release()
