"""sweep: parallel parameter sweeps for parallel-job scheduling research."""

__version__ = "0.1.0"
