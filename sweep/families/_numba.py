"""Compilation options shared by the families' numba kernels.

``NO_REFCOUNT`` compiles an event loop without numba's runtime reference
counting (``_nrt=False``). Numba cannot prune the increments and decrements
of the arrays that helpers take in branching code (numba issue #2350), and each
is an atomic operation: in the malleable kernels they took over half the time
per event. Such a kernel may neither allocate arrays nor call a function that
does, so its work arrays come from the caller.
"""

NO_REFCOUNT = {"_nrt": False}
