"""The kernels' disk cache (``sweep._numba.jit``): renewed by any change in the kernel's package,
and compiled once per node however many processes want a kernel at once.

Throwaway packages in ``tmp_path``, run in fresh processes (a process
compiles a kernel once at most; the cache is between processes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels")

KERNEL = textwrap.dedent("""
    from sweep._numba import jit
    from pkg_cached.shared import value

    @jit()
    def kernel(x):
        return value(x)
""")
SHARED = "import numba\n\n@numba.njit(inline='always')\ndef value(x):\n    return x + {}\n"
RUN = ("from pkg_cached.kernel import kernel; v = kernel(1); "
       "print(v, sum(kernel.stats.cache_hits.values()))")


def _env(root: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def _run(root: Path) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", RUN], env=_env(root), capture_output=True, text=True,
                         check=True)
    value, hits = out.stdout.split()
    return int(value), int(hits)


def test_a_change_in_a_sibling_file_renews_the_cached_kernel(tmp_path):
    """``kernel.py`` inlines ``shared.py``'s function: the first process compiles and writes the
    cache, the second loads it, the third runs after ``shared.py`` changed and must recompile."""
    package = tmp_path / "pkg_cached"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(KERNEL)
    (package / "shared.py").write_text(SHARED.format(10))
    assert _run(tmp_path) == (11, 0)  # compiled, written to the cache
    assert _run(tmp_path) == (11, 1)  # loaded from it
    (package / "shared.py").write_text(SHARED.format(20))
    assert _run(tmp_path) == (21, 0)  # kernel.py is unchanged: numba's own stamp would load 11


SLOW_KERNEL = textwrap.dedent("""
    from sweep._numba import jit

    @jit()
    def kernel(x):
        total = 0.0
        for i in range(x):
            total += (i % 7) * 0.5 - (i % 3) ** 2 + (i % 11) / 3.0
        return total
""")
# Each process waits at a file barrier, then calls the kernel: it compiles (a numba:compile event
# for this dispatcher) or loads it (a cache hit). Prints how many times it compiled it.
RACE = textwrap.dedent("""
    import os, sys, time
    from numba.core import event
    from pkg_race.kernel import kernel
    compiled = []
    class Count(event.Listener):
        def on_start(self, e):
            if e.data["dispatcher"] is kernel:
                compiled.append(1)
        def on_end(self, e):
            pass
    event.register("numba:compile", Count())
    open(os.path.join(sys.argv[1], f"ready-{os.getpid()}"), "w").close()
    while len([n for n in os.listdir(sys.argv[1]) if n.startswith("ready-")]) < int(sys.argv[2]):
        time.sleep(0.01)
    kernel(10)
    print(len(compiled), sum(kernel.stats.cache_hits.values()))
""")


def test_processes_that_want_a_kernel_at_once_compile_it_once(tmp_path):
    """Four processes from an empty cache call the same kernel at the same moment: one compiles it,
    the other three wait for its lock and load what it saved (without the lock, each compiles)."""
    package = tmp_path / "pkg_race"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(SLOW_KERNEL)
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    processes = 4
    command = [sys.executable, "-c", RACE, str(barrier), str(processes)]
    running = [subprocess.Popen(command, env=_env(tmp_path), stdout=subprocess.PIPE, text=True)
               for _ in range(processes)]
    counts = [tuple(int(n) for n in p.communicate(timeout=300)[0].split()) for p in running]
    assert sorted(counts) == [(0, 1)] * (processes - 1) + [(1, 0)]


RENAMED_KERNEL = textwrap.dedent("""
    from sweep._numba import jit

    @jit()
    def kernel(p):
        return p.a + 1
""")
RENAMED_SHARED = ("from typing import NamedTuple\n\n\nclass {0}(NamedTuple):\n    a: int\n\n\n"
                  "def make():\n    return {0}({1})\n")
RENAMED_RUN = ("from pkg_renamed.kernel import kernel; from pkg_renamed.shared import make; "
               "v = kernel(make()); print(v, sum(kernel.stats.cache_hits.values()))")


def test_a_cache_that_names_a_removed_type_is_a_miss(tmp_path):
    """The cached kernel's index names its argument's type, a named tuple of ``shared.py``; once
    that class is renamed the index no longer unpickles (numba raises AttributeError): the kernel
    must compile again and write a new cache, which the next process loads."""
    package = tmp_path / "pkg_renamed"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(RENAMED_KERNEL)
    (package / "shared.py").write_text(RENAMED_SHARED.format("Old", 10))

    def run() -> tuple[int, int]:
        out = subprocess.run([sys.executable, "-c", RENAMED_RUN], env=_env(tmp_path), capture_output=True,
                             text=True, check=True)
        value, hits = out.stdout.split()
        return int(value), int(hits)

    assert run() == (11, 0)
    (package / "shared.py").write_text(RENAMED_SHARED.format("New", 20))
    assert run() == (21, 0)  # before: AttributeError: Can't get attribute 'Old'
    assert run() == (21, 1)
