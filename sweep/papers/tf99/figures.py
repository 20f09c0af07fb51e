"""TF99's tables as figures: Talby & Feitelson (1999), slack-based priority backfilling.

One drawing function per preset in ``conf/experiment/tf99_*.yaml``, registered
with :func:`~sweep.analysis.figures.figure`; each returns ``{name: Figure}``.
Measured values are solid bars, the paper's printed values (:data:`PAPER`)
hatched bars beside them. Monthly values are the ``monthly_*`` variables (each
calendar month simulated from an empty machine), yearly values total wait /
total jobs (TF99 §3.2). Our runs are on the archive's KTH
trace at 128 processors; the paper's September (85 jobs, 440.6 s) is not
reproducible from it (reproduction/tf99.md).

Tables 2, 4 and 5 are drawn as gains over conservative backfilling
(``1 − wait / conservative``), as the paper's text reasons ("19.25% average
improvement for SF=9", §3.2); the paper's gains are against its 2401.44 s.
The presets replay the log once, which has no confidence interval: with
``replications > 1`` and ``workload.submit_jitter > 0`` every bar gets a 95%
CI over the perturbed replays; otherwise the caption says so and points to
the noise floor (``tf99_noise``, :func:`noise`).
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sweep.analysis.figures import figure
from sweep.analysis.sensitivity import sensitivity
from sweep.config.design import from_attrs

#: Calendar months of TF99's Tables 1 and 3 (Sept 1996 - Aug 1997), as the ``month`` labels.
MONTHS = ("1996-09", "1996-10", "1996-11", "1996-12", "1997-01", "1997-02", "1997-03", "1997-04",
          "1997-05", "1997-06", "1997-07", "1997-08")

#: Average wait times (s) printed in TF99, by table. Monthly series follow :data:`MONTHS`;
#: ``yearly`` rows are the tables' "Average" rows (total wait / total jobs).
PAPER: dict[str, dict] = {
    # Table 1: conservative vs priority (slack) backfilling, equal priorities, SF 3, AST
    "table1": {
        "conservative": (440.6, 3062.7, 4887.0, 2157.2, 3302.3, 2624.3, 2644.8, 2220.3, 2093.6,
                         1443.2, 399.9, 1941.5),
        "slack": (440.6, 2504.3, 3774.6, 1904.2, 2531.9, 2373.9, 2196.9, 1905.2, 1779.2, 1282.0,
                  354.1, 1670.8),
        "yearly": {"conservative": 2401.44, "slack": 2004.46},
    },
    # Table 2: yearly average wait against the slack factor SF
    "table2": {1: 2156, 3: 2004, 5: 2027, 7: 1986, 9: 1939, 11: 1956},
    # Table 3: equal priorities vs every fifth job at UP = PP = 1 (all jobs, Hi-Pri, Lo-Pri)
    "table3": {
        "equal": (440.6, 2504.3, 3774.6, 1904.2, 2531.9, 2373.9, 2196.9, 1905.2, 1779.2, 1282.0,
                  354.1, 1670.8),
        "all": (440.6, 2783.7, 4797.7, 2026.0, 2777.4, 2728.7, 2220.9, 2056.2, 1889.3, 1374.7,
                372.6, 1847.1),
        "high": (0.0, 2295.6, 4460.2, 1814.8, 2603.8, 2369.2, 1687.2, 1797.4, 1491.9, 1323.3,
                 320.2, 1817.5),
        "low": (550.8, 2906.0, 1882.3, 2078.8, 2820.8, 2818.7, 2354.6, 2120.9, 1988.7, 1387.6,
                385.8, 1854.5),
        "yearly": {"equal": 2004.46, "all": 2226.17, "high": 1955.28, "low": 2294.0},
    },
    # Table 4: overall yearly average wait against the priority gap UP + PP of every fifth job
    "table4": {0.0: 2004.46, 0.5: 2020.40, 1.0: 2044.39, 1.5: 2017.82, 2.0: 2226.17},
    # Table 5: yearly averages of the five heuristics (rows Equal Pri, Unequal Pri, Hi-Pri, Lo-Pri)
    "table5": {
        "ast": {"equal": 2004.5, "all": 2226.2, "high": 1955.3, "low": 2294.0},
        "aat": {"equal": 2088.5, "all": 2223.3, "high": 1952.6, "low": 2291.1},
        "dc": {"equal": 2179.9, "all": 2250.1, "high": 1988.1, "low": 2315.7},
        "du": {"equal": 2206.0, "all": 2279.8, "high": 2048.9, "low": 2337.6},
        "dp": {"equal": 2120.0, "all": 2228.5, "high": 1962.3, "low": 2295.1},
    },
}

#: The parameters of the tf99_sensitivity preset (§2.2-2.3), in the order they are drawn.
PARAMETERS = ("slack_factor", "awt", "alpha_u", "alpha_t", "alpha_p", "alpha_f")

_COLORS = {"easy": "tab:gray", "conservative": "tab:blue", "slack": "tab:orange", "equal": "tab:orange",
           "all": "tab:red", "high": "tab:green", "low": "tab:purple"}
_LABELS = {"easy": "EASY", "conservative": "conservative", "slack": "slack (priority)",
           "equal": "equal priorities", "all": "unequal: all jobs", "high": "unequal: Hi-Pri",
           "low": "unequal: Lo-Pri"}


#: Confidence level of every error bar drawn here.
LEVEL = 0.95


def measured(ds: xr.Dataset, variable: str) -> xr.DataArray:
    """``ds[variable]`` averaged over replications, with every one-value dimension dropped."""
    da = ds[variable]
    if "replication" in da.dims:
        da = da.mean("replication")
    return da.squeeze(drop=True)


def half_width(da: xr.DataArray) -> xr.DataArray:
    """The 95% CI half-width of the mean over ``replication`` (Student t); 0 for one replay."""
    if "replication" not in da.dims or da.sizes["replication"] < 2:
        return xr.zeros_like(da.isel(replication=0, drop=True) if "replication" in da.dims else da)
    from scipy.stats import t

    n = da.sizes["replication"]
    return (da.std("replication", ddof=1) * t.ppf(0.5 + LEVEL / 2, n - 1) / np.sqrt(n)).squeeze(drop=True)


def gains(ds: xr.Dataset, variable: str = "mean_wait") -> xr.DataArray:
    """``1 − ds[variable] / conservative's mean wait``, per slack point and replication.

    ``ds`` has a ``policy`` axis with ``conservative`` and ``slack`` (the presets'
    grids); conservative ignores the slack options and priorities, so its first
    value of every other axis is its wait.
    """
    base = ds["mean_wait"].sel(policy="conservative")
    for dim in base.dims:
        if dim != "replication":
            base = base.isel({dim: 0}, drop=True)
    return 1 - ds[variable].sel(policy="slack") / base


def _ci_note(ds: xr.Dataset) -> str:
    """The caption's statement of the error bars."""
    n = ds.sizes.get("replication", 1)
    if n > 1:
        return (f"error bars: {LEVEL:.0%} CI over {n} replays of the log with submit times "
                "jittered (workload.submit_jitter)")
    return "one replay of the log: no CI; noise floor of the gain: preset tf99_noise"


def _paper_gain(wait: float) -> float:
    """A printed wait as a gain over the paper's conservative yearly 2401.44 s."""
    return 1 - wait / PAPER["table1"]["yearly"]["conservative"]


def _paper_months(series: tuple[float, ...], months: np.ndarray) -> np.ndarray:
    """The paper's monthly values at the measured month labels (NaN for a month it does not print)."""
    by_month = dict(zip(MONTHS, series, strict=True))
    return np.array([by_month.get(str(m), np.nan) for m in months])


def _bars(ax: Axes, groups: list[str], series: list[tuple], ylabel: str = "average wait (s)") -> None:
    """Grouped bars: one group per label in ``groups``; series are
    (label, values, color, paper?) or (label, values, color, paper?, CI half-widths)."""
    width = 0.8 / len(series)
    x = np.arange(len(groups))
    for k, (label, values, color, paper, *err) in enumerate(series):
        yerr = err[0] if err and np.any(np.asarray(err[0]) > 0) else None
        ax.bar(x + (k - (len(series) - 1) / 2) * width, values, width, label=label, color=color,
               alpha=0.45 if paper else 1.0, hatch="//" if paper else None, edgecolor=color,
               yerr=yerr, capsize=3 if yerr is not None else 0)
    ax.set_xticks(x, groups)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def _percent(ax: Axes) -> None:
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def _columns(equal: xr.Dataset, unequal: xr.Dataset, prefix: str = "") -> dict[str, np.ndarray]:
    """Table 3's columns (equal, all, high, low) from the ``priority_every`` 0 and 5 slices."""
    return {"equal": measured(equal, f"{prefix}mean_wait").values,
            "all": measured(unequal, f"{prefix}mean_wait").values,
            "high": measured(unequal, f"{prefix}mean_wait_high").values,
            "low": measured(unequal, f"{prefix}mean_wait_low").values}


def _priority_slices(ds: xr.Dataset) -> tuple[xr.Dataset, xr.Dataset]:
    """The equal-priority run (``priority_every`` 0) and the differential one (the largest)."""
    every = ds["priority_every"].values
    return ds.sel(priority_every=0), ds.sel(priority_every=every.max())


@figure("tf99_table1")
def table1(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 Table 1: conservative vs slack backfilling (and EASY) by month and for the year."""
    monthly, yearly = measured(ds, "monthly_mean_wait"), measured(ds, "mean_wait")
    months = monthly["month"].values
    policies = [str(p) for p in monthly["policy"].values]
    fig = Figure(figsize=(13, 8))
    (ax_m, ax_y), (ax_g, ax_gy) = fig.subplots(2, 2, gridspec_kw={"width_ratios": [4, 1]})
    printed = [p for p in ("conservative", "slack") if p in policies]
    _bars(ax_m, [str(m) for m in months],
          [(f"{_LABELS[p]}, measured", monthly.sel(policy=p).values, _COLORS[p], False) for p in policies]
          + [(f"{_LABELS[p]}, paper", _paper_months(PAPER["table1"][p], months), _COLORS[p], True)
             for p in printed])
    ax_m.tick_params(axis="x", labelrotation=45)
    ax_m.set_title("by month (each month from an empty machine)")
    ax_m.legend(fontsize=8, ncol=2)
    _bars(ax_y, ["year"],
          [("", np.array([yearly.sel(policy=p).item()]), _COLORS[p], False) for p in policies]
          + [("", np.array([PAPER["table1"]["yearly"][p]]), _COLORS[p], True) for p in printed])
    title = "yearly: total wait / total jobs"
    if {"conservative", "slack"} <= set(policies):
        gain = 1 - yearly.sel(policy="slack").item() / yearly.sel(policy="conservative").item()
        paper = 1 - PAPER["table1"]["yearly"]["slack"] / PAPER["table1"]["yearly"]["conservative"]
        title += f"\nslack vs conservative: -{gain:.1%} (paper -{paper:.1%})"
        by_month = 1 - monthly.sel(policy="slack").values / monthly.sel(policy="conservative").values
        paper_months = 1 - (_paper_months(PAPER["table1"]["slack"], months)
                            / _paper_months(PAPER["table1"]["conservative"], months))
        _bars(ax_g, [str(m) for m in months],
              [("slack's gain over conservative, measured", by_month, _COLORS["slack"], False),
               ("paper", paper_months, _COLORS["slack"], True)], "gain over conservative")
        ax_g.tick_params(axis="x", labelrotation=45)
        ax_g.legend(fontsize=8)
        ax_g.axhline(0, color="black", lw=0.8)
        _percent(ax_g)
        _bars(ax_gy, ["year"], [("", np.array([gain]), _COLORS["slack"], False),
                                ("", np.array([paper]), _COLORS["slack"], True)], "gain over conservative")
        _percent(ax_gy)
    else:
        ax_g.set_visible(False)
        ax_gy.set_visible(False)
    ax_y.set_title(title, fontsize=9)
    fig.suptitle("TF99 Table 1: KTH SP2, 128 processors, slack SF = 3, AWT = 2401 s, AST, α = 1\n"
                 + _ci_note(ds), fontsize=10)
    fig.tight_layout()
    return {"tf99_table1": fig}


@figure("tf99_table2")
def table2(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 Table 2: yearly average wait against the slack factor SF."""
    gain = gains(ds)
    factors = gain["slack_factor"].values
    paper = np.array([_paper_gain(PAPER["table2"].get(float(f), np.nan)) for f in factors])
    return {"tf99_table2": _gain_figure(
        [f"{f:g}" for f in factors], _beside_paper(gain, paper, _COLORS["slack"]), "slack factor SF",
        {"loc": "lower right"},
        "TF99 Table 2: slack backfilling's gain over conservative vs SF\n"
        "(KTH SP2, 128 processors, AWT = 2401 s, AST, α = 1)\n" + _ci_note(ds))}


def _beside_paper(gain: xr.DataArray, paper: np.ndarray, color: str) -> list:
    """The two series of :func:`_bars` for one row: the measured gains with their 90% half-widths,
    and the paper's printed ones, hatched."""
    values = measured(gain.to_dataset(name="g"), "g").values
    return [("measured", values, color, False, half_width(gain).values), ("paper", paper, color, True)]


def _gain_figure(labels: list[str], series: list, xlabel: str, legend: dict, title: str) -> Figure:
    """One panel of gains over conservative backfilling, measured and printed bars per label (Tables
    2 and 4)."""
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    _bars(ax, labels, series, "gain over conservative")
    _percent(ax)
    ax.set_xlabel(xlabel)
    ax.legend(**legend)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


@figure("tf99_table3")
def table3(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 Table 3: equal vs differential priorities (every fifth job UP = PP = 1), by month."""
    if "policy" in ds.dims and ds.sizes["policy"] > 1:
        ds = ds.sel(policy="slack")
    equal, unequal = _priority_slices(ds)
    monthly, yearly = _columns(equal, unequal, "monthly_"), _columns(equal, unequal)
    months = ds["month"].values
    fig = Figure(figsize=(13, 9))
    ax_a, ax_b, ax_y = fig.subplots(3, 1, gridspec_kw={"height_ratios": [3, 3, 2]})
    for ax, columns in ((ax_a, ("equal", "all")), (ax_b, ("high", "low"))):
        series = [(f"{_LABELS[c]}, measured", monthly[c], _COLORS[c], False) for c in columns]
        series += [(f"{_LABELS[c]}, paper", _paper_months(PAPER["table3"][c], months), _COLORS[c], True)
                   for c in columns]
        _bars(ax, [str(m) for m in months], series)
        ax.legend(fontsize=8, ncol=2)
    columns = ("equal", "all", "high", "low")
    _bars(ax_y, [_LABELS[c] for c in columns],
          [("measured", np.array([float(yearly[c]) for c in columns]), "tab:orange", False),
           ("paper", np.array([PAPER["table3"]["yearly"][c] for c in columns]), "tab:orange", True)])
    ax_y.set_title("yearly: total wait / total jobs", fontsize=9)
    ax_y.legend(fontsize=8)
    fig.suptitle("TF99 Table 3: equal priorities vs every fifth job at UP = PP = 1 "
                 "(slack SF = 3, AST, α = 1; KTH SP2, 128 processors)\n" + _ci_note(ds), fontsize=10)
    fig.tight_layout()
    return {"tf99_table3": fig}


@figure("tf99_table4")
def table4(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 Table 4: overall yearly average wait against the priority gap UP + PP."""
    gaps = ds["priority_gap"].values
    paper = np.array([_paper_gain(PAPER["table4"].get(float(g), np.nan)) for g in gaps])
    series = []
    for variable, row, label in (("mean_wait", "all", "all jobs"), ("mean_wait_high", "high", "Hi-Pri"),
                                 ("mean_wait_low", "low", "Lo-Pri")):
        gain = gains(ds, variable)
        series.append((f"{label}, measured", measured(gain.to_dataset(name="g"), "g").values,
                       _COLORS[row], False, half_width(gain).values))
        if row == "all":
            series.append(("all jobs, paper", paper, _COLORS["all"], True))
    return {"tf99_table4": _gain_figure(
        [f"{g:g}" for g in gaps], series, "priority gap UP + PP of every fifth job (0: equal priorities)",
        {"fontsize": 8, "loc": "lower center", "ncol": 2},
        "TF99 Table 4: gain over conservative vs the priority gap (slack SF = 3, AST, α = 1;\n"
        "the paper prints the all-jobs row only)\n" + _ci_note(ds))}


@figure("tf99_table5")
def table5(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 Table 5: the five complexity-reduction heuristics (§2.4), four rows."""
    heuristics = [str(h) for h in ds["heuristic"].values]
    equal, unequal = _priority_slices(ds)
    rows = {"equal": gains(equal), "all": gains(unequal), "high": gains(unequal, "mean_wait_high"),
            "low": gains(unequal, "mean_wait_low")}
    fig = Figure(figsize=(11, 7.5))
    for ax, (row, gain) in zip(fig.subplots(2, 2, sharey=True).flat, rows.items(), strict=True):
        paper = np.array([_paper_gain(PAPER["table5"][h][row]) for h in heuristics])
        _bars(ax, [h.upper() for h in heuristics], _beside_paper(gain, paper, _COLORS[row]),
              "gain over conservative")
        _percent(ax)
        ax.set_title(_LABELS[row], fontsize=10)
        ax.legend(fontsize=8, loc="lower right")
    fig.suptitle("TF99 Table 5: gain over conservative of the heuristics AST, AAT, DC, DU, DP "
                 "(SF = 3, α = 1; KTH SP2, 128 processors)\n" + _ci_note(ds), fontsize=10)
    fig.tight_layout()
    return {"tf99_table5": fig}


@figure("tf99_sensitivity")
def sensitivity_indices(ds: xr.Dataset) -> dict[str, Figure]:
    """Sobol indices of the yearly mean wait to SF, AWT and the α weights (§2.2-2.3).

    The paper has no such study; it varied SF (Table 2) and reports α = 0.2 runs in words (§3.3).
    """
    dims = [d for d in PARAMETERS if d in ds.dims and ds.sizes[d] > 1]
    result = sensitivity(ds, dims)
    indices = measured(result, "S1"), measured(result, "ST")
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    x = np.arange(len(dims))
    for k, (name, values) in enumerate(zip(("first order S1", "total ST"), indices, strict=True)):
        ax.bar(x + (k - 0.5) * 0.4, values, 0.4, label=name, color=("tab:blue", "tab:cyan")[k])
    ax.set_xticks(x, dims)
    ax.set_ylabel("Sobol index of mean wait")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    levels = " × ".join(str(ds.sizes[d]) for d in dims)
    ax.set_title(f"Sensitivity of slack backfilling's yearly mean wait ({levels} grid)\n"
                 "KTH SP2, 128 processors, every fifth job UP = PP = 1", fontsize=10)
    fig.tight_layout()
    return {"tf99_sensitivity": fig}


@figure("tf99_noise")
def noise(ds: xr.Dataset) -> dict[str, Figure]:
    """The noise floor (``conf/experiment/tf99_noise.yaml``): each replication's yearly
    results on a trace with submit times jittered, and their mean with its 95% CI."""
    equal, unequal = _priority_slices(ds)
    series = {"conservative": equal["mean_wait"].sel(policy="conservative"),
              "slack, equal": equal["mean_wait"].sel(policy="slack"),
              "slack, unequal": unequal["mean_wait"].sel(policy="slack")}
    differences = {"slack's gain over conservative": gains(equal),
                   "cost of priorities (unequal / equal − 1)":
                       unequal["mean_wait"].sel(policy="slack") / equal["mean_wait"].sel(policy="slack") - 1}
    fig = Figure(figsize=(11, 4.5))
    ax_w, ax_d = fig.subplots(1, 2)
    for ax, values, percent in ((ax_w, series, False), (ax_d, differences, True)):
        for k, da in enumerate(values.values()):
            points = da.squeeze(drop=True).values.ravel()
            ax.plot(np.full(points.size, k), points, "o", color="tab:gray", alpha=0.6, ms=4)
            ax.errorbar(k + 0.15, points.mean(), yerr=float(half_width(da.squeeze(drop=True))), fmt="s",
                        color="black", capsize=4)
        ax.set_xticks(range(len(values)), list(values), fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        if percent:
            _percent(ax)
    ax_w.set_ylabel("yearly average wait (s)")
    ax_d.set_ylabel("difference")
    fig.suptitle(f"Noise floor of the TF99 tables: {ds.sizes.get('replication', 1)} replays of KTH with "
                 f"submit times jittered (workload.submit_jitter; grey: each replay; black: mean and "
                 f"{LEVEL:.0%} CI)", fontsize=10)
    fig.tight_layout()
    return {"tf99_noise": fig}


@figure("tf99_readings")
def readings(ds: xr.Dataset) -> dict[str, Figure]:
    """The readings of §2 (``conf/experiment/tf99_readings.yaml``): for each, the yearly wait at
    the paper's AWT and at AWT = 1 s (which §3.2 says collapses to conservative), with equal
    priorities, and the cost of priorities (Table 3: +11.1% in the paper)."""
    wait = measured(ds, "mean_wait")
    combos = [(c, m, r) for c in wait["completion"].values for m in wait["move_up"].values
              for r in wait["moved_up_slack"].values]
    labels = [f"{c}\n{m}\n{r}" for c, m, r in combos]

    def pick(awt: float, every: int) -> np.ndarray:
        return np.array([float(wait.sel(completion=c, move_up=m, moved_up_slack=r, awt=awt,
                                        priority_every=every)) for c, m, r in combos])

    awt = float(wait["awt"].max())
    equal, tiny = pick(awt, 0), pick(float(wait["awt"].min()), 0)
    cost = pick(awt, int(wait["priority_every"].max())) / equal - 1
    fig = Figure(figsize=(12, 7))
    ax_w, ax_c = fig.subplots(2, 1, sharex=True)
    _bars(ax_w, labels, [(f"AWT = {awt:g} s", equal, _COLORS["slack"], False),
                         (f"AWT = {float(wait['awt'].min()):g} s", tiny, "tab:gray", False)],
          "yearly average wait (s)")
    ax_w.legend(fontsize=8)
    ax_w.set_title("equal priorities (Table 1); conservative's wait is the collapse target", fontsize=9)
    _bars(ax_c, labels, [("measured", cost, _COLORS["all"], False),
                         ("paper", np.full(len(combos), 0.111), _COLORS["all"], True)],
          "cost of priorities")
    _percent(ax_c)
    ax_c.legend(fontsize=8)
    ax_c.set_title("every fifth job at UP = PP = 1: unequal / equal − 1 (Table 3)", fontsize=9)
    ax_c.set_xlabel("completion / move_up / moved_up_slack")
    fig.suptitle("TF99 §2 readings (slack SF = 3, AST, α = 1; KTH SP2, 128 processors)\n"
                 + _ci_note(ds), fontsize=10)
    fig.tight_layout()
    return {"tf99_readings": fig}


def _yearly_bars(ds: xr.Dataset, dims: tuple[str, ...], rows: tuple[str, ...], title: str) -> Figure:
    """Yearly waits (``rows``: all, high, low) of every combination of ``dims`` as grouped bars."""
    points = ds.stack(_point=list(dims))
    labels = [" / ".join(f"{points[d].values[i]:g}" if np.issubdtype(points[d].dtype, np.number)
                         else str(points[d].values[i]) for d in dims) for i in range(points.sizes["_point"])]
    variables = {"all": "mean_wait", "high": "mean_wait_high", "low": "mean_wait_low"}
    names = {"all": "all jobs", "high": "Hi-Pri", "low": "Lo-Pri"}
    series = [(names[row], measured(points, variables[row]).values, _COLORS[row], False) for row in rows]
    fig = Figure(figsize=(max(7.0, 0.35 * len(labels)), 5.0))
    ax = fig.subplots()
    _bars(ax, labels, series, "yearly average wait (s)")
    ax.tick_params(axis="x", labelsize=7, labelrotation=90)
    ax.set_xlabel(" / ".join(dims))
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title + "\n" + _ci_note(ds), fontsize=9)
    fig.tight_layout()
    return fig


@figure("tf99_awt")
def awt_estimates(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 §3.2's AWT estimates (``conf/experiment/tf99_awt.yaml``): slack's yearly wait at each
    fixed AWT and with the running estimate, conservative's beside it."""
    slack = ds.sel(policy="slack").expand_dims(policy=["slack"])
    conservative = float(measured(ds.sel(policy="conservative").isel(awt=0, awt_estimate=0), "mean_wait"))
    fig = _yearly_bars(slack, ("awt_estimate", "awt"), ("all",),
                       f"TF99 §3.2: slack's yearly wait against the AWT (conservative: {conservative:.1f} s)")
    return {"tf99_awt": fig}


@figure("tf99_weights")
def weights(ds: xr.Dataset) -> dict[str, Figure]:
    """TF99 §3.3's α weights (``conf/experiment/tf99_weights.yaml``): all, Hi-Pri and Lo-Pri
    yearly waits of every fifth job at UP = PP = 1, per (α_u, α_t, α_f)."""
    fig = _yearly_bars(ds, ("alpha_u", "alpha_t", "alpha_f"), ("all", "high", "low"),
                       "TF99 §3.3: the α weights (α_p = 1; every fifth job at UP = PP = 1)")
    return {"tf99_weights": fig}


# --- tf99_sobol: the Saltelli study ------------------------------------------------------------
#
# TF99 has no such study: it varied SF (Table 2) and reports α = 0.2 runs in words (§3.3); the
# ranges are sweep's reconstruction (conf/experiment/tf99_sobol.yaml, docs/sensitivity.md). Two
# metrics: the yearly mean wait, and the wait gap between the priority classes (low minus high,
# the difference Table 3 is about), each with first- and total-order indices and their 95%
# bootstrap intervals; a third panel gives the total-order indices of each month's mean wait.

#: The metrics drawn: (variable or derived name, axis label).
SOBOL_METRICS = (("mean_wait", "yearly mean wait"), ("wait_gap", "wait gap Lo-Pri − Hi-Pri (yearly)"))


def wait_gap(ds: xr.Dataset, prefix: str = "") -> xr.DataArray:
    """Mean wait of low-priority jobs minus that of high-priority jobs (s)."""
    gap = ds[f"{prefix}mean_wait_low"] - ds[f"{prefix}mean_wait_high"]
    return gap.assign_attrs(units="s", long_name="mean wait of low- minus high-priority jobs")


def sobol_study_indices(ds: xr.Dataset) -> dict[str, xr.Dataset]:
    """The Saltelli indices of each metric of :data:`SOBOL_METRICS` (and per month), other dims dropped."""
    with_gap = ds.assign(wait_gap=wait_gap(ds))
    out = {name: sensitivity(with_gap, variable=name).squeeze(drop=True) for name, _ in SOBOL_METRICS}
    if "monthly_mean_wait" in ds:
        out["monthly_mean_wait"] = sensitivity(ds, variable="monthly_mean_wait").squeeze(drop=True)
    return out


def _sobol_index_bars(ax: Axes, result: xr.Dataset, label: str) -> None:
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


def _sobol_monthly(ax: Axes, result: xr.Dataset) -> None:
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
    results = sobol_study_indices(ds)
    monthly = "monthly_mean_wait" in results and "month" in results["monthly_mean_wait"].dims
    fig = Figure(figsize=(11, 8 if monthly else 4))
    grid = fig.add_gridspec(2 if monthly else 1, 2)
    for column, (name, label) in enumerate(SOBOL_METRICS):
        _sobol_index_bars(fig.add_subplot(grid[0, column]), results[name], label)
    if monthly:
        _sobol_monthly(fig.add_subplot(grid[1, :]), results["monthly_mean_wait"])
    design = results["mean_wait"].attrs
    samples = ds.sizes["sample"]
    ranges = ", ".join(f"{_short(k.rsplit('.', 1)[-1])} [{lo:g}, {hi:g}]"
                       for k, (lo, hi) in _sobol_ranges(ds).items())
    fig.suptitle(f"Saltelli indices of slack backfilling on KTH (SP2, 128 processors, every fifth job "
                 f"high priority): N = {_sobol_base(ds)} base samples, {samples} runs; error bars: "
                 f"{design['conf_level']:.0%} bootstrap intervals\n"
                 f"ranges (sweep's reconstruction, not TF99's): {ranges}", fontsize=9)
    fig.tight_layout()
    return {"tf99_sobol": fig}


def _sobol_base(ds: xr.Dataset) -> int:
    return int((from_attrs(ds.attrs) or {}).get("samples", 0))


def _sobol_ranges(ds: xr.Dataset) -> dict[str, tuple[float, float]]:
    design = from_attrs(ds.attrs) or {"params": {}}
    ordered = sorted(design["params"].items(),
                     key=lambda kv: PARAMETERS.index(kv[0].rsplit(".", 1)[-1])
                     if kv[0].rsplit(".", 1)[-1] in PARAMETERS else len(PARAMETERS))
    return {k: tuple(v) for k, v in ordered}
