"""How sweep compiles its kernels: numba's JIT, cached on disk, compiled once per node.

:func:`jit` is ``numba.njit(cache=True, ...)`` with two changes to the cache.

**Renewed with its package.** Numba stamps a cached function with its own
source file only (a content hash); a kernel that inlines a family's shared
loop from another file of the package would then load stale code after an
edit there. The stamp of :func:`jit` also covers every ``*.py`` file of the
function's package and this module. (A change to a function of another
package that a kernel calls is still not seen: numba links the callee's
code into the caller's.)

**Compiled once per node.** The processes of one node take turns: the first
process that misses the cache for a kernel compiles it under a lock file
beside the cache; any other process that misses it meanwhile waits for that
lock, then loads what the first one saved. Sixteen workers starting a sweep together compile each
kernel once, not sixteen times (a kernel can take tens of seconds to
compile). Workers of a cluster node share the node's cache directory (the
package's ``__pycache__`` folders, or ``NUMBA_CACHE_DIR``). A process that
waits longer than :data:`COMPILE_WAIT_SECONDS` compiles the kernel itself
(correct, only slower), as it does where no lock file can be made (a
read-only cache, a file system without locks, a system without ``fcntl``).

``NO_REFCOUNT`` compiles an event loop without numba's runtime reference
counting (``_nrt=False``). Numba cannot prune the increments and decrements
of the arrays that helpers take in branching code (numba issue #2350), and each
is an atomic operation: in the malleable kernels they took over half the time
per event. Such a kernel may neither allocate arrays nor call a function that
does, so its work arrays come from the caller.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pickle
import time
from collections.abc import Callable
from typing import IO, Any, TypeVar

import numba
import numpy as np
from numba.core import caching as _caching
from numba.core import event as _event
from numba.core.dispatcher import Dispatcher

try:
    import fcntl
except ImportError:  # not POSIX: each process compiles what it misses
    fcntl = None

F = TypeVar("F")

NO_REFCOUNT = {"_nrt": False}

#: Seconds a process waits for another one's compilation of the same kernel before compiling it too.
COMPILE_WAIT_SECONDS = 600.0
#: Seconds between tries of a held compile lock.
_POLL_SECONDS = 0.05


def record(dtype: np.dtype, count: int = 1) -> np.ndarray:
    """``count`` zeroed records of ``dtype`` (one by default): kernels read ``rec[i].field``.

    Numba compiles the attribute access on a structured array's element; plain
    numpy (``NUMBA_DISABLE_JIT=1``, the kernels run as Python) allows it only on
    a record array, so that is what it gets then: the same memory layout.
    Python outside the kernels reads ``rec["field"]``, which both allow. No field may
    be named like an attribute of numpy scalars (``size``, ``shape``, ``real``): without the
    JIT, ``rec[i].size`` is numpy's, not the field.
    """
    out = np.zeros(count, dtype)
    return out.view(np.recarray) if numba.config.DISABLE_JIT else out


def _wait_for_lock(path: str) -> IO[bytes] | None:
    """The lock file at ``path``, held (``flock``); ``None`` where none can be made or after
    :data:`COMPILE_WAIT_SECONDS`. The operating system drops the lock of a process that dies."""
    if fcntl is None:
        return None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle = open(path, "ab")  # noqa: SIM115 (held from a cache miss until the save)
    except OSError:
        return None
    deadline = time.monotonic() + COMPILE_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            if time.monotonic() > deadline:
                handle.close()
                return None
            time.sleep(_POLL_SECONDS)
        except OSError:  # a file system without locks
            handle.close()
            return None


class _PackageStamp:
    """A cache locator mixin: a function's cached code is fresh while no source of its package changes."""

    _py_file: str

    def get_source_stamp(self):  # noqa: ANN201 (numba's interface)
        folder = os.path.dirname(os.path.abspath(self._py_file))
        files = sorted(glob.glob(os.path.join(folder, "*.py"))) + [os.path.abspath(__file__)]
        stamps = []
        for path in files:
            st = os.stat(path)
            stamps.append(_caching._hash_source_file(path, st.st_mtime, st.st_size))
        return super().get_source_stamp(), tuple(stamps)


class _PackageCacheImpl(_caching.CompileResultCacheImpl):
    _locator_classes = [type(f"Package{base.__name__}", (_PackageStamp, base), {})
                        for base in (_caching.UserProvidedCacheLocator, _caching.InTreeCacheLocator,
                                     _caching.UserWideCacheLocator)]


class _KernelCache(_caching.FunctionCache):
    """Numba's function cache with the package's stamp and a compile lock per kernel beside the
    cached files (module docstring).

    A miss takes the kernel's lock and looks again (another process may have
    saved it meanwhile); still a miss, this process compiles and keeps the
    lock until :meth:`save_overload`. A compile that fails keeps it until
    this process ends or compiles the kernel again.
    """

    _impl_class = _PackageCacheImpl
    _held: IO[bytes] | None = None

    def load_overload(self, sig: Any, target_context: Any) -> Any:  # noqa: ANN401 (numba's interface)
        loaded = self._load(sig, target_context)
        if loaded is not None or self._held is not None:
            return loaded
        self._held = _wait_for_lock(os.path.join(self._cache_path, f"{self._impl.filename_base}.lock"))
        loaded = self._load(sig, target_context)
        if loaded is not None:
            self._release()
        return loaded

    def _load(self, sig: Any, target_context: Any) -> Any:  # noqa: ANN401 (numba's interface)
        """Numba's load; an index written before a type it names was renamed or removed no longer
        unpickles (numba raises): it is stale (the package changed), so it is dropped, a miss."""
        try:
            return super().load_overload(sig, target_context)
        except (AttributeError, ImportError, EOFError, pickle.UnpicklingError):
            with contextlib.suppress(OSError):
                os.remove(self._cache_file._index_path)
            return None

    def save_overload(self, sig: Any, data: Any) -> None:  # noqa: ANN401 (numba's interface)
        try:
            super().save_overload(sig, data)
        finally:
            self._release()

    def _release(self) -> None:
        if self._held is not None:
            self._held.close()  # closing the file drops its flock
            self._held = None



def jit(**options: Any) -> Callable[[F], F]:  # noqa: ANN401 (numba's options)
    """``numba.njit(cache=True, **options)``, its cache renewed with its package and compiled once
    per node (module docstring). Without the JIT (``NUMBA_DISABLE_JIT=1``) the function is returned
    as it is; should numba's cache machinery not allow the change (an unknown numba), the kernel
    keeps numba's own cache."""
    def decorate(function: F) -> F:
        kernel = numba.njit(cache=True, **options)(function)
        if isinstance(kernel, Dispatcher):
            with contextlib.suppress(AttributeError, RuntimeError, TypeError):
                kernel._cache = _KernelCache(kernel.py_func)
        return kernel
    return decorate


def is_cached(kernel: Any) -> bool:  # noqa: ANN401 (a numba dispatcher or a plain function)
    """Whether ``kernel``'s on-disk cache holds code for its current sources (any signature): it
    will load, not compile. ``True`` for what is not a cached kernel (nothing to compile, or the JIT
    off) and wherever numba's cache cannot be read this way (an unknown numba)."""
    cache = getattr(kernel, "_cache", None)
    if not isinstance(cache, _caching.FunctionCache):
        return True
    try:
        return bool(cache._cache_file._load_index())
    except (AttributeError, OSError, EOFError, ValueError, TypeError):
        return True


#: The folder :func:`log_compilations` writes to (unset: nothing is logged).
COMPILE_LOG_ENV = "SWEEP_COMPILE_LOG"


class _CompileLog(_event.Listener):
    """Appends ``<module>.<function> <seconds>`` to ``<folder>/<pid>`` as each compilation ends."""

    def __init__(self, folder: str) -> None:
        self._path = os.path.join(folder, str(os.getpid()))
        self._started: list[float] = []

    def on_start(self, event: _event.Event) -> None:
        self._started.append(time.perf_counter())

    def on_end(self, event: _event.Event) -> None:
        seconds = time.perf_counter() - self._started.pop()
        function = event.data["dispatcher"].py_func
        with open(self._path, "a") as log:
            log.write(f"{function.__module__}.{function.__qualname__} {seconds:.3f}\n")


def log_compilations() -> None:
    """Log every kernel this process compiles to the folder named by ``$SWEEP_COMPILE_LOG``.

    For counting compilations per node (``benchmarks/bench_engine.py compile``,
    ``tests/engine/test_compile_once.py``): pass it as Ray's
    ``worker_process_setup_hook`` (``"sweep._numba.log_compilations"``) and every
    worker logs to its own file. Nested compilations (a kernel's callees) are
    logged each on its own line.
    """
    folder = os.environ.get(COMPILE_LOG_ENV)
    if folder:
        _event.register("numba:compile", _CompileLog(folder))
