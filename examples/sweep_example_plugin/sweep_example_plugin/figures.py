"""The Pollaczek-Khinchine formula as a figure: Random's and JIQ's mean response times beside it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import xarray as xr
import yaml

from sweep.analysis import confidence_interval
from sweep.analysis.figures import figure


def pollaczek_khinchine(load: np.ndarray, scv: float, mean_size: float = 1.0) -> np.ndarray:
    """The M/G/1 mean response time T = E[S] + rho E[S] (1 + C^2) / (2 (1 - rho))."""
    return mean_size + load * mean_size * (1.0 + scv) / (2.0 * (1.0 - load))


@figure("pollaczek30_lognormal")
def mg1(ds: xr.Dataset) -> dict:
    """Mean response time against load, each policy's replication mean with its 90% interval, and
    the formula Random's hosts follow."""
    fig, ax = plt.subplots(figsize=(5, 3.5))
    load = ds["load"].values
    for policy, marker in zip(ds["policy"].values, "os", strict=False):
        measured = confidence_interval(ds["mean_response"].sel(policy=policy).squeeze(drop=True))
        ax.errorbar(load, measured.values, yerr=[measured.values - measured["low"].values,
                                                 measured["high"].values - measured.values],
                    fmt=marker, capsize=3, label=f"{policy}, 2 hosts (90% CI)")
    grid = np.linspace(0.0, load.max(), 100)
    scv = float(yaml.safe_load(ds.attrs["config"])["workload"]["scv"])  # the run's own C^2
    ax.plot(grid, pollaczek_khinchine(grid, scv), "k--", label=f"M/G/1, lognormal C² = {scv:g}")
    ax.set(xlabel="offered load ρ", ylabel="mean response time (mean job sizes)")
    ax.legend(loc="upper left")
    return {"pollaczek30_lognormal": fig}
