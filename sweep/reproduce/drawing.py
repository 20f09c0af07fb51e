"""The presets' figures for the report, drawn in several processes at once.

Drawing is the longest step of ``sweep-reproduce`` after the simulations (a
quick run under cProfile: ``write_figures`` 59 of its 298 s): each preset is drawn
from its parts' files in its own task of a process pool (``spawn``: the
driver holds Ray's threads, which a ``fork`` would copy half-alive).
:class:`Drawings` starts a preset's drawing as soon as its parts are written, while
other presets still run (issue 27: the driver off the critical path), and draws it
again only if a later round adds a part.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Mapping, Sequence
from pathlib import Path


class Drawings:
    """Presets' figures drawn in a pool of up to ``processes`` processes as the presets complete."""

    def __init__(self, folder: Path, processes: int) -> None:
        self.folder, self.processes = folder, max(1, processes)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._drawing: dict[str, tuple[tuple[Path, ...], concurrent.futures.Future]] = {}

    def submit(self, name: str, paths: Sequence[Path]) -> None:
        """Start drawing preset ``name`` from ``paths`` (its parts' files), unless it is being drawn
        from those already."""
        paths = tuple(paths)
        if name in self._drawing and self._drawing[name][0] == paths:
            return
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(self.processes, mp_context=context)
        self._drawing[name] = (paths, self._pool.submit(draw_preset, name, paths, self.folder))

    def results(self, parts: Mapping[str, Sequence[Path]]) -> dict[str, list[str]]:
        """Each preset's figure files, drawn from exactly these parts' files (drawn now where they were
        not yet, or were drawn from fewer parts)."""
        for name, paths in parts.items():
            self.submit(name, paths)
        return {name: self._drawing[name][1].result() for name in parts}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def draw_preset(name: str, paths: Sequence[Path], folder: Path) -> list[str]:
    """One preset's figures from its parts' files (joined on replication): the files written."""
    import xarray as xr

    from sweep.analysis.figures import write_figures
    from sweep.reproduce.rounds import combine

    dataset = combine([xr.load_dataset(path) for path in paths])
    return [path.name for path in write_figures(dataset, name, folder, suffixes=(".png",))]
