"""The gang kernels' disk cache (``sweep.families._numba.cache_with_package``) is renewed by any change in
their package: a kernel that inlines a function of a sibling file must not load stale code.

A throwaway package of two files: ``kernel.py`` (the cached kernel) inlines
``shared.py``'s function. Three fresh processes: the first compiles and
writes the cache, the second loads it (a cache hit, the same value), the
third runs after ``shared.py`` changed and must return the new value.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

KERNEL = textwrap.dedent("""
    import numba
    from sweep.families._numba import cache_with_package
    from pkg_cached.shared import value

    @cache_with_package
    @numba.njit
    def kernel(x):
        return value(x)
""")
SHARED = "import numba\n\n@numba.njit(inline='always')\ndef value(x):\n    return x + {}\n"
RUN = ("from pkg_cached.kernel import kernel; v = kernel(1); "
       "print(v, sum(kernel.stats.cache_hits.values()))")


def _run(root: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True,
                         check=True)
    value, hits = out.stdout.split()
    return int(value), int(hits)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels")
def test_a_change_in_a_sibling_file_renews_the_cached_kernel(tmp_path):
    package = tmp_path / "pkg_cached"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(KERNEL)
    (package / "shared.py").write_text(SHARED.format(10))
    assert _run(tmp_path) == (11, 0)  # compiled, written to the cache
    assert _run(tmp_path) == (11, 1)  # loaded from it
    (package / "shared.py").write_text(SHARED.format(20))
    assert _run(tmp_path) == (21, 0)  # kernel.py is unchanged: numba's own stamp would load 11
