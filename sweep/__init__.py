"""sweep: parallel parameter sweeps for parallel-job scheduling research.

``sweep.run(overrides)`` does what the command line does and returns the
results as an ``xarray.Dataset`` (docs/design.md §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xarray

__version__ = "0.1.0"


def run(overrides: Sequence[str] = ()) -> xarray.Dataset:
    """Run a sweep from command-line style overrides; return the Dataset it wrote."""
    from sweep.engine.runner import run as _run

    return _run(overrides)


__all__ = ["__version__", "run"]
