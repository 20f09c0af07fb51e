"""A local Ray no one else can use (issue 30 §2).

Ray 2.60 binds its servers to every interface and offers no option to bind them
to loopback only, so what keeps others out is Ray's token authentication, which
sweep leaves on for the local Ray it starts (``sweep.engine.backends._start_ray``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Starts the local Ray as sweep does, then tries to join it from other processes without its token.
_PROBE = """
import os, subprocess, sys
from sweep.engine.backends import RayBackend
backend = RayBackend(1, None, 1, verbose=False)
import ray
gcs = ray.get_runtime_context().gcs_address
join = ("import ray, logging; ray.init(address=%r, logging_level=logging.ERROR, log_to_driver=False); "
        "print('joined')" % gcs)
for mode in ("disabled", "token"):
    env = {**os.environ, "RAY_AUTH_MODE": mode, "RAY_AUTH_TOKEN": "0" * 64, "HOME": "/nonexistent"}
    other = subprocess.run([sys.executable, "-c", join], env=env, capture_output=True, text=True, timeout=120)
    print(mode, "joined" if "joined" in other.stdout else "refused")
backend.close()
"""


@pytest.mark.slow
@pytest.mark.ray
def test_a_process_without_the_token_cannot_join_the_local_ray(tmp_path):
    """About a minute: each refused join waits for Ray's own connection timeout."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"} | {"HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["disabled", "refused", "token", "refused"]
    assert "Token authentication" not in result.stderr  # Ray's notice is silenced, not the authentication
    assert (tmp_path / ".ray" / "auth_token").stat().st_size > 0


def test_sweep_leaves_rays_token_authentication_as_the_user_set_it(monkeypatch):
    """Before issue 30, a local Ray was started with ``RAY_AUTH_MODE=disabled`` unless the user set it."""
    from sweep.engine.backends import _start_ray

    class FakeRay:
        def init(self, **options):
            self.mode = os.environ.get("RAY_AUTH_MODE")

    ray = FakeRay()
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    _start_ray(ray, 2, None, verbose=False)
    assert ray.mode is None  # Ray's default for a new local cluster: token authentication on
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    _start_ray(ray, 2, None, verbose=False)
    assert ray.mode == "disabled"
