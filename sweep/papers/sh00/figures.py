"""SH00's figures (Schroeder & Harchol-Balter, task assignment), drawn from sweep Datasets.

One drawing function per kind of figure, registered for the experiments in
``conf/experiment/sh00_*.yaml`` (:func:`sweep.analysis.figures.figure`), so
``sweep experiment=sh00_fig2`` writes ``sh00_fig2.png``/``.pdf`` next to its
result file, with linear axes as the paper's, and ``sh00_fig2_log.png``/``.pdf``
with a logarithmic slowdown axis (the curves span two to four decades on the
reconstructed workloads; on a log axis SH00's "slightly worse" looks like a
large gap, so the linear one is the figure). Error bars are 90% Student-t
intervals over replications, and every caption says so; a red cross marks a
saturated point (a host's load ≥ 1, or the in-system cap passed: the value is
a finite run's), drawn, never dropped.

- Figures 2, 3, 4, 9, 11 and the extra ``sh00_all_policies``: mean slowdown
  (left) and variance of slowdown (right) against system load.
- Figures 5, 6, 10, 12: the fraction of the total load sent to host 1 (the
  short jobs' host) under SITA-U-opt and SITA-U-fair; Figures 6, 10, 12 add
  the rule of thumb ρ/2 (§4.4), and a right panel with the mean slowdown of the
  rule's policy against the optimum ("within 10%").
- Figures 7, 8 (Appendix A): mean slowdown by analysis (``model=analytic``).
- ``sh00_cutoffs`` (§4.1, not a figure of the paper): host 1's load fraction
  and the mean slowdown of SITA-U-opt and SITA-U-fair on CTC with cutoffs
  fitted analytically or by simulation on the trace's first half, jobs drawn
  from the whole trace or from its second half.

The workloads are reconstructions where the paper's traces are private (C90,
J90: docs/model-notes.md §3); CTC is the public trace's 8-processor jobs.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from sweep.analysis.figures import figure
from sweep.analysis.plotting import POLICY_LABELS, curves, panels, squeeze_point

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
    "sh00_fig11": ("slowdown", "Fig. 11: all policies, 2 hosts, CTC SP2 8-processor jobs (≤ 12 h)"),
    "sh00_fig12": ("host1", "Fig. 12: host 1's load fraction and the ρ/2 rule, CTC 8-proc. jobs (≤ 12 h)"),
    "sh00_all_policies": ("slowdown", "All nine policies (Round-Robin, Shortest-Queue added), 2 hosts, C90"),
    "sh00_cutoffs": ("cutoffs", "§4.1: SITA-U cutoffs fitted on the first half of CTC, analytically or "
                                "by simulation"),
}
#: Labels of the ``sh00_cutoffs`` grid's values.
FIT_LABELS = {"analytic": "P-K fit", "simulation": "simulated fit"}
SIZES_LABELS = {"whole": "whole trace", "rest": "2nd half"}


def caption(fig, ds: xr.Dataset, level: float = 0.90) -> None:
    """The caption under ``fig``: what the error bars are and what a red cross means."""
    jobs = int(ds["jobs"].max()) if "jobs" in ds else 0
    if jobs == 0:
        text = ("Closed-form analysis (Pollaczek–Khinchine per host; M/G/h approximation for LWL): "
                "no error bars. Red ×: saturated (a host's load ≥ 1).")
    else:
        text = (f"Error bars: {level:.0%} Student-t confidence intervals over {ds.sizes['replication']} "
                f"replications of {jobs:,} measured jobs each. Red ×: saturated (a host's load ≥ 1, "
                "or the in-system cap passed): the value is a finite run's.")
    fig.text(0.5, -0.02, text, ha="center", va="top", fontsize=7, wrap=True)


def draw_slowdown(ds: xr.Dataset, title: str, *, log: bool = False):
    """Mean (left) and variance (right) of slowdown against load, one curve per policy (Figs. 2–4, 9, 11)."""
    fig, (left, right) = panels(2, title)
    curves(left, ds["mean_slowdown"], "Mean slowdown", log=log, saturated=ds["saturated"])
    curves(right, ds["var_slowdown"], "Variance of slowdown", log=log, saturated=ds["saturated"])
    fig.tight_layout()
    caption(fig, ds)
    return fig


def draw_analytic(ds: xr.Dataset, title: str, *, log: bool = False):
    """Mean slowdown by analysis against load (Figs. 7, 8)."""
    fig, (ax,) = panels(1, title)
    curves(ax, ds["mean_slowdown"], "Mean slowdown (analysis)", log=log, saturated=ds["saturated"])
    fig.tight_layout()
    caption(fig, ds)
    return fig


def draw_host1(ds: xr.Dataset, title: str, *, log: bool = False):
    """Host 1's load fraction under SITA-U (Figs. 5, 6, 10, 12), with ρ/2 and SITA-E's 1/2.

    With ``sita_u_rule`` in the Dataset, a right panel shows the mean slowdown
    of every policy (the rule against the optimum, §4.4); ``log`` is its axis.
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
        curves(axes[1], ds["mean_slowdown"], "Mean slowdown", log=log, saturated=ds["saturated"])
    fig.tight_layout()
    caption(fig, ds)
    return fig


def _by_fit(da: xr.DataArray) -> xr.DataArray:
    """``da`` with policy × cutoff_fit × sizes_from stacked into one labelled ``policy`` axis."""
    extra = [d for d in ("cutoff_fit", "sizes_from") if d in da.dims]
    if not extra:
        return da
    stacked = da.stack(curve=["policy", *extra])
    labels = []
    for values in stacked["curve"].values:
        policy, *rest = values
        names = dict(zip(extra, rest, strict=True))
        parts = [FIT_LABELS.get(str(names.get("cutoff_fit")), ""),
                 SIZES_LABELS.get(str(names.get("sizes_from")), "")]
        labels.append(", ".join([POLICY_LABELS.get(str(policy), str(policy)), *[p for p in parts if p]]))
    return stacked.drop_vars(["curve", "policy", *extra]).assign_coords(curve=labels).rename(curve="policy")


def draw_cutoffs(ds: xr.Dataset, title: str, *, log: bool = False):
    """§4.1: host 1's load fraction (left) and mean slowdown (right) for each way of fitting the cutoffs."""
    fig, axes = panels(2, title)
    saturated = _by_fit(ds["saturated"])
    curves(axes[0], _by_fit(ds["host_load_fraction"].sel(host=0, drop=True)),
           "Fraction of the load on host 1", saturated=saturated)
    curves(axes[1], _by_fit(ds["mean_slowdown"]), "Mean slowdown", log=log, saturated=saturated)
    fig.tight_layout()
    caption(fig, ds)
    return fig


_DRAW = {"slowdown": draw_slowdown, "analytic": draw_analytic, "host1": draw_host1, "cutoffs": draw_cutoffs}


def _has_slowdown_axis(kind: str, ds: xr.Dataset) -> bool:
    """Whether the figure has a slowdown axis, so is drawn twice: linear (the paper's) and log."""
    return kind != "host1" or "sita_u_rule" in ds["policy"].values


def _register(name: str, kind: str, title: str) -> None:
    def draw(ds: xr.Dataset) -> dict:
        figures = {name: _DRAW[kind](ds, title)}
        if _has_slowdown_axis(kind, ds):
            figures[f"{name}_log"] = _DRAW[kind](ds, f"{title} (log scale)", log=True)
        return figures

    draw.__doc__ = f"{name}: {title}"
    figure(name)(draw)


for _name, (_kind, _title) in EXPERIMENTS.items():
    _register(_name, _kind, _title)


@figure("sh00_saturation")
def draw_saturation(ds: xr.Dataset) -> dict:
    """Saturation load against C² of the sizes, one panel per host count, the bisection bracket as
    the error bar (``conf/experiment/sh00_saturation.yaml``)."""
    import matplotlib.pyplot as plt
    import yaml

    from sweep.workloads.distributions import BoundedPareto

    workload = yaml.safe_load(ds.attrs["config"])["workload"]
    scv = [BoundedPareto(workload["k"], workload["p"], float(a)).scv for a in ds["alpha"].values]
    found, low, high = (squeeze_point(ds[name], keep=("policy", "alpha", "hosts"))
                        for name in ("saturation_load", "saturation_low", "saturation_high"))
    hosts = ds["hosts"].values
    fig, axes = plt.subplots(1, len(hosts), figsize=(4.2 * len(hosts), 4), sharey=True, squeeze=False)
    for ax, h in zip(axes[0], hosts, strict=True):
        for n, policy in enumerate(ds["policy"].values):
            at = {"policy": policy, "hosts": h}
            y = found.sel(at).values
            err = np.vstack([y - low.sel(at).values, high.sel(at).values - y])
            ax.errorbar(scv, y, yerr=err, marker="os^vD<>px"[n % 9], capsize=2,
                        label=POLICY_LABELS.get(str(policy), str(policy)))
        ax.set_xscale("log")
        ax.set_xlabel("C² of the job sizes (Bounded Pareto)")
        ax.set_title(f"{h} hosts")
        ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    axes[0][0].set_ylabel("saturation load ρ (bisection bracket)")
    axes[0][-1].legend(fontsize=7, loc="lower left")
    fig.suptitle(f"Where each policy saturates: {int(ds.attrs['saturation_rounds'])} rounds of "
                 f"{ds.attrs.get('command_line', 'sweep')}", fontsize=8)
    return {"sh00_saturation": fig}


@figure("sh00_fairness")
def draw_fairness(ds: xr.Dataset) -> dict:
    """SH00 §4.1: mean slowdown of the short and the long jobs (split at each policy's cutoff, the
    largest size it sent to host 1) with 90% intervals; SITA-U-fair makes the two equal."""
    import matplotlib.pyplot as plt

    from sweep.analysis.compare import confidence_interval, size_class_means

    fig, ax = plt.subplots(figsize=(5.5, 4))
    width = 0.38
    for n, policy in enumerate(ds["policy"].values):
        point = ds.sel(policy=policy).isel(workload=0, load=0, drop=True)
        cutoff = float(point["size"].where(point["job_host"] == 0).max())
        means = confidence_interval(size_class_means(point, [cutoff]))
        ax.bar(np.arange(2) + (n - 0.5) * width, means.values, width, yerr=means["halfwidth"].values,
               capsize=3, label=POLICY_LABELS.get(str(policy), str(policy)))
    ax.set_xticks([0, 1], ["short jobs (host 1)", "long jobs"])
    ax.set_yscale("log")
    ax.set_ylabel("mean slowdown (90% Student-t CI over replications)")
    ax.set_title(f"SH00 §4.1: fairness at ρ = {float(ds['load'].values[0]):g}, 2 hosts, C90 (reconstructed)",
                 fontsize=9)
    ax.legend()
    return {"sh00_fairness": fig}
