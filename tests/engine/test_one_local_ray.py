"""Pools in a row on one local Ray (sweep.engine.backends.one_local_ray, issue 27): the first pool
starts the Ray, the next finds it and the first pool's actors warm, and the block's end shuts it
down. Run in a subprocess: a Ray left running in the test process would change the backends of
every later test there."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import sys
    import ray
    import sweep
    from sweep.engine import backends

    small = ["grid.policy=[random,lwl]", "grid.load=[0.5]", "workload=hyperexp2", "replications=2",
             "stop.jobs=2000", "stop.warmup=200", "progress=false", "plots=false",
             "engine.backend=ray", "engine.workers=1"]
    out = sys.argv[1]
    with backends.one_local_ray():
        first = sweep.run([*small, f"output={out}/a.nc"])
        assert ray.is_initialized(), "the block's Ray was shut down by its first pool"
        actors = [a._actor_id.hex() for pool in backends._WARM_POOL.values() for a in pool]
        second = sweep.run([*small, "grid.load=[0.7]", f"output={out}/b.nc"])
        again = [a._actor_id.hex() for pool in backends._WARM_POOL.values() for a in pool]
    assert len(actors) == 1 and again == actors, (actors, again)
    assert not ray.is_initialized(), "the Ray outlived the block"
    assert not backends._WARM_POOL
    same = sweep.run([*small, "engine.backend=serial", f"output={out}/c.nc"])
    assert (same["mean_slowdown"] == first["mean_slowdown"]).all()
    print("one Ray, one actor, two pools")
''')


def test_pools_in_one_block_share_the_local_ray_and_its_warm_actors(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert done.stdout.strip().splitlines()[-1] == "one Ray, one actor, two pools"
