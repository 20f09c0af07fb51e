"""SH00's figures (Schroeder & Harchol-Balter, task assignment), drawn from sweep Datasets.

One drawing function per kind of figure, registered for the experiments in
``conf/experiment/sh00_*.yaml`` (:func:`sweep.analysis.figures.figure`), so
``sweep experiment=sh00_fig2`` writes ``sh00_fig2.png``/``.pdf`` next to its
result file. Error bars are 90% Student-t intervals over replications; a red
cross marks a saturated point (a host's load ≥ 1: the value is a finite run's).

- Figures 2, 3, 4, 9, 11 and the extra ``sh00_all_policies``: mean slowdown
  (left) and variance of slowdown (right) against system load. Log scale: the
  policies' curves span two to four decades on the reconstructed workloads.
- Figures 5, 6, 10, 12: the fraction of the total load sent to host 1 (the
  short jobs' host) under SITA-U-opt and SITA-U-fair; Figures 6, 10, 12 add
  the rule of thumb ρ/2 (§4.4), and a right panel with the mean slowdown of the
  rule's policy against the optimum ("within 10%").
- Figures 7, 8 (Appendix A): mean slowdown by analysis (``model=analytic``).

The workloads are reconstructions where the paper's traces are private (C90,
J90: MODEL_NOTES §3); CTC is the public trace's 8-processor jobs.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from sweep.analysis._plot import curves, panels
from sweep.analysis.figures import figure

#: experiment -> (drawing kind, title)
EXPERIMENTS = {
    "sh00_fig2": ("slowdown", "Fig. 2: policies that balance load, 2 hosts, C90 (reconstructed)"),
    "sh00_fig3": ("slowdown", "Fig. 3: policies that balance load, 4 hosts, C90 (reconstructed)"),
    "sh00_fig4": ("slowdown", "Fig. 4: SITA-E vs SITA-U-opt vs SITA-U-fair, 2 hosts, C90 (reconstructed)"),
    "sh00_fig5": ("host1", "Fig. 5: fraction of the load on host 1, C90 (reconstructed)"),
    "sh00_fig6": ("host1", "Fig. 6: host 1's load fraction and the ρ/2 rule of thumb, C90 (reconstructed)"),
    "sh00_fig7": ("analytic", "Fig. 7: analysis, policies that balance load, 2 hosts, C90 (reconstructed)"),
    "sh00_fig8": ("analytic", "Fig. 8: analysis, SITA-E vs SITA-U-opt vs SITA-U-fair, C90 (reconstructed)"),
    "sh00_fig9": ("slowdown", "Fig. 9: all policies, 2 hosts, J90 (reconstructed)"),
    "sh00_fig10": ("host1", "Fig. 10: host 1's load fraction and the ρ/2 rule, J90 (reconstructed)"),
    "sh00_fig11": ("slowdown", "Fig. 11: all policies, 2 hosts, CTC SP2 8-processor jobs"),
    "sh00_fig12": ("host1", "Fig. 12: host 1's load fraction and the ρ/2 rule, CTC 8-processor jobs"),
    "sh00_all_policies": ("slowdown", "All nine policies (Round-Robin, Shortest-Queue added), 2 hosts, C90"),
}


def draw_slowdown(ds: xr.Dataset, title: str):
    """Mean (left) and variance (right) of slowdown against load, one curve per policy (Figs. 2–4, 9, 11)."""
    fig, (left, right) = panels(2, title)
    curves(left, ds["mean_slowdown"], "Mean slowdown", log=True, saturated=ds["saturated"])
    curves(right, ds["var_slowdown"], "Variance of slowdown", log=True, saturated=ds["saturated"])
    fig.tight_layout()
    return fig


def draw_analytic(ds: xr.Dataset, title: str):
    """Mean slowdown by analysis against load (Figs. 7, 8)."""
    fig, (ax,) = panels(1, title)
    curves(ax, ds["mean_slowdown"], "Mean slowdown (analysis)", log=True)
    fig.tight_layout()
    return fig


def draw_host1(ds: xr.Dataset, title: str):
    """Host 1's load fraction under SITA-U (Figs. 5, 6, 10, 12), with ρ/2 and SITA-E's 1/2.

    With ``sita_u_rule`` in the Dataset, a right panel shows the mean slowdown
    of every policy (the rule against the optimum, §4.4).
    """
    rule = "sita_u_rule" in ds["policy"].values
    fig, axes = panels(2 if rule else 1, title)
    curves(axes[0], ds["host_load_fraction"].sel(host=0, drop=True), "Fraction of the load on host 1",
           saturated=ds["saturated"])
    loads = np.asarray(ds["load"].values, dtype=float)
    axes[0].plot(loads, loads / 2, "k--", lw=1, label="ρ/2 (rule of thumb)")
    axes[0].axhline(0.5, color="grey", lw=1, ls=":", label="SITA-E (1/2)")
    axes[0].set_ylim(0, 0.6)
    axes[0].legend(fontsize=8)
    if rule:
        curves(axes[1], ds["mean_slowdown"], "Mean slowdown", log=True, saturated=ds["saturated"])
    fig.tight_layout()
    return fig


_DRAW = {"slowdown": draw_slowdown, "analytic": draw_analytic, "host1": draw_host1}


def _register(name: str, kind: str, title: str) -> None:
    def draw(ds: xr.Dataset) -> dict:
        return {name: _DRAW[kind](ds, title)}

    draw.__doc__ = f"{name}: {title}"
    figure(name)(draw)


for _name, (_kind, _title) in EXPERIMENTS.items():
    _register(_name, _kind, _title)
