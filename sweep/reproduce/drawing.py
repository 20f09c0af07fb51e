"""The presets' figures for the report, drawn in several processes at once.

Drawing is the longest step of ``sweep-reproduce`` after the simulations (a
quick run under cProfile: ``write_figures`` 59 of its 298 s): each preset is drawn
from its parts' files in its own task of a process pool (``spawn``: the
driver holds Ray's threads, which a ``fork`` would copy half-alive).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Mapping, Sequence
from pathlib import Path


def draw_presets(parts: Mapping[str, Sequence[Path]], folder: Path, processes: int) -> dict[str, list[str]]:
    """Each preset's figures as PNG files in ``folder``, from its parts' files, in up to
    ``processes`` processes at once: the file names by preset."""
    processes = min(len(parts), processes)
    if processes <= 1:
        return {name: draw_preset(name, paths, folder) for name, paths in parts.items()}
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        drawn = {name: pool.submit(draw_preset, name, paths, folder) for name, paths in parts.items()}
        return {name: future.result() for name, future in drawn.items()}


def draw_preset(name: str, paths: Sequence[Path], folder: Path) -> list[str]:
    """One preset's figures from its parts' files (joined on replication): the files written."""
    import xarray as xr

    from sweep.analysis.figures import write_figures
    from sweep.reproduce.rounds import combine

    dataset = combine([xr.load_dataset(path) for path in paths])
    return [path.name for path in write_figures(dataset, name, folder, suffixes=(".png",))]
