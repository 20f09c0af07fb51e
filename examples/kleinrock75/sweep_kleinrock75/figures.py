"""Kleinrock (1975) §3.2 as a figure: the simulated M/M/1 mean response time beside the formula."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import xarray as xr

from sweep.analysis import confidence_interval
from sweep.analysis.figures import figure


def mm1_response(load: np.ndarray, mean_size: float = 1.0) -> np.ndarray:
    """Kleinrock (1975): T = (1/mu) / (1 - rho)."""
    return mean_size / (1.0 - load)


@figure("kleinrock75_mm1")
def mm1(ds: xr.Dataset) -> dict:
    """Mean response time against load: the replications' mean with its 90% interval, and the formula."""
    measured = confidence_interval(ds["mean_response"].squeeze(drop=True))
    load = ds["load"].values
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.errorbar(load, measured.values, yerr=[measured.values - measured["low"].values,
                                             measured["high"].values - measured.values],
                fmt="o", capsize=3, label="simulated, random assignment to 2 hosts (90% CI)")
    grid = np.linspace(0.0, load.max(), 100)
    ax.plot(grid, mm1_response(grid), "k--", label="M/M/1")
    ax.set(xlabel="offered load ρ", ylabel="mean response time (mean job sizes)")
    ax.legend(loc="upper left")
    return {"kleinrock75_mm1": fig}
