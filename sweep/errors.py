"""The errors the command lines turn into one line and an exit status (docs/design.md §8).

Defined here, below every other module, so that ``sweep`` and ``sweep --help``
can catch them without importing what raises them (Hydra's compose, the
families, Ray): a fast start.
"""


class ConfigError(ValueError):
    """A bad option: the message is one line naming the option and what is allowed (exit 2)."""


class TaskFailed(RuntimeError):
    """A task raised; the message names the point and the original error in one line (exit 1)."""


class PoolEmpty(RuntimeError):
    """Every actor is gone and no CPU came back in time (exit 1; finished points are kept)."""


class WriteFailed(RuntimeError):
    """A result file could not be written; the message says where the finished runs were saved (exit 1)."""
