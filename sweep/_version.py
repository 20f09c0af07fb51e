"""sweep's version (the package metadata's, in pyproject.toml): one place, below every other module."""

__version__ = "0.1.0"
