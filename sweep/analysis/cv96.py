"""CV96 (Chiang & Vernon 1996) Figures 5–11 from the cv96_* experiments.

Every figure of §4 plots mean response time ratios against load: Figures 5–9
each policy over EQS against offered load ``ρ = λW̄/P``; Figures 10–11 each
(policy, repartitioning overhead) over EQS without overhead against the
arrival rate in jobs/hour. One panel per value of any other grid axis
(``demand_scv``: C_W = 5 and 30 in Figures 5 and 8). Points marked
``saturated`` are left out of the curves. Workloads and their reconstructed
parameters: MODEL_NOTES §1, ``conf/workload/cv96_*.yaml``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from sweep.analysis.figures import figure

LABELS = {"eqs": "EQS", "eqs_pws": "EQS-PWS", "eqs_avg": "EQS-AVG", "fb_pws": "FB-PWS",
          "fb_asp": "FB-ASP", "eqs_periodic": "EQS, 500 s", "eqs_pws_periodic": "EQS-PWS, 500 s"}
MARKERS = "os^vD<>px"


def response_ratio(ds: xr.Dataset) -> xr.DataArray:
    """Mean response time over EQS's (without repartitioning overhead where that is an axis).

    Saturated points are NaN. The mean over replications is taken first (common random
    numbers make the ratio of means far less noisy than each mean).
    """
    response = ds["mean_response"].where(~ds["saturated"].astype(bool))
    if "replication" in response.dims:
        response = response.mean("replication")
    base = response.sel(policy="eqs")
    if "repartition_overhead" in response.dims:
        base = base.sel(repartition_overhead=0.0)
    out = response / base
    out.name = "response_ratio"
    out.attrs.update(units="1", long_name="mean response time over EQS's")
    return out


def _panels(ratio: xr.DataArray) -> list[tuple[str, xr.DataArray]]:
    other = [d for d in ratio.dims if d not in ("policy", "load", "repartition_overhead", "workload")]
    ratio = ratio.isel(workload=0, drop=True) if "workload" in ratio.dims else ratio
    if not other:
        return [("", ratio)]
    dim = other[0]
    return [(f"{dim} = {v}", ratio.sel({dim: v})) for v in ratio[dim].values]


def draw(ds: xr.Dataset, title: str, xlabel: str) -> dict:
    """One figure: the response-time ratio against load, one curve per policy (and overhead)."""
    import matplotlib.pyplot as plt

    panels = _panels(response_ratio(ds))
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for ax, (subtitle, ratio) in zip(axes[0], panels, strict=True):
        overheads = ratio["repartition_overhead"].values if "repartition_overhead" in ratio.dims else [None]
        k = 0
        for policy in ratio["policy"].values:
            for overhead in overheads:
                curve = ratio.sel(policy=policy)
                label = LABELS.get(str(policy), str(policy))
                if overhead is not None:
                    curve = curve.sel(repartition_overhead=overhead)
                    label += f", {overhead:g} s overhead"
                ax.plot(curve["load"].values, curve.values, marker=MARKERS[k % len(MARKERS)], ms=4,
                        label=label)
                k += 1
        ax.axhline(1.0, color="grey", lw=0.5)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("mean response time / EQS's")
        ax.set_title(subtitle, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return {ds.attrs.get("experiment", title.split(":")[0]).replace(" ", "_"): fig}


def _named(name: str, title: str, xlabel: str = "offered load ρ = λW/P"):
    def drawer(ds: xr.Dataset) -> dict:
        fig = draw(ds, title, xlabel)
        return {name: next(iter(fig.values()))}

    return drawer


_RHO, _RATE = "offered load ρ = λW/P", "arrival rate (jobs/hour)"
_TITLES = {
    "cv96_fig5": ("Fig. 5: FB-PWS vs EQS, Workload 2 of [23]", _RHO),
    "cv96_fig6a": ("Fig. 6(a): large jobs, moderate overhead, φ' = 0", _RHO),
    "cv96_fig6b": ("Fig. 6(b): large jobs, moderate overhead, φ' = 0.01", _RHO),
    "cv96_fig7a": ("Fig. 7(a): δ|w ~ U(100 w/W, 200 w/W)", _RHO),
    "cv96_fig7b": ("Fig. 7(b): δ ~ U(100, 200)", _RHO),
    "cv96_fig8": ("Fig. 8: EQS-PWS under Workload 2 of [23]", _RHO),
    "cv96_fig9a": ("Fig. 9(a): δ|w ~ Hyperexp2(100 w/W, 5)", _RHO),
    "cv96_fig9b": ("Fig. 9(b): δ ~ Hyperexp2(100, 5)", _RHO),
    "cv96_fig10a": ("Fig. 10(a): repartitioning overhead, Poisson arrivals", _RATE),
    "cv96_fig10b": ("Fig. 10(b): repartitioning overhead, interarrival CV 3", _RATE),
    "cv96_fig11": ("Fig. 11: W halved, 500 s periodic repartitioning", _RATE),
}
for _name, (_title, _xlabel) in _TITLES.items():
    figure(_name)(_named(_name, _title, _xlabel))


def summary_table(ds: xr.Dataset) -> str:
    """Markdown rows: policy (× overhead) × load with mean response, CI, ratio, utilisation, saturated."""
    ratio = response_ratio(ds)
    keys = [d for d in ds["mean_response"].dims if d not in ("replication", "workload")]
    flat = ds.isel(workload=0, drop=True) if "workload" in ds.dims else ds
    if "replication" in flat.dims:
        flat = flat.isel(replication=0, drop=True)
    ratio = ratio.isel(workload=0, drop=True) if "workload" in ratio.dims else ratio
    rows = ["| " + " | ".join(keys) + " | mean response (s) | ±90% CI | / EQS | utilisation | jobs | sat. |",
            "|" + "---|" * (len(keys) + 6)]
    for index in np.ndindex(*(flat.sizes[k] for k in keys)):
        sel = {k: flat[k].values[i] for k, i in zip(keys, index, strict=True)}
        point = flat.sel(sel)
        rows.append("| " + " | ".join(str(v) for v in sel.values())
                    + f" | {float(point['mean_response']):.1f} | {float(point['mean_response_hw90']):.1f}"
                    + f" | {float(ratio.sel(sel)):.3f} | {float(point['utilization']):.3f}"
                    + f" | {int(point['jobs'])} | {'yes' if bool(point['saturated']) else ''} |")
    return "\n".join(rows)
