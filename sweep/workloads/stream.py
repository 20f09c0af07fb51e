"""Job streams drawn in fixed blocks and handed out in any split (docs/design.md §4, §7).

A family's stream draws the columns of its jobs (arrival times, sizes,
parallelism, ...) :data:`DRAW_BLOCK` jobs at a time, each quantity from its own
child of the replication's generator, and hands them out in chunks of any
length. Job ``j`` then gets the same numbers whatever the chunk size, the run
length or the policy (common random numbers), and memory holds one block, not
the run's job budget. The dispatch family's ``JobStream`` (arrival times and
sizes) and the malleable family's ``MalleableStream`` are both a
:class:`BlockStream`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sweep._numba import jit

__all__ = ["DRAW_BLOCK", "BlockStream", "accumulate"]

#: Jobs per random-number block: the stream does not depend on how it is consumed.
DRAW_BLOCK = 1 << 16


@jit()
def accumulate(gaps, scale, clock):
    """In place: ``gaps[k] <- clock + scale (gaps[0] + ... + gaps[k])``, summed in order.

    Interarrival times to arrival times, carried on from the previous block's
    last arrival ``clock``, so the sums do not depend on where blocks end.
    """
    for k in range(gaps.shape[0]):
        clock += gaps[k] * scale
        gaps[k] = clock
    return gaps


class BlockStream:
    """Columns of jobs, drawn ``DRAW_BLOCK`` at a time by ``draw()``, handed out in any split.

    ``draw()`` returns a tuple of arrays whose first axis has ``DRAW_BLOCK``
    rows (one per job); :meth:`take` returns the next ``count`` rows of each,
    views into the current block when they fit, copies otherwise.
    """

    def __init__(self, draw: Callable[[], tuple[np.ndarray, ...]]) -> None:
        self._draw_block = draw
        self._block: tuple[np.ndarray, ...] = ()
        self._next = 0
        self.drawn = 0  # jobs drawn so far (whole blocks)

    def _draw(self) -> None:
        self._block = self._draw_block()
        self._next = 0
        self.drawn += len(self._block[0])

    def _left(self) -> int:
        return len(self._block[0]) - self._next if self._block else 0

    def take(self, count: int) -> tuple[np.ndarray, ...]:
        """The next ``count`` jobs, one array per column."""
        if self._left() == 0:
            self._draw()
        if count <= self._left():
            window = slice(self._next, self._next + count)
            self._next += count
            return tuple(column[window] for column in self._block)
        out = tuple(np.empty((count, *column.shape[1:]), column.dtype) for column in self._block)
        filled = 0
        while filled < count:
            if self._left() == 0:
                self._draw()
            step = min(count - filled, self._left())
            for target, column in zip(out, self._block, strict=True):
                target[filled:filled + step] = column[self._next:self._next + step]
            filled += step
            self._next += step
        return out
