"""Compilation options shared by the families' numba kernels.

``NO_REFCOUNT`` compiles an event loop without numba's runtime reference
counting (``_nrt=False``). Numba cannot prune the increments and decrements
of the arrays that helpers take in branching code (numba issue #2350), and each
is an atomic operation: in the malleable kernels they took over half the time
per event. Such a kernel may neither allocate arrays nor call a function that
does, so its work arrays come from the caller.
"""

import numba
import numpy as np

NO_REFCOUNT = {"_nrt": False}


def record(dtype: np.dtype) -> np.ndarray:
    """One zeroed record of ``dtype`` as a length-1 array: kernels read ``rec[0].field``.

    Numba compiles the attribute access on a structured array's element; plain
    numpy (``NUMBA_DISABLE_JIT=1``, the kernels run as Python) allows it only on
    a record array, so that is what it gets then: the same memory layout.
    """
    out = np.zeros(1, dtype)
    return out.view(np.recarray) if numba.config.DISABLE_JIT else out
