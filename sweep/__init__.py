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
    """Run a sweep from command-line style overrides; return its Dataset.

    With ``output=PATH.nc`` among the overrides the Dataset is written there and, with
    ``plots=true`` (the default), the figures are drawn beside it, as on the command line.
    Without it nothing is left on disk: the sweep runs in a temporary folder (its checkpoint
    there too, so an interrupted call does not resume) that is removed before the Dataset, held
    in memory and never written, is returned.

    Parameters
    ----------
    overrides
        What ``sweep`` takes on the command line, one item per word: ``"policy=lwl"``,
        ``"grid.load=[0.5,0.8]"``, ``"experiment=sh00_fig2"``, ``"output=run.nc"``.
    verbose
        Print what the command line prints: the progress bar (``progress=true``), a one-point
        sweep's table or a grid's headline table, and the summary line. Quiet by default.

    Returns
    -------
    xarray.Dataset
        The results, labeled as the result file is (docs/design.md §5): one dimension per grid
        axis, then ``replication``.

    Raises
    ------
    sweep.errors.ConfigError
        A bad option (one line naming it and what is allowed), before anything runs.
    """
    import tempfile

    from sweep.analysis.figures import write_figures
    from sweep.engine.runner import run as _run

    overrides = list(overrides)
    if any(override.lstrip("+").startswith("output=") for override in overrides):
        return _run(overrides, write_figures, verbose)
    with tempfile.TemporaryDirectory(prefix="sweep-run-") as folder:
        return _run([*overrides, f"output={folder}/results.nc", "plots=false"], write_figures, verbose,
                    write=False)


__all__ = ["__version__", "run"]
