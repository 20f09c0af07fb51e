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
