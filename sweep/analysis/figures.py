"""Paper figures drawn from a sweep's Dataset, keyed by experiment name.

A paper's package (``sweep/papers/sh00/figures.py``, ...; :mod:`sweep.papers`)
registers one drawing function per experiment with :func:`figure`; the command
line writes the figures of the experiment it ran next to the result file
(``plots=true``, the default), as PNG and PDF, and an animated figure as a GIF.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

import xarray as xr

from sweep.config.files import paper_modules

#: Frames per second of an animated figure's GIF.
ANIMATION_FPS = 8

#: experiment name -> function(Dataset) -> {figure name: matplotlib Figure or Animation}
FIGURES: dict[str, Callable[[xr.Dataset], dict]] = {}


def figure(*experiments: str) -> Callable[[Callable[[xr.Dataset], dict]], Callable[[xr.Dataset], dict]]:
    """Register ``draw(ds) -> {name: Figure}`` for the named experiments; a name taken twice raises."""

    def register(draw: Callable[[xr.Dataset], dict]) -> Callable[[xr.Dataset], dict]:
        for experiment in experiments:
            if experiment in FIGURES:
                raise ValueError(f"experiment {experiment!r} already has a figure")
            FIGURES[experiment] = draw
        return draw

    return register


def _load_studies() -> None:
    """Import every paper's modules (:func:`sweep.config.files.paper_modules`): their figures register."""
    for module in paper_modules():
        importlib.import_module(module)


def _paper_figures(draw: Callable[[xr.Dataset], dict], dataset: xr.Dataset, experiment: str | None,
                   may_fall_back: bool) -> dict | None:
    """The paper figures of ``experiment``, or None where they cannot be drawn from this Dataset and
    ``may_fall_back``: a preset run with its grid changed (a policy, a load or a dimension the figure
    reads left out), said in one line on stderr. ``sweep-reproduce`` runs the presets as they are and
    does not fall back: there a drawing error is a bug."""
    try:
        return draw(dataset)
    except (KeyError, IndexError, ValueError) as error:
        if not may_fall_back:
            raise
        reason = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"sweep: the figure of experiment {experiment!r} needs what this sweep's grid left out "
              f"({type(error).__name__}: {reason}); drawing the default figure instead", file=sys.stderr)
        return None


def write_figures(dataset: xr.Dataset, experiment: str | None, folder: Path, stem: str | None = None,
                  suffixes: tuple[str, ...] = (".png", ".pdf")) -> list[Path]:
    """Draw the experiment's figures and save each in ``folder`` in every format of ``suffixes``
    (PNG and PDF unless told); an animated one (a matplotlib ``Animation``) as ``<name>.gif``.
    An experiment without a paper figure, given ``stem`` (the result file's name without
    ``.nc``), gets the default figure instead, ``<stem>.png`` (:mod:`sweep.analysis.overview`);
    so does, given ``stem``, a paper experiment whose figure cannot be drawn from ``dataset`` (its grid
    changed on the command line: :func:`_paper_figures`); [] when there is neither."""
    _load_studies()
    draw = FIGURES.get(experiment or "")
    if draw is None and stem is None:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.animation import Animation, PillowWriter

    figures = None if draw is None else _paper_figures(draw, dataset, experiment, stem is not None)
    if figures is None:
        from sweep.analysis.overview import overview_figure

        default = overview_figure(dataset)
        figures, suffixes = ({stem: default} if default is not None else {}), (".png",)
    written = []
    for name, fig in figures.items():
        if isinstance(fig, Animation):  # an animated figure: one GIF, whatever the suffixes
            path = folder / f"{name}.gif"
            fig.save(path, writer=PillowWriter(fps=ANIMATION_FPS))
            written.append(path)
            plt.close(fig._fig)
            continue
        for suffix in suffixes:
            path = folder / f"{name}{suffix}"
            fig.savefig(path, dpi=150, bbox_inches="tight")
            written.append(path)
        plt.close(fig)
    return written
