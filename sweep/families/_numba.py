"""Compilation options shared by the families' numba kernels.

``NO_REFCOUNT`` compiles an event loop without numba's runtime reference
counting (``_nrt=False``). Numba cannot prune the increments and decrements
of the arrays that helpers take in branching code (numba issue #2350), and each
is an atomic operation: in the malleable kernels they took over half the time
per event. Such a kernel may neither allocate arrays nor call a function that
does, so its work arrays come from the caller.

``cache_with_package`` caches a kernel on disk the way ``cache=True`` does,
but renews it when any source file of its package changes, not only its own.
"""

import contextlib
import glob
import os
from typing import TypeVar

import numba
import numpy as np
from numba.core import caching as _caching
from numba.core.dispatcher import Dispatcher

F = TypeVar("F")

NO_REFCOUNT = {"_nrt": False}


def record(dtype: np.dtype) -> np.ndarray:
    """One zeroed record of ``dtype`` as a length-1 array: kernels read ``rec[0].field``.

    Numba compiles the attribute access on a structured array's element; plain
    numpy (``NUMBA_DISABLE_JIT=1``, the kernels run as Python) allows it only on
    a record array, so that is what it gets then: the same memory layout.
    """
    out = np.zeros(1, dtype)
    return out.view(np.recarray) if numba.config.DISABLE_JIT else out


class _PackageStamp:
    """A cache locator mixin: a function's cached code is fresh while no source of its package changes.

    Numba stamps a cached function with its own file only (a content hash); a
    kernel that inlines a family's shared loop from another file of the
    package would then load stale code after an edit there. This stamp also
    hashes every ``*.py`` file of the function's package and this module.
    """

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


class _PackageFunctionCache(_caching.FunctionCache):
    _impl_class = _PackageCacheImpl


def cache_with_package(kernel: F) -> F:
    """Cache a compiled ``kernel`` on disk, recompiled when any source file of its package changes.

    For a kernel that inlines functions of other files of its family (the
    family's loop, its policy hooks), where numba's ``cache=True`` would not
    notice a change to them. Without the JIT (``NUMBA_DISABLE_JIT=1``) the
    function is returned as it is; should numba's cache machinery not allow
    it, the kernel is compiled in each process instead (correct, only slower).
    """
    if not isinstance(kernel, Dispatcher):
        return kernel
    with contextlib.suppress(AttributeError, RuntimeError, TypeError):  # an unknown numba: no cache
        kernel._cache = _PackageFunctionCache(kernel.py_func)
    return kernel
