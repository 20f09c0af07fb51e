"""CV96 (Chiang & Vernon 1996): Figures 5–11 from the cv96_* experiments, Figures 1–4 from the model.

Every figure of §4 plots mean response time ratios against load: Figures 5–9
each policy over EQS against offered load ``ρ = λW̄/P``; Figures 10–11 each
(policy, repartitioning overhead) over EQS without overhead against the
arrival rate in jobs/hour. One panel per value of any other grid axis
(``demand_scv``: C_W = 5 and 30 in Figures 5 and 8; ``workload``). The paper
draws no confidence intervals; here every point has one (:func:`ratio_interval`),
its level in the caption. Points flagged ``saturated`` are drawn as red crosses
at the ratio of their finite runs, never dropped; where EQS itself is flagged
the ratio has no base, and the load is marked by a red dotted line. Workloads
and their reconstructed parameters: ``reproduction/cv96.md``,
``conf/workload/cv96_*.yaml``.

Figures 1–4 of the paper are drawn from the functions the simulations use
(:func:`figure1` … :func:`figure4`, all four: :func:`model_figures`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr
from scipy import stats

from sweep.analysis.compare import confidence_interval, without_interval
from sweep.analysis.figures import figure
from sweep.stats.intervals import single_run_halfwidth

LABELS = {"eqs": "EQS", "eqs_pws": "EQS-PWS", "eqs_avg": "EQS-AVG", "fb_pws": "FB-PWS",
          "fb_asp": "FB-ASP", "eqs_periodic": "EQS, 500 s", "eqs_pws_periodic": "EQS-PWS, 500 s",
          "fb_pws_every_event": "FB-PWS, rescheduled at every event (not the paper's)"}
WORKLOADS = {"cv96_fig6a": "Figure 6(a) workload", "cv96_fig6b": "Figure 6(b) workload",
             "cv96_fig9a": "Figure 9(a) workload"}
MARKERS = "os^vD<>px"
LEVEL = 0.90
#: Level of the one-sided sign test that calls a point saturated or stable (:func:`saturation_test`).
SIGN_TEST_LEVEL = 0.05
SATURATED = ("flagged saturated: jobs in system grew across the batches or reached 2000, run stopped; "
             "× at the ratio of the finite run")
CAPTION = ("Mean response time over EQS's (without overhead in Figs. 10–11), one run per point to a ±5% "
           "half-width of the {level:.0%} CI or the job budget. Error bars: {level:.0%} CI of the ratio, "
           "from the two means' {level:.0%} CIs as if independent (wider than the truth under the common "
           "random numbers used). The paper draws no CIs.")


def response_ratio(ds: xr.Dataset) -> xr.DataArray:
    """Mean response time over EQS's (without repartitioning overhead where that is an axis).

    Saturated points (of the policy or of EQS) are NaN. The mean over replications is taken
    first (common random numbers make the ratio of means far less noisy than each mean).
    """
    ratio, _, saturated, base_saturated = ratio_interval(ds)
    out = ratio.where(~(saturated | base_saturated))
    out.name = "response_ratio"
    out.attrs.update(units="1", long_name="mean response time over EQS's")
    return out


def saturation_test(ds: xr.Dataset, slack: int = 0) -> tuple[xr.DataArray, xr.DataArray]:
    """Per point: saturated beyond doubt, and undecided.

    Of the ``n`` replications run at a point, ``k`` are flagged ``saturated``. The point is
    saturated when a one-sided sign test rejects "no more likely flagged than not"
    (P(K ≥ k | n, ½) ≤ :data:`SIGN_TEST_LEVEL`: 7 or 8 of 8); stable when none is flagged or the
    test rejects the converse (1 of 8); undecided between (2 to 6 of 8, or the one run flagged):
    a majority of a few replications flips with the seed. Replications that did not run at a point
    (NaN: a later round of ``sweep-reproduce`` extends only some points) are left out. With
    ``slack``, a call must also hold with ``slack`` more replications flagged the other way (1:
    whether a call is marginal, :attr:`sweep.reproduce.claims.Judgement.marginal`: of 8, 8
    saturated holds and 7 does not, 1 stable does not); a point none of whose runs is flagged
    stays stable (no flag to turn: the plain test's convention, on any number of runs).
    """
    flagged, ran = ds["saturated"].astype(bool), ds["mean_response"].notnull()
    if "replication" not in flagged.dims:
        flagged, ran = flagged.expand_dims("replication"), ran.expand_dims("replication")
    n, k = ran.sum("replication"), (flagged & ran).sum("replication")
    saturated = xr.apply_ufunc(stats.binom.sf, k - slack - 1, n, 0.5) <= SIGN_TEST_LEVEL
    stable = (k == 0) | (xr.apply_ufunc(stats.binom.cdf, k + slack, n, 0.5) <= SIGN_TEST_LEVEL)
    return saturated, ~(saturated | stable)


def replication_means(ds: xr.Dataset) -> tuple[xr.DataArray, xr.DataArray, xr.DataArray]:
    """Mean response, its 90% half-width and whether the point is not shown stable.

    One replication: its mean and its batch-means half-width (``mean_response_hw90``), and its
    flag. Several (independent runs, each with its own warm-up): the mean and Student-t half-width
    of the unflagged replications' means, so the interval covers the spread between runs, which
    one run's batch means do not (:func:`sweep.analysis.confidence_interval`); the point counts as
    saturated unless the sign test of :func:`saturation_test` calls it stable. Replications that
    did not run at a point are left out.
    """
    response, halfwidth = ds["mean_response"], ds["mean_response_hw90"]
    saturated, undecided = saturation_test(ds)
    if "replication" not in response.dims:
        return response, halfwidth, saturated | undecided
    ran = response.notnull()
    count = ran.sum("replication")
    if int(count.max()) <= 1:
        first = (lambda da: da.where(ran).max("replication")) if response.sizes["replication"] > 1 \
            else (lambda da: da.isel(replication=0, drop=True))
        return first(response), first(halfwidth), saturated | undecided
    estimate = confidence_interval(response.where(ran & ~ds["saturated"].astype(bool)), level=LEVEL)
    # a point only the first round reached: its own batch means
    estimate = single_run_halfwidth(estimate, response, halfwidth)
    return without_interval(estimate), without_interval(estimate["halfwidth"]), saturated | undecided


def ratio_interval(ds: xr.Dataset) -> tuple[xr.DataArray, xr.DataArray, xr.DataArray, xr.DataArray]:
    """The ratio to EQS, its 90% half-width, and whether the policy's and EQS's points are saturated.

    The half-width combines the two means' relative half-widths in quadrature
    (``mean_response_hw90``: the control-variate interval where the preset uses
    one), as if the two were independent: with common random numbers they are
    positively correlated, so the true interval of the ratio is narrower.
    EQS over itself (without overhead) is exactly 1, half-width 0.
    With replications, the means over them and their half-widths over √count.
    """
    response, halfwidth, saturated = replication_means(ds)
    base, base_hw, base_saturated = (x.sel(policy="eqs") for x in (response, halfwidth, saturated))
    if "repartition_overhead" in response.dims:
        base, base_hw, base_saturated = (x.sel(repartition_overhead=0.0)
                                         for x in (base, base_hw, base_saturated))
    ratio = response / base
    relative = np.sqrt((halfwidth / response) ** 2 + (base_hw / base) ** 2)
    is_base = ratio["policy"] == "eqs"  # EQS over itself: exactly 1
    if "repartition_overhead" in ratio.dims:
        is_base = is_base & (ratio["repartition_overhead"] == 0.0)
    base_saturated, _ = xr.broadcast(base_saturated, saturated)
    return ratio, (ratio * relative).where(~is_base, 0.0), saturated, base_saturated


def _panel_title(dim: str, value) -> str:
    if dim == "demand_scv":  # Figures 5 and 8: W ~ Hyperexp2(1000, C_W), C_W² = demand_scv
        return f"C_W = {np.sqrt(float(value)):g}"
    if dim == "workload":
        return WORKLOADS.get(str(value), str(value))
    return f"{dim} = {value}"


def _panels(da: xr.DataArray) -> list[tuple[str, dict]]:
    """(title, selection) per panel: one per value of the first axis besides policy, load, overhead."""
    other = [d for d in da.dims if d not in ("policy", "load", "repartition_overhead")
             and not (d == "workload" and da.sizes[d] == 1)]
    fixed = {"workload": 0} if "workload" in da.dims and "workload" not in other else {}
    if not other:
        return [("", fixed)]
    dim = other[0]
    return [(_panel_title(dim, v), {**fixed, dim: i}) for i, v in enumerate(da[dim].values)]


def draw(ds: xr.Dataset, title: str, xlabel: str) -> dict:
    """One figure: the ratio to EQS against load with 90% CI bars, one curve per policy (× overhead)."""
    import matplotlib.pyplot as plt
    from matplotlib.transforms import blended_transform_factory

    ratio, halfwidth, saturated, base_saturated = ratio_interval(ds)
    panels = _panels(ratio)
    fig, axes = plt.subplots(1, len(panels), figsize=(5.6 * len(panels), 4.6), squeeze=False)
    for ax, (subtitle, index) in zip(axes[0], panels, strict=True):
        r, h, sat, base_sat = (x.isel(index, drop=True)
                               for x in (ratio, halfwidth, saturated, base_saturated))
        overheads = r["repartition_overhead"].values if "repartition_overhead" in r.dims else [None]
        stable = r.where(~(sat | base_sat))
        top = float((stable + h.where(stable.notnull())).max()) * 1.08 if stable.notnull().any() else 2.0
        top = max(top, 1.1)
        k, flagged = 0, False
        for policy in r["policy"].values:
            for overhead in overheads:
                sel = {"policy": policy}
                if overhead is not None:
                    sel["repartition_overhead"] = overhead
                label = LABELS.get(str(policy), str(policy))
                if overhead is not None:
                    label += f", {overhead:g} s overhead"
                x = r["load"].values
                ok = ~(sat.sel(sel).values | base_sat.sel(sel).values)
                y = np.where(ok, r.sel(sel).values, np.nan)
                line = ax.errorbar(x, y, yerr=np.where(ok, h.sel(sel).values, np.nan),
                                   marker=MARKERS[k % len(MARKERS)], ms=4, capsize=2, label=label,
                                   ls="--" if str(policy).endswith("every_event") else "-")
                mark = sat.sel(sel).values & ~base_sat.sel(sel).values
                if mark.any():
                    ax.plot(x[mark], np.minimum(r.sel(sel).values[mark], top), "x", color="red", ms=9,
                            mew=2, ls="none", label=SATURATED if not flagged else None, zorder=5)
                    ax.plot(x[mark], np.minimum(r.sel(sel).values[mark], top), marker=line[0].get_marker(),
                            color=line[0].get_color(), ms=4, ls="none")
                    flagged = True
                k += 1
        base = base_sat.isel(policy=0)
        if "repartition_overhead" in base.dims:
            base = base.isel(repartition_overhead=0)
        for load in r["load"].values[base.values]:
            at = sat.sel(load=load)
            if "repartition_overhead" in at.dims:
                at = at.any("repartition_overhead")
            names = ", ".join(LABELS.get(str(p), str(p)).split(",")[0] for p in r["policy"].values[at.values])
            ax.axvline(load, color="red", ls=":", lw=1.5)
            ax.text(load, 0.98, f"flagged saturated: {names};\nno ratio to EQS here ", color="red",
                    fontsize=7, va="top", ha="right",
                    transform=blended_transform_factory(ax.transData, ax.transAxes))
        ax.axhline(1.0, color="grey", lw=0.5)
        ax.set_ylim(top=top)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("mean response time / EQS's")
        ax.set_title(subtitle, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6.5)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.text(0.01, 0.01, CAPTION.format(level=LEVEL), fontsize=7, wrap=True, va="bottom")
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
    "cv96_fig6a_cwn2": ("§4.1: Fig. 6(a) with C_W|n = 2 (no figure in the paper)", _RHO),
    "cv96_fig6b_cwn2": ("§4.1: Fig. 6(b) with C_W|n = 2 (no figure in the paper)", _RHO),
    "cv96_eqs_avg": ("§4.2: EQS-AVG, EQS-PWS and EQS (no figure in the paper)", _RHO),
}
for _name, (_title, _xlabel) in _TITLES.items():
    figure(_name)(_named(_name, _title, _xlabel))


def summary_table(ds: xr.Dataset) -> str:
    """Markdown rows per point: mean response, CI, ratio to EQS ± CI, utilisation, jobs, saturated."""
    ratio, halfwidth, _, _ = ratio_interval(ds)
    keys = [d for d in ds["mean_response"].dims if d not in ("replication",)
            and not (d == "workload" and ds.sizes[d] == 1)]
    flat = ds.isel(workload=0, drop=True) if "workload" in ds.dims and "workload" not in keys else ds
    if "replication" in flat.dims:
        flat = flat.isel(replication=0, drop=True)
    if "workload" in ratio.dims and "workload" not in keys:
        ratio, halfwidth = ratio.isel(workload=0, drop=True), halfwidth.isel(workload=0, drop=True)
    rows = ["| " + " | ".join(keys) + " | mean response (s) | ±90% CI | / EQS | ±90% | utilisation | jobs "
            "| sat. |", "|" + "---|" * (len(keys) + 7)]
    for index in np.ndindex(*(flat.sizes[k] for k in keys)):
        sel = {k: flat[k].values[i] for k, i in zip(keys, index, strict=True)}
        point = flat.sel(sel)
        rows.append("| " + " | ".join(str(v) for v in sel.values())
                    + f" | {float(point['mean_response']):.1f} | {float(point['mean_response_hw90']):.1f}"
                    + f" | {float(ratio.sel(sel)):.3f} | {float(halfwidth.sel(sel)):.3f}"
                    + f" | {float(point['utilization']):.3f}"
                    + f" | {int(point['jobs'])} | {'yes' if bool(point['saturated']) else ''} |")
    return "\n".join(rows)


# Figures 1–4: the model, from the functions the simulations use ----------------------------------

def partition_sizes(pws: float, others: np.ndarray, processors: int = 128) -> np.ndarray:
    """FB-PWS's configured size of an arrival with ``pws`` against ``S`` (``others``), ``N_j ≥ P`` (§2.1)."""
    from sweep.families.malleable.fb_pws import configured_size

    return np.array([configured_size(float(pws), float(s), float(processors), float(processors))
                     for s in np.asarray(others, dtype=np.float64)])


def figure1(processors: int = 128, pws_values: tuple[int, ...] = (1, 4, 16, 32, 64, 128)):
    """Figure 1: FB-PWS's configured partition size against ``S`` for several ``pws``, ``N_j ≥ P = 128``.

    The sizes are :func:`sweep.families.malleable.fb_pws.configured_size`, the
    simulations' rule, rounded to integers as they are (the paper's curves are
    the real-valued formula, drawn dashed). Which ``pws`` values the paper drew
    is not legible: these are a choice.
    """
    import matplotlib.pyplot as plt

    s = np.arange(0, 2 * processors + 1)
    fig, ax = plt.subplots(figsize=(5.6, 4.2))
    for pws in pws_values:
        line, = ax.step(s, partition_sizes(pws, s, processors), where="post", label=f"pws = {pws}")
        w = min(pws, processors)
        ax.plot(s, w / (s + w) * processors, ls="--", lw=0.8, color=line.get_color())
    ax.set_xlabel("S, the configured sizes of the jobs in the system")
    ax.set_ylabel("configured partition size")
    ax.set_title(f"Fig. 1: FB-PWS partition size vs S (N_j ≥ P = {processors})", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, title="solid: rounded, as simulated; dashed: the formula", title_fontsize=7)
    fig.tight_layout()
    return fig


def speedup_curves(model, n: np.ndarray, work: float = 1000.0) -> tuple[np.ndarray, int, float]:
    """``S(n)`` of one job of ``model`` (:mod:`sweep.workloads.speedup`), its pws on ``n.max()`` and ``M``."""
    cap = int(n.max())
    return (model.speedup(n, work), int(model.pws(np.array([work]), np.array([cap]))[0]),
            float(model.maximum(np.array([work]))[0]))


def figure2(processors: int = 128, deltas: tuple[float, ...] = (10, 50, 100, 200, 1000),
            beta_primes: tuple[float, ...] = (1e-5, 5e-5, 2e-4, 1e-3), phi_prime: float = 0.0):
    """Figure 2: eq. 5's speedup curves, (a) varying φ' with β' = 0 (eq. 8's δ, φ' = 1/(1 + δ)),
    (b) varying β' (``phi_prime`` fixed), each labelled with its pws and, where ``M ≤ P``, ``M``.

    From :class:`sweep.workloads.speedup.Eq8` / :class:`~sweep.workloads.speedup.Eq5` and
    their ``pws``; the parameter values of the paper's curves are not printed (a choice).
    """
    import matplotlib.pyplot as plt

    from sweep.workloads.speedup import Eq5, Eq8

    n = np.arange(1, processors + 1, dtype=np.float64)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for delta in deltas:
        s, pws, _ = speedup_curves(Eq8(delta=delta), n)
        a.plot(n, s, label=f"δ = {delta:g} (φ' = {1 / (1 + delta):.3g}): pws = {pws}")
        a.plot([pws], [s[pws - 1]], "k.", ms=5)
    a.set_title("(a) φ' = 1/(1 + δ), β' = 0 (eq. 8)", fontsize=9)
    for beta in beta_primes:
        s, pws, m = speedup_curves(Eq5(phi_prime=phi_prime, beta_prime=beta), n)
        label = f"β' = {beta:g}: pws = {pws}" + (f", M = {m:.0f}" if m <= processors else "")
        b.plot(n, s, label=label)
        b.plot([pws], [s[pws - 1]], "k.", ms=5)
    b.set_title(f"(b) φ' = {phi_prime:g}, varying β' (eq. 5)", fontsize=9)
    for ax in (a, b):
        ax.plot(n, n, color="grey", lw=0.5, ls=":")
        ax.set_xlabel("processors n")
        ax.set_ylabel("speedup S'(n)")
        ax.set_ylim(0, processors)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Fig. 2: curves of the modified speedup function (eq. 5); dots at pws", fontsize=10)
    fig.tight_layout()
    return fig


def max_speedup_parallelism(jobs: int = 100_000, processors: int = 100, seed: int = 1996) -> np.ndarray:
    """Figure 3(a): ``N_j = M_j`` of the Figure 5 workload (eq. 2 parameters of Workload 2), ``P = 100``.

    Drawn by :func:`sweep.families.malleable.make_jobs` from
    ``conf/workload/cv96_fig5.yaml`` (C_W = 5), as the simulations draw it.
    """
    from sweep.config.compose import load_option
    from sweep.families.malleable import make_jobs

    cfg = load_option("workload", "cv96_fig5")
    return make_jobs(cfg, processors, 0.5, jobs, np.random.default_rng(seed)).parallelism


def figure3(jobs: int = 100_000, processors: int = 100):
    """Figure 3(a): the distribution of ``N_j = M_j`` (P = 100) of the Figure 5 workload.

    Figure 3(b) (eq. 5) is not drawn: eq. 6's ``M'`` does not depend on ``W``, and
    the paper does not print the distribution of φ' and β' it used.
    """
    import matplotlib.pyplot as plt

    n = max_speedup_parallelism(jobs, processors)
    values, counts = np.unique(n, return_counts=True)
    fig, ax = plt.subplots(figsize=(5.6, 4.2))
    ax.bar(values, counts / n.size, width=0.9)
    ax.set_xlabel("N_j = M_j")
    ax.set_ylabel("fraction of jobs")
    ax.set_title(f"Fig. 3(a): N_j = M_j, eq. 2 (Workload 2 of [23]), P = {processors}\n"
                 f"{(n < 10).mean():.1%} below 10, {(n > 50).mean():.2%} above 50", fontsize=9)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def figure4():
    """Figure 4: the bounded-geometric Distributions 1–4 of job parallelism (RECONSTRUCTED parameters)."""
    import matplotlib.pyplot as plt

    from sweep.families.malleable import PARALLELISM

    fig, ax = plt.subplots(figsize=(5.6, 4.2))
    width = 0.2
    for k, (name, dist) in enumerate(sorted(PARALLELISM.items())):
        x = np.arange(dist.values.size)
        ax.bar(x + (k - 1.5) * width, dist.pmf, width=width,
               label=f"Distribution {name[-1]} (E[N] = {dist.mean:.1f})")
        ax.set_xticks(x, [str(v) for v in dist.values])
    ax.set_xlabel("job parallelism N_j")
    ax.set_ylabel("probability")
    ax.set_title("Fig. 4: bounded-geometric parallelism, N_max = 128 (reconstructed)", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def model_figures() -> dict:
    """Figures 1–4, by name (``cv96_fig1`` … ``cv96_fig4``)."""
    return {"cv96_fig1": figure1(), "cv96_fig2": figure2(), "cv96_fig3": figure3(), "cv96_fig4": figure4()}


def save_model_figures(folder: str | Path) -> list[Path]:
    """Write Figures 1–4 as PNG into ``folder`` (``reproduction/figures/cv96``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    written = []
    for name, fig in model_figures().items():
        path = folder / f"{name}.png"
        fig.savefig(path, dpi=150, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    return written
