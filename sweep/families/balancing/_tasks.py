"""The work of the balancing family: a forest of tasks that spawn tasks (CSSE00 §2.2).

CSSE00 §2.2: each run executes tasks "of different sizes and life span"; new
tasks are "generated internally due to the non-uniform nature of the
applications"; Table 2 starts from a set of tasks spread uniformly over the
16 PEs, Table 3 from the same set on half of the PEs, Table 4 lets jobs arrive
at arbitrary times with their tasks placed at random PEs. The authors' runs
execute 32,000 tasks. Everything else here is RECONSTRUCTED
(docs/ipg00-balancing.md):

- Lifetime ``L`` (CPU slices) with ``Pr(L >= k) = 1/k``, ``k = 1, 2, ...``,
  capped at ``lifetime_cap`` — the process-lifetime law of Harchol-Balter &
  Downey, which CSSE00 §3.2.4 cites for migrating old tasks: ``L =
  min(floor(1/U), cap)``.
- The spawning structure is a random recursive forest: ``roots`` initial
  tasks; every further task ``k`` has a parent drawn uniformly among tasks
  ``0..k-1`` and is created, on its parent's PE, when the parent has used
  ``a`` slices of CPU, ``a`` uniform on ``1..L_parent``. The forest, the
  lifetimes and the placement are drawn before the run, so every policy and
  every topology executes exactly the same tasks (common random numbers).
- ``symmetric``: root ``r`` on PE ``r mod P`` at time 0. ``asymmetric``: on the
  first half of the PEs (``loaded: first_half``) or the even ones
  (``alternate``). ``arrivals``: the roots form jobs of ``job_roots``; job 0
  arrives at 0, the others at uniform times in ``[0, arrival_span × W/P]``
  (``W`` the total work), each root at a uniformly random PE.

The offered ``load`` of the grid is not used by this family (the work is a
fixed number of tasks; see the family docstring).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweep.families import check_params, param

SCENARIOS = ("symmetric", "asymmetric", "arrivals")
LOADED = ("first_half", "alternate")


@dataclass(frozen=True)
class TaskSet:
    """Every task of one run.

    ``life[k]`` CPU slices; ``parent[k]`` (-1 for a root) and ``spawn_age[k]``
    (the parent's CPU age at which ``k`` is created; 0 for a root); roots have
    ``home[k]`` (their PE) and ``release[k]`` (their arrival slice); spawned
    tasks have -1 in both.
    """

    life: np.ndarray
    parent: np.ndarray
    spawn_age: np.ndarray
    home: np.ndarray
    release: np.ndarray

    @property
    def total_work(self) -> int:
        return int(self.life.sum())

    def __len__(self) -> int:
        return int(self.life.shape[0])


@dataclass(frozen=True)
class Workload:
    """``kind: task_tree``: the workload section of the balancing family (module docstring).

    Its fields are the config schema; :func:`workload_of` checks a section against them.
    """

    scenario: str = param("symmetric", choices=SCENARIOS)
    tasks: int = param(32000, ge=1, doc="tasks executed per run (32,000 in the authors' runs)")
    roots: int = param(320, ge=1, doc="RECONSTRUCTED: initial tasks")
    lifetime_cap: int = param(1000, ge=1, doc="RECONSTRUCTED: the cap of Pr(L >= k) = 1/k, slices")
    loaded: str = param("first_half", choices=LOADED)
    job_roots: int = param(20, ge=1, doc="arrivals: roots per job")
    arrival_span: float = param(0.5, ge=0, doc="arrivals: the arrival window as a fraction of W/P")


def workload_of(section: Mapping[str, Any]) -> Workload:
    """The workload of a config section; one-line ValueError naming a bad option."""
    if section.get("kind") != "task_tree":
        raise ValueError(f"workload.kind must be task_tree for the balancing policies, "
                         f"got {section.get('kind')!r}")
    workload = check_params(Workload, section, section="workload", owner="workload kind 'task_tree'",
                            ignore=("name", "kind"))
    if workload.roots > workload.tasks:
        raise ValueError(f"workload.roots must be <= workload.tasks ({workload.tasks}), got {workload.roots}")
    return workload


def lifetimes(u: np.ndarray, cap: int) -> np.ndarray:
    """``min(floor(1/u), cap)`` for ``u`` in (0, 1]: ``Pr(L >= k) = 1/k`` below the cap."""
    return np.minimum(np.floor(1.0 / u), cap).astype(np.int64)


def spawn_forest(life: np.ndarray, roots: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``(parent, spawn_age)`` of a random recursive forest over tasks of ``life`` (module docstring):
    the first ``roots`` are roots (-1, 0); every further task ``k`` has a parent uniform among
    ``0..k-1``, created when that parent has used ``a`` slices, ``a`` uniform on ``1..L_parent``."""
    n = len(life)
    parent = np.full(n, -1, dtype=np.int64)
    spawn_age = np.zeros(n, dtype=np.int64)
    if n > roots:
        u = rng.random((2, n - roots))
        parent[roots:] = (u[0] * np.arange(roots, n)).astype(np.int64)
        spawn_age[roots:] = 1 + (u[1] * life[parent[roots:]]).astype(np.int64)
    return parent, spawn_age


def draw_tasks(workload: Workload, pes: int, rng: np.random.Generator) -> TaskSet:
    """The run's tasks, from three children of ``rng`` in a fixed order (module docstring)."""
    rng_life, rng_tree, rng_place = rng.spawn(3)
    n, r = workload.tasks, workload.roots
    life = lifetimes(1.0 - rng_life.random(n), workload.lifetime_cap)
    parent, spawn_age = spawn_forest(life, r, rng_tree)
    home = np.full(n, -1, dtype=np.int64)
    release = np.full(n, -1, dtype=np.int64)
    home[:r], release[:r] = _place_roots(workload, pes, int(life.sum()), rng_place)
    return TaskSet(life, parent, spawn_age, home, release)


def _place_roots(workload: Workload, pes: int, work: int,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    r = workload.roots
    index = np.arange(r, dtype=np.int64)
    if workload.scenario == "symmetric":
        return index % pes, np.zeros(r, dtype=np.int64)
    if workload.scenario == "asymmetric":
        half = max(pes // 2, 1)
        homes = index % half if workload.loaded == "first_half" else (2 * (index % half)) % pes
        return homes, np.zeros(r, dtype=np.int64)
    jobs = -(-r // workload.job_roots)
    start = np.floor(rng.random(jobs) * workload.arrival_span * work / pes).astype(np.int64)
    start[0] = 0
    home = (rng.random(r) * pes).astype(np.int64)
    return home, start[index // workload.job_roots]


def task_set(life: Any, parent: Any, spawn_age: Any, home: Any, release: Any) -> TaskSet:
    """A hand-made :class:`TaskSet` (tests, traces), checked: parents precede children."""
    arrays = [np.asarray(a, dtype=np.int64) for a in (life, parent, spawn_age, home, release)]
    life, parent, spawn_age, home, release = arrays
    if any(a.shape != life.shape or a.ndim != 1 for a in arrays) or (life < 1).any():
        raise ValueError("task arrays must be 1-D of one length, lifetimes >= 1")
    k = np.arange(len(life))
    roots = parent < 0
    if (parent >= k).any() or (home[roots] < 0).any() or (release[roots] < 0).any():
        raise ValueError("each parent must precede its child; roots need a home PE and a release")
    child = ~roots
    if (spawn_age[child] < 1).any() or (spawn_age[child] > life[parent[child]]).any():
        raise ValueError("a spawned task's spawn_age must lie in 1..life of its parent")
    return TaskSet(life, parent, spawn_age, home, release)
