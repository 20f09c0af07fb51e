"""sweep: parallel parameter sweeps for parallel-job scheduling research.

``sweep.run(overrides)`` does what the command line does and returns the
results as an ``xarray.Dataset`` (docs/design.md §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xarray

from sweep._version import __version__


def run(overrides: Sequence[str] = (), verbose: bool = False) -> xarray.Dataset:
    """Run a sweep from command-line style overrides; return the Dataset it wrote.

    With ``plots=true`` (the default) the experiment's figures are drawn beside the result file,
    as on the command line. Quiet unless ``verbose``: then the progress bar (``progress=true``),
    a one-point sweep's table and the summary line are printed as on the command line.
    """
    from sweep.analysis.figures import write_figures
    from sweep.engine.runner import run as _run

    return _run(overrides, write_figures, verbose)


__all__ = ["__version__", "run"]
