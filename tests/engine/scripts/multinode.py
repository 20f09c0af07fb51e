"""A sweep on a 2-node Ray cluster on this machine (Ray's own ``cluster_utils.Cluster``).

Run by ``tests/engine/test_multinode.py`` in its own interpreter (one Ray per
process). One sweep on a head and a worker node (one CPU each), compared with a
serial run of the same design: the worker node is removed mid-sweep (its
in-flight batches rerun on the head); with ``--join`` (a longer design) a new
node then joins and must get work. ``--undisturbed`` first runs the same sweep
on both nodes untouched, for the time it takes. Prints one JSON line of what it saw.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import ray
from ray.cluster_utils import Cluster

import sweep
from sweep.engine import backends
from sweep.engine.dataset import reproducible

COMMON = ["grid.policy=[random,lwl,sita_e,round_robin]", "workload=hyperexp2", "stop.warmup=1000",
          "progress=false", "plots=false", "engine.backend=ray", "engine.batch_size=1", "engine.in_flight=1",
          "engine.checkpoint_seconds=0"]
#: 96 runs of ~0.05 s: node loss alone.
DESIGN = [*COMMON, "grid.load=[0.5,0.6,0.7,0.8]", "replications=6", "stop.jobs=100000"]
#: 24 runs of ~1 s: long enough for a node to join, start an actor and take work.
LONG_DESIGN = [*COMMON, "grid.load=[0.5,0.6,0.7]", "replications=2", "stop.jobs=10000000"]


def _wait_for_shards(output: Path, count: int) -> None:
    partial = output.with_name(output.name + ".partial")
    while len(list(partial.glob("shard-*.npz"))) < count:
        time.sleep(0.05)


def _in_background(design: list[str]) -> tuple[threading.Thread, dict]:
    """The sweep in a thread: Ray's node processes can only be started from the main thread."""
    result: dict = {}

    def run() -> None:
        started = time.perf_counter()
        result["dataset"] = reproducible(sweep.run(design))
        result["seconds"] = time.perf_counter() - started

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, result


def _actor_nodes() -> set[str]:
    return {node for node, _ in _actor_places()}


def _actor_places() -> list[tuple[str, int]]:
    """The warm pool's actors: each one's node and process id."""
    actors = next(iter(backends._WARM_POOL.values()), [])
    return ray.get([a.__ray_call__.remote(lambda self: (ray.get_runtime_context().get_node_id(), os.getpid()))
                    for a in actors])


def _remove(cluster: Cluster, worker, processes: list[int]) -> None:
    """The worker node gone, its actors' ``processes`` with it: a node lost loses every process on
    it, but Ray's ``remove_node`` kills the raylet and leaves an actor's process to notice, and under
    load one may finish the sweep's remaining batches first (actor calls do not pass through the
    raylet), so that nothing is lost to test."""
    cluster.remove_node(worker, allow_graceful=False)
    for pid in processes:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _warm_both_nodes(folder: Path, worker_node: str, tries: int = 5) -> bool:
    """Short sweeps until the warm pool holds an actor on the worker node too: on a loaded machine the
    first may place only the head's before it ends, and removing a node without an actor tests nothing."""
    for attempt in range(tries):
        sweep.run([*COMMON, "grid.load=[0.5]", "replications=1", "stop.jobs=1000", "overwrite=true",
                   f"output={folder / 'warm.nc'}"])
        if worker_node in _actor_nodes():
            return True
        time.sleep(1.0 + attempt)
    return False


def main(folder: Path, undisturbed: bool, join: bool) -> None:
    design = LONG_DESIGN if join else DESIGN
    reference = reproducible(sweep.run([*design, "engine.backend=serial", f"output={folder / 'serial.nc'}"]))
    seen: dict[str, object] = {}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    worker = cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
    if undisturbed:
        started = time.perf_counter()
        run = reproducible(sweep.run([*design, f"output={folder / 'undisturbed.nc'}"]))
        seen["undisturbed_seconds"] = time.perf_counter() - started
        seen["undisturbed_identical"] = run.identical(reference)
    else:  # place an actor on each node first (they stay warm): the node is removed with work on it
        seen["worker_had_actor"] = _warm_both_nodes(folder, worker.node_id)
    on_worker = [pid for node, pid in _actor_places() if node == worker.node_id]  # the warm pool's
    output = folder / "disturbed.nc"
    thread, result = _in_background([*design, f"output={output}"])
    _wait_for_shards(output, 3)
    _remove(cluster, worker, on_worker)
    if join:
        _wait_for_shards(output, 6)
        joined = cluster.add_node(num_cpus=1).node_id
    thread.join()
    seen["disturbed_seconds"] = result["seconds"]
    seen["disturbed_identical"] = result["dataset"].identical(reference)
    if join:
        seen["added_node_got_work"] = joined in _actor_nodes()
    ray.shutdown()
    cluster.shutdown()
    print(json.dumps(seen))


if __name__ == "__main__":
    main(Path(sys.argv[1]), undisturbed="--undisturbed" in sys.argv, join="--join" in sys.argv)
