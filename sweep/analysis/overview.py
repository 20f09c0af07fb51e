"""The default figure of a sweep that has no paper figure: its headline against the swept axis.

``sweep grid.policy=[random,lwl] grid.load=[0.5,0.7,0.9]`` writes, beside
``results.nc``, ``results.png``: the family's headline variable (the first
scalar one, e.g. the mean response time; ``Family.headline``) against the swept
axis (``load`` when it is swept, else the first numeric axis, else the first),
one line per combination of the other swept axes (at most :data:`MAX_LINES`),
each point the mean over replications with its 90% Student-t interval as an
error bar. Saturated points (any replication flagged) are drawn as red crosses:
their values are those of a finite run of an unstable system.
"""

from __future__ import annotations

import itertools

import numpy as np
import xarray as xr

from sweep.analysis.compare import confidence_interval
from sweep.analysis.plotting import MARKERS, POLICY_LABELS
from sweep.families import family_of

#: More lines than this is a figure nobody reads: the sweep gets none (the file and the table remain).
MAX_LINES = 12
LEVEL = 0.90


def overview_figure(dataset: xr.Dataset):  # -> matplotlib Figure | None
    """The headline against the swept axis (module docstring); None when the sweep has no axis with
    more than one value, is a sample design, or would need more than :data:`MAX_LINES` lines."""
    if "sample" in dataset.dims or "policy" not in dataset.coords:
        return None
    variable = _headline(dataset)
    if variable not in dataset:
        return None
    values = dataset[variable].astype(float)
    swept = [dim for dim in values.dims if dim != "replication" and values.sizes[dim] > 1]
    if not swept:
        return None
    x_dim = _x_axis(dataset, swept)
    others = [dim for dim in swept if dim != x_dim]
    if int(np.prod([values.sizes[d] for d in others])) > MAX_LINES:
        return None
    values = values.isel({d: 0 for d in values.dims if d not in (*swept, "replication")})
    estimate = confidence_interval(values, "replication", LEVEL) if "replication" in values.dims else values
    saturated = _saturated(dataset, values)
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(6.4, 4.2))
    positions = itertools.product(*(range(values.sizes[d]) for d in others))
    x = _x_values(dataset, x_dim)
    for k, position in enumerate(positions):
        at = dict(zip(others, position, strict=True))
        line = estimate.isel(at)
        half = line["halfwidth"].values if "halfwidth" in line.coords else None
        ax.errorbar(x, line.values, yerr=None if half is None else np.nan_to_num(half),
                    marker=MARKERS[k % len(MARKERS)], ms=4, capsize=2, label=_label(dataset, at))
        crosses = np.where(saturated.isel(at).values, line.values, np.nan)
        ax.plot(x, crosses, "x", color="red", ms=9, mew=2, ls="none",
                label="saturated" if k == 0 and np.isfinite(crosses).any() else None)
    _decorate(ax, dataset, variable, x_dim, estimate)
    return figure


def _headline(dataset: xr.Dataset) -> str | None:
    """The headline variable of the family of the sweep's first policy. The ``policy`` coordinate holds
    config option names: a user's own option (``my_conf/policy/patient_slack.yaml``, ``name: slack``)
    is not a policy's name, so the stored config's ``policy.name`` is tried next."""
    import yaml

    try:
        configured = (yaml.safe_load(dataset.attrs.get("config", "")) or {}).get("policy", {}).get("name")
    except (yaml.YAMLError, AttributeError):
        configured = None
    for name in (str(dataset["policy"].values[0]), configured):
        try:
            return family_of(str(name)).headline
        except KeyError:
            continue
    return None


def _x_axis(dataset: xr.Dataset, swept: list[str]) -> str:
    if "load" in swept:
        return "load"
    numeric = [dim for dim in swept if np.issubdtype(dataset[dim].dtype, np.number)]
    return (numeric or swept)[0]


def _x_values(dataset: xr.Dataset, dim: str) -> np.ndarray:
    coordinate = dataset[dim].values
    return coordinate if np.issubdtype(coordinate.dtype, np.number) else np.arange(len(coordinate))


def _saturated(dataset: xr.Dataset, values: xr.DataArray) -> xr.DataArray:
    """Per point (the dims of ``values`` but replication): whether any replication is saturated."""
    if "saturated" not in dataset:
        per_point = values.isel(replication=0, drop=True) if "replication" in values.dims else values
        return xr.zeros_like(per_point, dtype=bool)
    flags = dataset["saturated"].astype(bool)
    flags = flags.isel({d: 0 for d in flags.dims if d not in values.dims})
    return flags.any("replication") if "replication" in flags.dims else flags


def _label(dataset: xr.Dataset, at: dict[str, int]) -> str | None:
    if not at:
        return None
    parts = []
    for dim, index in at.items():
        value = str(dataset[dim].values[index])
        parts.append(POLICY_LABELS.get(value, value) if dim == "policy" else f"{dim}={value}")
    return ", ".join(parts)


def _decorate(ax, dataset: xr.Dataset, variable: str, x_dim: str, estimate: xr.DataArray) -> None:
    attrs = dataset[variable].attrs
    units = attrs.get("units", "")
    ax.set_ylabel(f"{attrs.get('long_name', variable)}{f' ({units})' if units not in ('', '1') else ''}")
    x_attrs = dataset[x_dim].attrs
    ax.set_xlabel(x_attrs.get("long_name", x_dim))
    if not np.issubdtype(dataset[x_dim].dtype, np.number):
        ax.set_xticks(np.arange(dataset.sizes[x_dim]), [str(v) for v in dataset[x_dim].values])
    finite = estimate.values[np.isfinite(estimate.values) & (estimate.values > 0)]
    if finite.size and finite.max() / finite.min() > 100:
        ax.set_yscale("log")
    ax.set_title(f"{variable}: mean and {LEVEL:.0%} interval over replications", fontsize=10)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
