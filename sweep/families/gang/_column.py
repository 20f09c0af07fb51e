"""Each PE's tasks in its local scheduler's order (CSSE00 §3.3.3): priority first, then row.

A local scheduler picks, among the ready tasks of its PE's column, one of
highest priority ``Pr(T)`` (CSSE00 eq. 1, or the ISPAN rule), round robin
among equals. Scanning the whole column at every pick costs O(rows) each time
a task blocks; instead each PE keeps its column sorted by (priority
descending, row ascending) in ``mach.order[p, :mach.size[p]]`` with the keys
in ``mach.key`` and each row's place in ``mach.at[row, p]``, so that a pick
reads the highest-priority group first and stops at its first ready task.

The order changes only where the priorities change: at a rebuild of the
matrix (all columns anew, by :func:`append`) and when the grades of a
slot's task are updated at a context switch (:func:`reorder`, that one task
moves up or down its column). Between those, priorities are fixed (the grades
are measured at context switches only, §3.3.2), so the stored keys are exactly
:func:`~sweep.families.gang._core.local_priority` of each task: a pick from
the index is the pick of a full scan (``sweep/testing/naive/gang.py`` checks it).
Tasks finished at the rebuild are left out; tasks that finish later stay and
are passed over.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit


@jit(inline="always", **NO_REFCOUNT)
def before(key_a, row_a, key_b, row_b):
    """True when an entry (key, row) comes before another: higher priority, or the same and a lower row."""
    return key_a > key_b or (key_a == key_b and row_a < row_b)


@jit(inline="always", **NO_REFCOUNT)
def append(p, n, r, k, mach):
    """Insert row ``r`` of key ``k`` into PE ``p``'s first ``n`` entries (built in ascending rows)."""
    order, key, at = mach.order, mach.key, mach.at
    i = n  # rows come in ascending order, so equal keys keep it
    while i > 0 and k > key[p, i - 1]:
        order[p, i] = order[p, i - 1]
        key[p, i] = key[p, i - 1]
        at[order[p, i], p] = i
        i -= 1
    order[p, i] = r
    key[p, i] = k
    at[r, p] = i


@jit(inline="always", **NO_REFCOUNT)
def reorder(p, r, k, mach):
    """Give row ``r`` of PE ``p``'s column the key ``k`` and move it to its place."""
    order, key, at = mach.order, mach.key, mach.at
    i = at[r, p]
    if i < 0 or key[p, i] == k:
        return
    n = mach.size[p]
    while i > 0 and before(k, r, key[p, i - 1], order[p, i - 1]):
        order[p, i] = order[p, i - 1]
        key[p, i] = key[p, i - 1]
        at[order[p, i], p] = i
        i -= 1
    while i < n - 1 and before(key[p, i + 1], order[p, i + 1], k, r):
        order[p, i] = order[p, i + 1]
        key[p, i] = key[p, i + 1]
        at[order[p, i], p] = i
        i += 1
    order[p, i] = r
    key[p, i] = k
    at[r, p] = i


@jit(inline="always", **NO_REFCOUNT)
def group_end(p, i, mach):
    """The end of the group of entries of PE ``p`` with the key of entry ``i`` (binary search)."""
    key = mach.key
    k = key[p, i]
    lo, hi = i + 1, mach.size[p]
    if lo == hi or key[p, lo] < k:  # a group of one: the usual case with the fuzzy grades
        return lo
    while lo < hi:
        mid = (lo + hi) >> 1
        if key[p, mid] < k:
            hi = mid
        else:
            lo = mid + 1
    return lo


@jit(inline="always", **NO_REFCOUNT)
def first_row_from(p, i, j, start, mach):
    """The first entry of ``[i, j)`` (one group, rows ascending) of row ``start`` or after; else ``j``."""
    order = mach.order
    lo, hi = i, j
    while lo < hi:
        mid = (lo + hi) >> 1
        if order[p, mid] < start:
            lo = mid + 1
        else:
            hi = mid
    return lo
