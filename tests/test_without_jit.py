"""The kernel tests once more with ``NUMBA_DISABLE_JIT=1``: the compiled loops as plain Python.

Tests marked ``kernel`` (naive references, hand-worked schedules, small
workloads) run in a subprocess without the JIT, so that the kernels' Python is
exercised line by line (what coverage measures) and a kernel that only works
compiled, or only uncompiled, fails here (the practice of stumpy's test.sh).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_kernel_tests_pass_without_the_jit():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
               "-m", "kernel and not slow", str(TESTS)]
    result = subprocess.run(command, env=env, cwd=TESTS.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]
