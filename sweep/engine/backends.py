"""Where tasks run: in this process, or on a pool of warm Ray actors (docs/design.md §3).

Both backends take batches of tasks and yield lists of records as batches
complete, in completion order; the driver alone writes results.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import os
import signal
import socket
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol
from urllib.parse import urlsplit

from sweep.config.compose import ConfigError
from sweep.engine.tasks import Record, SimulationActor, Task
from sweep.errors import PoolEmpty
from sweep.families import unloadable
from sweep.workloads._discovery import missing_parts

#: ``engine.backend=auto`` runs at most this many tasks in this process: starting a local Ray
#: costs 2-8 s and ~0.7 GiB (docs/design.md §11), more than a few replications of most points.
SERIAL_AT_MOST = 8
#: Seconds to wait for a cluster address to answer before giving up with one line.
CONNECT_TIMEOUT = 5.0
#: Seconds between looks at the cluster (nodes that joined, actors not placed).
POLL_SECONDS = 1.0
#: Seconds an actor may wait for a CPU before it is given up (its node may be gone).
PLACEMENT_SECONDS = 60.0
#: How many times a batch is resubmitted after its actor died for good.
MAX_BATCH_RESUBMITS = 3
#: Warm actors kept between sweeps of one process when Ray was started by the caller
#: (a notebook, a benchmark, a test session). One pool at a time: each actor holds a CPU,
#: so a pool of another size is stopped before a new one is started. Keyed by the driver's
#: node and job ids: handles from an earlier Ray session of the process are dead and dropped.
_WARM_POOL: dict[str, list] = {}


@dataclasses.dataclass
class _KeptRay:
    """:func:`one_local_ray`'s state: whether a block is open, and whether a pool started the local
    Ray that the block keeps (and shuts down at its end)."""

    inside: bool = False
    started: bool = False


_KEPT_RAY = _KeptRay()


@contextlib.contextmanager
def one_local_ray() -> Iterator[None]:
    """Several pools in a row on one local Ray: the first pool that needs Ray starts it as usual;
    the pools keep it, and their actors stay warm (:data:`_WARM_POOL`) for the next, until the
    block ends and the Ray is shut down. ``sweep-reproduce``'s rounds of replications run so: each
    round would otherwise start a Ray and its actors again, and load every kernel in every actor
    (issue 27). Without a pool that needs Ray, no Ray is started; a Ray the caller started or joined
    is left as it is."""
    if _KEPT_RAY.inside:  # nested: the outer block owns it
        yield
        return
    _KEPT_RAY.inside = True
    try:
        yield
    finally:
        started = _KEPT_RAY.started
        _KEPT_RAY.inside = _KEPT_RAY.started = False
        if started:
            import ray

            _WARM_POOL.clear()
            ray.shutdown()


class Backend(Protocol):
    workers: int

    def check_loadable(self, plugins: Mapping[PluginPart, str]) -> None: ...

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]: ...

    def close(self) -> None: ...


class SerialBackend:
    """The actor class in this process: for tests, debugging and ``engine.backend=serial``."""

    workers = 1

    def __init__(self) -> None:
        self._actor = SimulationActor()

    def check_loadable(self, plugins: Mapping[PluginPart, str]) -> None:
        """Nothing to check: this process composed the sweep, so it has loaded its plugins."""

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]:
        for batch in batches:
            yield self._actor.run_batch(batch)

    def close(self) -> None:
        pass


class RayBackend:
    """A pool of Ray actors, one per CPU it may use, ``in_flight`` batches queued on each.

    Losing a node costs only its in-flight batches (docs/design.md §10). Actors are not
    restarted by Ray (a restarted actor whose node is gone waits forever for a
    CPU that no longer exists): when one dies, its batches go back to the queue
    for the surviving actors and the user sees one line. The pool follows the
    cluster: every :data:`POLL_SECONDS` it starts actors for CPUs that joined (up
    to ``engine.workers``), and an actor not placed within
    :data:`PLACEMENT_SECONDS` is given up. A batch lost more than
    :data:`MAX_BATCH_RESUBMITS` times ends the sweep. Tasks are deterministic, so a
    resubmitted batch gives the same records.
    """

    def __init__(self, workers: int | None, address: str | None, in_flight: int,
                 verbose: bool = True) -> None:
        import ray

        self._ray = ray
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            _start_ray(ray, workers, address, verbose)
        self._sigterm = _sigterm_as_interrupt()
        self._limit = workers
        self._verbose = verbose
        self.workers = self._capacity()
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(SimulationActor)
        context = ray.get_runtime_context()
        self._job = f"{context.get_node_id()}/{context.get_job_id()}"
        warm = _WARM_POOL.pop(self._job, [])
        _WARM_POOL.clear()
        if len(warm) != self.workers:
            for actor in warm:
                ray.kill(actor)
            warm = []
        self.actors: list = warm
        self._starting: dict = {}  # readiness reference -> (actor, when it was asked for)
        self._in_flight = in_flight
        self._unsaid = 0  # workers lost and not yet said
        self._gcs_address = context.gcs_address

    def check_loadable(self, plugins: Mapping[PluginPart, str]) -> None:
        """Before any batch is sent: every node of the cluster can load the plugin parts the sweep
        uses (``{part: the entry point that adds it}``: policies, distribution kinds, trace readers);
        else :class:`ConfigError` naming the first part, its plugin and a node that lacks it. Sweep's
        own parts come with sweep."""
        if not plugins:
            return
        ray = self._ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probe = ray.remote(num_cpus=0)(missing_here)
        asked = {probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False))
                 .remote(sorted(plugins)): node["NodeManagerAddress"]
                 for node in ray.nodes() if node["Alive"]}
        for reference, address in asked.items():
            for part, why in ray.get(reference, timeout=PLACEMENT_SECONDS).items():
                raise ConfigError(f"{part} (plugin {plugins[part]!r}) cannot be loaded on the Ray node "
                                  f"{address}: {why}; install the plugin's package on every node")

    def _capacity(self) -> int:
        """Actors the pool may hold now: the cluster's CPUs, at most ``engine.workers``."""
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        return max(1, min(self._limit or cpus, cpus)) if cpus else 0

    def _grow(self) -> None:
        """Start actors for CPUs nobody uses (at start-up, and when nodes join)."""
        missing = self._capacity() - len(self.actors) - len(self._starting)
        for _ in range(max(0, missing)):
            actor = self._actor_class.remote()
            self._starting[actor.__ray_ready__.remote()] = (actor, time.monotonic())

    def _give_up_unplaced(self) -> None:
        now = time.monotonic()
        for ref, (actor, asked) in list(self._starting.items()):
            if now - asked > PLACEMENT_SECONDS:
                del self._starting[ref]
                self._ray.kill(actor)

    def run(self, batches: Iterable[Sequence[Task]]) -> Iterator[list[Record]]:
        ray = self._ray
        pending = deque((batch, 0) for batch in batches)
        running: dict = {}
        idle = deque(actor for actor in self.actors for _ in range(self._in_flight))
        lost: set = set()
        last_poll = -math.inf
        alone_since = time.monotonic()  # since when no actor is ready nor starting
        while pending or running:
            if time.monotonic() - last_poll >= POLL_SECONDS:
                self._check_head()  # first: the calls below wait for a head that is gone
                self._say_lost()
                self._give_up_unplaced()
                self._grow()
                last_poll = time.monotonic()
            if self.actors or self._starting:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > PLACEMENT_SECONDS:
                raise PoolEmpty(f"no CPU left in the Ray cluster for {PLACEMENT_SECONDS:.0f} s")
            while pending and idle:
                actor = idle.popleft()
                if actor in lost:
                    continue
                batch, tries = pending.popleft()
                running[actor.run_batch.remote(batch)] = (actor, batch, tries)
            done, _ = ray.wait([*running, *self._starting], num_returns=1, timeout=POLL_SECONDS)
            if not done:
                continue
            if done[0] in self._starting:
                actor, _ = self._starting.pop(done[0])
                if self._ready(done[0]):
                    self.actors.append(actor)
                    idle.extend([actor] * self._in_flight)
                continue
            actor, batch, tries = running.pop(done[0])
            try:
                records = ray.get(done[0])
            except ray.exceptions.RayTaskError as error:
                raise error.cause from None
            except ray.exceptions.RayActorError:
                if tries >= MAX_BATCH_RESUBMITS:
                    raise
                pending.appendleft((batch, tries + 1))
                self._lose(actor, lost)
                continue
            idle.append(actor)
            yield records
        self._say_lost()

    def _ready(self, reference: object) -> bool:
        try:
            self._ray.get(reference)
        except self._ray.exceptions.RayActorError:
            return False
        return True

    def _lose(self, actor: object, lost: set) -> None:
        """Forget a dead actor (its queued slots are skipped); it is said at the next poll."""
        if actor in lost:
            return
        lost.add(actor)
        self._unsaid += 1
        self.actors = [a for a in self.actors if a is not actor]

    def _check_head(self) -> None:
        """If the cluster's head (its GCS) no longer answers, end the sweep now with one line
        (:class:`PoolEmpty`). Asked at every poll, before the calls that need the head: Ray's own
        client would wait 60 s for it in ``cluster_resources`` and then end this process with a log
        line and no word of the checkpoint. Workers whose head is gone may still be alive (killed
        apart from them) or dead (``ray stop``). A TCP connection, well under a millisecond here."""
        if not _accepts(self._gcs_address):
            self._unsaid = 0  # the line below says it
            raise PoolEmpty(f"the Ray cluster's head at {self._gcs_address} no longer answers (stopped, or "
                            f"unreachable from here): no work can be sent or received")

    def _say_lost(self) -> None:
        """One line for the workers lost since the last poll: a node's actors die together, so a
        lost node is one line, not one per CPU."""
        if self._unsaid:
            print(f"sweep: lost {self._unsaid} worker{'s' if self._unsaid > 1 else ''} (a process or "
                  f"node is gone); their batches are rerun on the {len(self.actors)} left", file=sys.stderr)
            self._unsaid = 0

    def close(self) -> None:
        """Stop the actors and the Ray we started; keep them warm in a Ray we were given, or in one we
        started inside :func:`one_local_ray`."""
        if self._sigterm is not None:
            signal.signal(signal.SIGTERM, self._sigterm)
        kept = self._owns_ray and _KEPT_RAY.inside
        if kept:
            _KEPT_RAY.started = True  # one_local_ray shuts it down
        if self._owns_ray and not kept:
            self._ray.shutdown()
        elif self._ray.is_initialized():
            for actor, _ in self._starting.values():
                self._ray.kill(actor)
            _WARM_POOL[self._job] = self.actors


class PluginPart(NamedTuple):
    """What a plugin adds that a sweep uses: ``what`` (:data:`PLUGIN_PARTS`) and its name."""

    what: str
    name: str

    def __str__(self) -> str:
        return f"{self.what} {self.name!r}"


#: The parts a plugin adds, each with the function that says which of some names this process lacks.
PLUGIN_PARTS: dict[str, Callable[[Iterable[str]], dict[str, str]]] = {
    "policy": unloadable, "workload kind": missing_parts, "trace reader": missing_parts}


def missing_here(parts: Iterable[PluginPart]) -> dict[PluginPart, str]:
    """The parts this process cannot load, each with the reason in a few words (run on each node)."""
    parts = list(parts)
    return {part: why for what, lacks in PLUGIN_PARTS.items()
            for name, why in lacks([p.name for p in parts if p.what == what]).items()
            for part in [PluginPart(what, name)]}


def _sigterm_as_interrupt() -> signal.Handlers | None:
    """While the pool runs, SIGTERM stops the sweep as Ctrl-C does (shards flushed, one line, a rerun
    resumes) instead of Ray's handler, which prints a stack dump; the handler it replaced, to put
    back (None where signals cannot be set: not the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, signal.default_int_handler)


def _start_ray(ray, workers: int | None, address: str | None, verbose: bool) -> None:
    """``ray.init`` for a local Ray (``address`` empty) or a cluster; one-line errors.

    A local Ray started here keeps Ray's token authentication on (Ray's default for
    a new local cluster: a token in ``~/.ray/auth_token``, made once), because
    Ray 2.60 binds its servers to every interface with no option to bind them to
    loopback alone: without the token no one who reaches the ports can run code
    on it. Only Ray's notice that authentication is on is silenced;
    ``RAY_AUTH_MODE=disabled`` set by the user (the tests do) turns it off. A cluster
    address that does not answer within :data:`CONNECT_TIMEOUT` seconds, or
    ``auto`` with no cluster running, is a :class:`ConfigError`. No address starts a new
    local Ray (``address="local"``): Ray's default would join a cluster recorded in
    ``/tmp/ray/ray_current_cluster`` by ``ray start``, even one killed since, and then refuse
    ``num_cpus``.
    """
    address = address or os.environ.get("RAY_ADDRESS", "")  # Ray would join it, refusing num_cpus
    if address:
        _check_reachable(address)
        for variable in ("RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S", "RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S"):
            os.environ.setdefault(variable, str(int(CONNECT_TIMEOUT) // 2))  # Ray's: 5 s growing to 30 s
        if verbose:
            print(f"sweep: joining the Ray cluster at {address}...", file=sys.stderr)
    else:
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        if verbose:
            print(f"sweep: starting a local Ray ({workers or os.cpu_count()} workers)...", file=sys.stderr)
    warnings.filterwarnings("ignore", message="Ray Client connection timed out")  # said in our line
    try:
        ray.init(address=address or "local", num_cpus=None if address else (workers or os.cpu_count()),
                 include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                 configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ConfigError(f"engine.address={address!r}: cannot join a Ray cluster ({first})") from None


def _accepts(address: str, timeout: float = CONNECT_TIMEOUT) -> bool:
    """Whether ``host:port`` (a Ray GCS) accepts a TCP connection within ``timeout`` seconds: a head
    that is gone refuses it at once (gRPC would retry until the timeout)."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def _check_reachable(address: str) -> None:
    """A ``host:port`` or ``ray://host:port`` address must answer gRPC (Ray's protocol, both for
    the GCS and the client server) within :data:`CONNECT_TIMEOUT` seconds; Ray itself would
    retry for about 36 s before failing with a traceback."""
    if address == "auto":
        return
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host or not port:
        raise ConfigError(f"engine.address={address!r}: expected auto, host:port or ray://host:port")
    import grpc

    channel = grpc.insecure_channel(f"{host}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=CONNECT_TIMEOUT)
    except grpc.FutureTimeoutError:
        raise ConfigError(f"engine.address={address!r}: no Ray cluster answers at {host}:{port} "
                          f"within {CONNECT_TIMEOUT:.0f} s") from None
    finally:
        channel.close()


def choose_backend(backend: str, address: str | None, tasks: int, analytic: bool) -> str:
    """``serial`` or ``ray``: ``auto`` runs closed forms and small sweeps (at most
    :data:`SERIAL_AT_MOST` tasks on a local machine) in this process, the rest on Ray."""
    if backend != "auto":
        return backend
    if analytic or (not address and tasks <= SERIAL_AT_MOST):
        return "serial"
    return "ray"


def make_backend(backend: str, workers: int | None, address: str | None, in_flight: int,
                 verbose: bool = True) -> Backend:
    """The backend named ``serial`` or ``ray`` (see :func:`choose_backend` for ``auto``)."""
    if backend == "serial":
        return SerialBackend()
    return RayBackend(workers, address, in_flight, verbose)
