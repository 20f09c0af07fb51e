"""Sobol' indices of slack backfilling's parameters, with intervals (``conf/experiment/tf99_sobol.yaml``).

TF99 (Talby & Feitelson 1999) has no such study: it varied SF (Table 2) and
reports α = 0.2 runs in words (§3.3); the ranges are sweep's reconstruction
(the preset's comment, docs/sensitivity.md). Two metrics: the yearly mean
wait, and the wait gap between the priority classes (low minus high, the
difference TF99 Table 3 is about). Each gets first- and total-order indices
of the Saltelli design, error bars the 95% bootstrap intervals
(:func:`sweep.analysis.sensitivity.sensitivity`); a third panel gives the
total-order indices of each month's mean wait.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from sweep.analysis.figures import figure
from sweep.analysis.sensitivity import sensitivity
from sweep.analysis.tf99 import PARAMETERS

#: The metrics drawn: (variable or derived name, axis label).
METRICS = (("mean_wait", "yearly mean wait"), ("wait_gap", "wait gap Lo-Pri − Hi-Pri (yearly)"))


def wait_gap(ds: xr.Dataset, prefix: str = "") -> xr.DataArray:
    """Mean wait of low-priority jobs minus that of high-priority jobs (s)."""
    gap = ds[f"{prefix}mean_wait_low"] - ds[f"{prefix}mean_wait_high"]
    return gap.assign_attrs(units="s", long_name="mean wait of low- minus high-priority jobs")


def indices(ds: xr.Dataset) -> dict[str, xr.Dataset]:
    """The Saltelli indices of each metric of :data:`METRICS` (and per month), other dims dropped."""
    with_gap = ds.assign(wait_gap=wait_gap(ds))
    out = {name: sensitivity(with_gap, variable=name).squeeze(drop=True) for name, _ in METRICS}
    if "monthly_mean_wait" in ds:
        out["monthly_mean_wait"] = sensitivity(ds, variable="monthly_mean_wait").squeeze(drop=True)
    return out


def _index_bars(ax: Axes, result: xr.Dataset, label: str) -> None:
    names = [str(p) for p in result["parameter"].values]
    x = np.arange(len(names))
    suffix = next(k.removeprefix("S1") for k in result.data_vars if k.startswith("S1_hw"))
    for k, (index, color) in enumerate((("S1", "tab:blue"), ("ST", "tab:cyan"))):
        ax.bar(x + (k - 0.5) * 0.4, result[index].values, 0.4, color=color,
               yerr=result[f"{index}{suffix}"].values, capsize=3,
               label={"S1": "first order S1", "ST": "total ST"}[index])
    ax.set_xticks(x, [_short(n) for n in names])
    ax.axhline(0, color="black", lw=0.6)
    ax.set_ylabel(f"Sobol index of {label}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)


def _short(name: str) -> str:
    return {"slack_factor": "SF", "awt": "AWT"}.get(name, name.replace("alpha_", "α_"))


def _monthly(ax: Axes, result: xr.Dataset) -> None:
    suffix = next(k.removeprefix("ST") for k in result.data_vars if k.startswith("ST_hw"))
    months = [str(m) for m in result["month"].values]
    width = 0.8 / result.sizes["parameter"]
    x = np.arange(len(months))
    for k, name in enumerate(result["parameter"].values):
        row = result.sel(parameter=name)
        ax.bar(x + (k - (result.sizes["parameter"] - 1) / 2) * width, row["ST"].values, width,
               yerr=row[f"ST{suffix}"].values, capsize=1.5, label=_short(str(name)))
    ax.set_xticks(x, months, rotation=45, fontsize=8)
    ax.set_ylabel("total index ST of the month's mean wait")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncols=6)


@figure("tf99_sobol")
def sobol_indices(ds: xr.Dataset) -> dict[str, Figure]:
    """S1 and ST of the yearly mean wait and of the priority wait gap, and ST per month."""
    results = indices(ds)
    monthly = "monthly_mean_wait" in results and "month" in results["monthly_mean_wait"].dims
    fig = Figure(figsize=(11, 8 if monthly else 4))
    grid = fig.add_gridspec(2 if monthly else 1, 2)
    for column, (name, label) in enumerate(METRICS):
        _index_bars(fig.add_subplot(grid[0, column]), results[name], label)
    if monthly:
        _monthly(fig.add_subplot(grid[1, :]), results["monthly_mean_wait"])
    design = results["mean_wait"].attrs
    samples = ds.sizes["sample"]
    ranges = ", ".join(f"{_short(k.rsplit('.', 1)[-1])} [{lo:g}, {hi:g}]"
                       for k, (lo, hi) in _ranges(ds).items())
    fig.suptitle(f"Saltelli indices of slack backfilling on KTH (SP2, 128 processors, every fifth job "
                 f"high priority): N = {_base(ds)} base samples, {samples} runs; error bars: "
                 f"{design['conf_level']:.0%} bootstrap intervals\n"
                 f"ranges (sweep's reconstruction, not TF99's): {ranges}", fontsize=9)
    fig.tight_layout()
    return {"tf99_sobol": fig}


def _base(ds: xr.Dataset) -> int:
    from sweep.engine.design import from_attrs

    return int((from_attrs(ds.attrs) or {}).get("samples", 0))


def _ranges(ds: xr.Dataset) -> dict[str, tuple[float, float]]:
    from sweep.engine.design import from_attrs

    design = from_attrs(ds.attrs) or {"params": {}}
    ordered = sorted(design["params"].items(),
                     key=lambda kv: PARAMETERS.index(kv[0].rsplit(".", 1)[-1])
                     if kv[0].rsplit(".", 1)[-1] in PARAMETERS else len(PARAMETERS))
    return {k: tuple(v) for k, v in ordered}
