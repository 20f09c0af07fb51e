"""Time to make and check a large grid: ``python benchmarks/bench_grid.py``.

A 999,900-point dispatch grid (5 policies x 10^4 loads x 20 host counts), composed once and expanded
by :func:`sweep.config.grid.expand` (every combination of options checked by its family, every load
checked; issue 30). Prints the points and the seconds of ``expand``.
"""

from __future__ import annotations

import time

from sweep.config.compose import compose
from sweep.config.grid import expand

OVERRIDES = ["grid.policy=[random,round_robin,lwl,shortest_queue,central_queue]",
             "grid.load=range(0.0001,0.9,0.00009)",
             f"grid.system.hosts=[{','.join(str(h) for h in range(2, 22))}]"]


def main() -> None:
    cfg = compose(OVERRIDES)
    start = time.perf_counter()
    grid = expand(cfg, OVERRIDES)
    print(f"{grid.size:,} points: expand {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
