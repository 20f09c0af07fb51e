"""The progress bar: points done, ETA and simulated jobs per second (docs/design.md §8)."""

from __future__ import annotations

import sys
import time
from collections import Counter

from tqdm import tqdm

from sweep.engine.tasks import Record


class Progress:
    """Counts a point done when all its replications are; shows throughput in jobs/s."""

    def __init__(self, points: int, replications: int, done: list[Record], enabled: bool) -> None:
        self._replications = replications
        self._per_point = Counter(record.index for record in done)
        finished = sum(1 for n in self._per_point.values() if n >= replications)
        self._work = 0
        self._started = time.perf_counter()
        self._bar = tqdm(total=points, initial=finished, unit="pt", desc="sweep", file=sys.stderr,
                         disable=not enabled, dynamic_ncols=True, smoothing=0.1)

    def update(self, records: list[Record]) -> None:
        finished = 0
        for record in records:
            self._per_point[record.index] += 1
            finished += self._per_point[record.index] == self._replications
            self._work += record.work
        self._bar.set_postfix_str(f"{_si(self.jobs_per_second)} jobs/s", refresh=False)
        self._bar.update(finished)

    @property
    def jobs_per_second(self) -> float:
        return self._work / max(time.perf_counter() - self._started, 1e-9)

    def close(self) -> None:
        self._bar.close()


def _si(value: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.1f}{unit}"
    return f"{value:.0f}"
