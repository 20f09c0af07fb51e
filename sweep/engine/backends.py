"""Where tasks run: in this process, or on a pool of warm Ray actors (DESIGN §3).

Both backends take batches of tasks and yield lists of records as batches
complete, in completion order; the driver alone writes results.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from sweep.engine.tasks import Record, SimulationActor, Task

#: How many times a batch is resubmitted after its actor died for good.
MAX_BATCH_RESUBMITS = 3
#: Warm actors kept between sweeps of one process when Ray was started by the caller
#: (a notebook, a benchmark, a test session). One pool at a time: each actor holds a CPU,
#: so a pool of another size is stopped before a new one is started. Keyed by the driver's
#: node and job ids: handles from an earlier Ray session of the process are dead and dropped.
_WARM_POOL: dict[str, list] = {}


class Backend(Protocol):
    workers: int

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]: ...

    def close(self) -> None: ...


class SerialBackend:
    """The actor class in this process: for tests, debugging and ``engine.backend=serial``."""

    workers = 1

    def __init__(self) -> None:
        self._actor = SimulationActor()

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]:
        for batch in batches:
            yield self._actor.run_batch(batch)

    def close(self) -> None:
        pass


class RayBackend:
    """A pool of Ray actors, one per worker, ``in_flight`` batches queued on each.

    Actors restart when their process dies and Ray retries the batch that was
    running (``max_restarts=-1, max_task_retries=-1``); a batch whose actor is
    lost for good is resubmitted on a fresh actor. Tasks are deterministic, so a
    retried batch gives the same records.
    """

    def __init__(self, workers: int | None, address: str | None, in_flight: int) -> None:
        import ray

        self._ray = ray
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            local = not address
            ray.init(address=address or None, num_cpus=(workers or os.cpu_count()) if local else None,
                     include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                     configure_logging=False)
        available = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or available, available))
        self._actor_class = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1)(SimulationActor)
        context = ray.get_runtime_context()
        self._job = f"{context.get_node_id()}/{context.get_job_id()}"
        warm = _WARM_POOL.pop(self._job, [])
        _WARM_POOL.clear()
        if len(warm) != self.workers:
            for actor in warm:
                ray.kill(actor)
            warm = [self._actor_class.remote() for _ in range(self.workers)]
        self.actors = warm
        self._in_flight = in_flight

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]:
        ray = self._ray
        pending = deque((batch, 0) for batch in batches)
        running = {}
        idle = deque(actor for actor in self.actors for _ in range(self._in_flight))
        while pending or running:
            while pending and idle:
                actor = idle.popleft()
                batch, tries = pending.popleft()
                running[actor.run_batch.remote(batch)] = (actor, batch, tries)
            done, _ = ray.wait(list(running), num_returns=1)
            actor, batch, tries = running.pop(done[0])
            try:
                records = ray.get(done[0])
            except ray.exceptions.RayTaskError as error:
                raise error.cause from None
            except ray.exceptions.RayActorError:
                if tries >= MAX_BATCH_RESUBMITS:
                    raise
                pending.appendleft((batch, tries + 1))
                idle.append(self._replace(actor))
                continue
            idle.append(actor)
            yield records

    def _replace(self, dead: object) -> object:
        fresh = self._actor_class.remote()
        self.actors = [fresh if actor is dead else actor for actor in self.actors]
        return fresh

    def close(self) -> None:
        """Stop the actors and the Ray we started; keep them warm in a Ray we were given."""
        if self._owns_ray:
            self._ray.shutdown()
        elif self._ray.is_initialized():
            _WARM_POOL[self._job] = self.actors


def make_backend(backend: str, workers: int | None, address: str | None, in_flight: int) -> Backend:
    """The backend named by ``engine.backend``."""
    if backend == "serial":
        return SerialBackend()
    return RayBackend(workers, address, in_flight)
