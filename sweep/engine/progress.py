"""The progress bar: points done, ETA and simulated jobs per second (docs/design.md §8)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from tqdm import tqdm


class Progress:
    """Points done of ``points`` (a point is done when all its replications are), ETA, jobs/s.

    ``phase`` names what the workers do before the first results come back (``compiling``: the
    kernels that are not in numba's cache), shown in the bar until then, so that a first run's
    minutes of compiling do not look like a hung ``0/596``.
    """

    def __init__(self, points: int, finished: int, enabled: bool, phase: str | None = None) -> None:
        self._work = 0
        self._started = time.perf_counter()
        self._phase = phase
        # leave=False: the bar is erased when it closes, so a sweep's summary line is the last
        # thing on the terminal (the bar redrawn below it looked like work still going on).
        self._bar = tqdm(total=points, initial=finished, unit="pt", desc=_description(phase), file=sys.stderr,
                         disable=not enabled, dynamic_ncols=True, smoothing=0.1, leave=False)

    @property
    def description(self) -> str:
        """What the bar is labelled now: ``sweep``, or ``sweep (compiling)`` before the first results."""
        return _description(self._phase)

    def update(self, finished: int, work: int) -> None:
        """``finished`` more points are done; ``work`` more jobs were simulated (results are back: the
        phase is over)."""
        if self._phase is not None:
            self._phase = None
            self._bar.set_description_str(self.description, refresh=False)
        self._work += work
        self._bar.set_postfix_str(f"{_si(self.jobs_per_second)} jobs/s", refresh=False)
        self._bar.update(finished)

    def write_above(self, action: Callable[[], object]) -> None:
        """Run ``action`` (which may print lines) with the bar cleared, then redraw it."""
        with self._bar.external_write_mode(file=sys.stderr):
            action()

    @property
    def jobs_per_second(self) -> float:
        return self._work / max(time.perf_counter() - self._started, 1e-9)

    def close(self) -> None:
        """Erase the bar for good (a second call does nothing): close it before the last line a sweep
        prints, or the bar is drawn again below that line."""
        self._bar.close()


def _description(phase: str | None) -> str:
    return "sweep" if phase is None else f"sweep ({phase})"


def _si(value: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.1f}{unit}"
    return f"{value:.0f}"
