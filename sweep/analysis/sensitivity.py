"""Global sensitivity indices from a sweep over parameters (docs/sensitivity.md).

Any family's Dataset swept over numeric parameters can be analysed, on a
Cartesian grid (one dimension per parameter) or on a sample design (the
``design`` config group: the points on a ``sample`` dimension, the design in
the file attribute ``design``, :mod:`sweep.config.design`). Every other
dimension (policy, workload, month, ...) is kept, and replications are
averaged first. Used for TF99's parameters (SF, AWT, α_u, α_t, α_p, α_f;
docs/model-notes.md §2: ``sweep/papers/tf99/conf/experiment/tf99_sensitivity.yaml``,
``tf99_sobol.yaml``) but nothing here is rigid-specific.

On a grid (``design=grid``, ``dims`` names the parameter dimensions):

``method="sobol"``
    Variance-based indices of the grid itself, computed exactly by the ANOVA
    decomposition with every grid level equally likely: first order
    ``S1_i = Var(E[Y | X_i]) / Var(Y)``, total ``ST_i = E[Var(Y | X_~i)] / Var(Y)``,
    second order ``S2_ij = Var(E[Y | X_i, X_j]) / Var(Y) − S1_i − S1_j``
    (Sobol' 2001; Saltelli et al. 2010). On a fine grid of cell midpoints
    this is the midpoint quadrature of the indices of uniform inputs over the
    grid's range.
``method="morris"``
    Elementary effects (Morris 1991; Campolongo et al. 2007) with SALib: SALib
    draws ``trajectories`` trajectories on the grid's levels
    (``SALib.sample.morris``), their outputs are read off the Dataset, and
    ``SALib.analyze.morris`` gives ``mu``, ``mu_star`` and ``sigma``, in the
    output's units per whole parameter range. Every parameter needs the same
    even number of equally spaced levels (then every trajectory point is a grid
    point).

On a sample design the method follows the design (``dims`` may be left out;
if given it must name every parameter), each index with the half-width of its
``conf_level`` bootstrap interval (``num_resamples`` resamples of the points,
SALib's ``*_conf``; named like every half-width, ``S1_hw95`` at 95%):

``design=saltelli``
    ``S1``, ``ST`` and (with ``second_order``) ``S2`` by Saltelli et al.
    (2010)'s estimators (``SALib.analyze.sobol``: Jansen's for ``ST``).
``design=morris``
    ``mu``, ``mu_star``, ``sigma`` and ``mu_star``'s half-width
    (``SALib.analyze.morris``), per whole parameter range.
``design=lhs``, ``design=sobol_qmc``
    ``S1`` by random balance designs FAST (Tarantola et al. 2006; Plischke
    2010; ``SALib.analyze.rbd_fast``), which takes any space-filling sample.

A column of outputs with a non-finite value (a saturated point's infinite
mean) gives NaN indices for that combination of the other dimensions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from sweep.config.design import SAMPLE_DIM, from_attrs, redraw, values_of

METHODS = ("sobol", "morris")
#: The method each sample design is analysed with.
DESIGN_METHODS = {"saltelli": "sobol", "morris": "morris", "lhs": "rbd_fast", "sobol_qmc": "rbd_fast"}
#: The second parameter of a second-order index.
PAIR_DIM = "parameter_2"
_LONG_NAMES = {"S1": "first-order Sobol index", "ST": "total-order Sobol index",
               "S2": "second-order Sobol index", "mu": "mean elementary effect",
               "mu_star": "mean absolute elementary effect",
               "sigma": "standard deviation of the elementary effects"}


def sensitivity(ds: xr.Dataset, dims: Sequence[str] | None = None, variable: str = "mean_wait",
                method: str | None = None, trajectories: int = 50, seed: int = 0,
                num_resamples: int = 100, conf_level: float = 0.95) -> xr.Dataset:
    """Sensitivity indices of ``ds[variable]`` to the parameters on ``dims`` (or of the design).

    The design is read from the file: Sobol' indices of a Saltelli sample, μ*/σ of Morris
    trajectories, exact ANOVA indices of a grid (module docstring; docs/sensitivity.md).

    Parameters
    ----------
    ds
        A sweep's Dataset: a grid over the parameters, or a sample design (``design=saltelli``...).
    dims
        The parameter dimensions of a grid (required there); on a sample design, all of its
        parameters or ``None``.
    variable
        The variable explained (averaged over ``replication`` first).
    method
        ``"sobol"`` (the default) or ``"morris"`` on a grid; on a sample design, its own method or
        ``None``.
    trajectories
        Morris trajectories drawn on a grid.
    seed
        The seed of those trajectories and of the bootstrap.
    num_resamples
        Bootstrap resamples of a sample design's intervals.
    conf_level
        The confidence level of those intervals.

    Returns
    -------
    xarray.Dataset
        On a ``parameter`` dimension (labeled by the parameters' dimension or coordinate names)
        plus every remaining dimension of the variable except ``replication`` and ``sample``: on
        a grid ``S1``, ``ST`` and ``S2`` (on ``parameter`` × ``parameter_2``) for ``"sobol"``,
        ``mu``, ``mu_star`` and ``sigma`` for ``"morris"``; on a sample design what its method
        gives, with half-widths (``<index>_hw95``). :func:`sensitivity_plot` draws them.

    Raises
    ------
    ValueError
        A missing or constant parameter dimension, a grid Morris cannot use, or a method the
        design cannot serve.
    """
    if variable not in ds:
        raise ValueError(f"no variable {variable!r} in the Dataset")
    y = ds[variable]
    if "replication" in y.dims:
        y = y.mean("replication")
    design = from_attrs(ds.attrs)
    if design is not None:
        out = _design_indices(ds, y.astype(np.float64), design, dims, method, num_resamples,
                              conf_level, seed)
        out.attrs.update(variable=variable, method=DESIGN_METHODS[design["name"]],
                         design=design["name"], conf_level=conf_level)
        return out
    method = method or "sobol"
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if dims is None:
        raise ValueError("dims: name the parameter dimensions of the grid")
    dims = list(dims)
    for d in dims:
        if d not in y.dims or y.sizes[d] < 2:
            raise ValueError(f"parameter {d!r} must be a dimension of {variable} with >= 2 values")
    y = y.astype(np.float64)
    out = _sobol(y, dims) if method == "sobol" else _morris(y, dims, trajectories, seed)
    out = out.assign_coords(parameter=dims)
    if "S2" in out:
        out = out.assign_coords({PAIR_DIM: dims})
    out.attrs.update(variable=variable, method=method)
    return out


def _sobol(y: xr.DataArray, dims: list[str]) -> xr.Dataset:
    var = y.var(dims)
    first, total = [], []
    for d in dims:
        rest = [e for e in dims if e != d]
        first.append(y.mean(rest).var(d) / var)
        total.append(y.var(d).mean(rest) / var)
    s1 = xr.concat(first, "parameter")
    st = xr.concat(total, "parameter")
    rows = []
    for i, a in enumerate(dims):
        row = []
        for j, b in enumerate(dims):
            if i == j:
                row.append(xr.full_like(first[i], np.nan))
                continue
            rest = [e for e in dims if e not in (a, b)]
            closed = y.mean(rest).var([a, b]) / var
            row.append(closed - first[i] - first[j])
        rows.append(xr.concat(row, PAIR_DIM))
    s2 = xr.concat(rows, "parameter").transpose("parameter", PAIR_DIM, ...)
    for name, index in (("S1", s1), ("ST", st), ("S2", s2)):
        index.attrs.update(units="1", long_name=_LONG_NAMES[name])
    return xr.Dataset({"S1": s1, "ST": st, "S2": s2})


def _morris(y: xr.DataArray, dims: list[str], trajectories: int, seed: int) -> xr.Dataset:
    from SALib.analyze import morris as analyze
    from SALib.sample import morris as sample

    levels = {y.sizes[d] for d in dims}
    if len(levels) != 1 or levels.pop() % 2:
        raise ValueError("morris needs the same even number of levels on every parameter")
    p = y.sizes[dims[0]]
    bounds = []
    for d in dims:
        x = np.asarray(y[d].values, dtype=np.float64)
        if not np.allclose(x, np.linspace(x[0], x[-1], p)):
            raise ValueError(f"morris needs equally spaced levels on {d!r}")
        bounds.append([x[0], x[-1]])
    problem = {"num_vars": len(dims), "names": dims, "bounds": bounds}
    X = sample.sample(problem, trajectories, num_levels=p, seed=seed)
    lo, hi = np.array(bounds).T
    index = np.rint((X - lo) / (hi - lo) * (p - 1)).astype(int)
    rest = [d for d in y.dims if d not in dims]
    values = y.transpose(*dims, *rest).values[tuple(index.T)]  # (samples, *rest)
    flat = values.reshape(len(X), -1)
    names = ("mu", "mu_star", "sigma")
    result = {n: np.empty((len(dims), flat.shape[1])) for n in names}
    for k in range(flat.shape[1]):
        res = analyze.analyze(problem, X, flat[:, k], num_levels=p, seed=seed)
        for n in names:
            result[n][:, k] = res[n]
    shape = (len(dims), *(y.sizes[d] for d in rest))
    coords = {d: y[d] for d in rest if d in y.coords}
    units = y.attrs.get("units", "")
    return xr.Dataset({n: xr.DataArray(result[n].reshape(shape), dims=("parameter", *rest),
                                       coords=coords, attrs={"units": units, "long_name": _LONG_NAMES[n]})
                       for n in names})


# --- sample designs -----------------------------------------------------------------------------


def _design_indices(ds: xr.Dataset, y: xr.DataArray, design: Mapping[str, Any], dims: Sequence[str] | None,
                    method: str | None, num_resamples: int, conf_level: float, seed: int) -> xr.Dataset:
    """The indices of a sample design, per combination of the dimensions other than ``sample``."""
    name, keys = design["name"], list(design["params"])
    names = [design["dims"][k] for k in keys]
    natural = DESIGN_METHODS[name]
    if method is not None and method != natural:
        raise ValueError(f"a {name} design gives method {natural!r}, not {method!r}")
    if dims is not None and sorted(dims) != sorted(names):
        raise ValueError(f"dims: a {name} design's indices are of all its parameters ({', '.join(names)}), "
                         f"got {list(dims)}")
    if SAMPLE_DIM not in y.dims:
        raise ValueError(f"the variable has no {SAMPLE_DIM!r} dimension: not a {name} design's result")
    if not 0 < conf_level < 1:
        raise ValueError(f"conf_level must be in (0, 1), got {conf_level}")
    problem = {"num_vars": len(keys), "names": names, "bounds": [[0.0, 1.0]] * len(keys)}
    unit = _unit_sample(ds, design, names) if natural != "sobol" else None
    analyze = _ANALYZERS[natural]
    rest = [d for d in y.dims if d != SAMPLE_DIM]
    outputs = y.transpose(SAMPLE_DIM, *rest).values.reshape(y.sizes[SAMPLE_DIM], -1)
    results: dict[str, np.ndarray] = {}
    for k in range(outputs.shape[1]):
        column = outputs[:, k]
        if not np.all(np.isfinite(column)):
            continue
        for index, values in analyze(problem, unit, column, design, num_resamples, conf_level, seed).items():
            results.setdefault(index, np.full((*np.shape(values), outputs.shape[1]), np.nan))[..., k] = values
    if not results:  # every column non-finite: the indices' shapes from a constant column
        probe = analyze(problem, unit, np.arange(y.sizes[SAMPLE_DIM], dtype=float), design,
                        num_resamples, conf_level, seed)
        results = {index: np.full((*np.shape(v), outputs.shape[1]), np.nan) for index, v in probe.items()}
    return _indices_dataset(results, y, rest, names, conf_level)


def _unit_sample(ds: xr.Dataset, design: Mapping[str, Any], names: Sequence[str]) -> np.ndarray:
    """The design's points in the unit cube, drawn again from its seed and checked against the file."""
    unit = redraw(design)
    low, high = (np.array([r[i] for r in design["params"].values()], dtype=float) for i in (0, 1))
    integer = np.array([k in design["integer"] for k in design["params"]])
    stored = np.column_stack([np.asarray(ds[n].values, dtype=float) for n in names])
    if unit.shape != stored.shape or not np.allclose(values_of(unit, low, high, integer), stored):
        raise ValueError(f"the {design['name']} design cannot be drawn again as it was (another SALib "
                         f"or scipy version?): its points differ from the file's coordinates")
    return unit


def _sobol_design(problem: dict, unit: Any, y: np.ndarray, design: Mapping[str, Any], resamples: int,
                  level: float, seed: int) -> dict[str, np.ndarray]:
    from SALib.analyze import sobol

    second = bool(design.get("second_order", True))
    # SALib's Sobol' analysis reads a seed of 0 as none and resamples from numpy's global state:
    # seed k is passed as k + 1, so that every seed, 0 included, gives the same intervals each time
    res = sobol.analyze(problem, y, calc_second_order=second, num_resamples=resamples, conf_level=level,
                        seed=seed + 1)
    out = {"S1": res["S1"], "S1_conf": res["S1_conf"], "ST": res["ST"], "ST_conf": res["ST_conf"]}
    if second:
        for name in ("S2", "S2_conf"):
            upper = np.asarray(res[name], dtype=float)
            out[name] = np.where(np.isnan(upper), upper.T, upper)  # symmetric, NaN on the diagonal
    return out


def _morris_design(problem: dict, unit: np.ndarray, y: np.ndarray, design: Mapping[str, Any],
                   resamples: int, level: float, seed: int) -> dict[str, np.ndarray]:
    from SALib.analyze import morris

    res = morris.analyze(problem, unit, y, num_resamples=resamples, conf_level=level,
                         num_levels=int(design["num_levels"]), seed=seed)
    return {name: np.asarray(res[name], dtype=float) for name in ("mu", "mu_star", "sigma", "mu_star_conf")}


def _rbd_fast_design(problem: dict, unit: np.ndarray, y: np.ndarray, design: Mapping[str, Any],
                     resamples: int, level: float, seed: int) -> dict[str, np.ndarray]:
    from SALib.analyze import rbd_fast

    res = rbd_fast.analyze(problem, unit, y, num_resamples=resamples, conf_level=level, seed=seed)
    return {"S1": np.asarray(res["S1"], dtype=float), "S1_conf": np.asarray(res["S1_conf"], dtype=float)}


_ANALYZERS: dict[str, Callable[..., dict[str, np.ndarray]]] = {
    "sobol": _sobol_design, "morris": _morris_design, "rbd_fast": _rbd_fast_design}


def _indices_dataset(results: Mapping[str, np.ndarray], y: xr.DataArray, rest: Sequence[str],
                     names: Sequence[str], conf_level: float) -> xr.Dataset:
    """The indices as DataArrays on ``parameter`` (and ``parameter_2``) × the remaining dimensions."""
    shape = tuple(y.sizes[d] for d in rest)
    coords: dict[str, Any] = {d: y[d] for d in rest if d in y.coords}
    coords.update(parameter=list(names))
    suffix = f"_hw{round(conf_level * 100):d}"
    level = f"{conf_level:.0%}"
    units = {"mu": y.attrs.get("units", ""), "mu_star": y.attrs.get("units", ""),
             "sigma": y.attrs.get("units", "")}
    variables = {}
    for key, values in results.items():
        index = key.removesuffix("_conf")
        pair = index == "S2"
        lead = ("parameter", PAIR_DIM) if pair else ("parameter",)
        long_name = _LONG_NAMES[index]
        if key.endswith("_conf"):
            long_name = f"half-width of the {level} bootstrap interval of the {long_name}"
        variables[index + suffix if key.endswith("_conf") else index] = xr.DataArray(
            values.reshape(*values.shape[:-1], *shape), dims=(*lead, *rest),
            attrs={"units": units.get(index, "1"), "long_name": long_name})
    if any(k.startswith("S2") for k in results):
        coords[PAIR_DIM] = list(names)
    return xr.Dataset(variables, coords=coords)


#: The indices a bar chart shows, by method: Sobol' first and total order, or Morris's μ* and σ.
_BARS = (("S1", "ST"), ("mu_star", "sigma"))


def sensitivity_plot(indices: xr.Dataset, ax: Any = None) -> Any:
    """Bars of the indices :func:`sensitivity` returns, one group per parameter: ``S1`` and ``ST``
    (Sobol') or ``mu_star`` and ``sigma`` (Morris), each with its bootstrap half-width as an error bar
    where the design gave one (``<index>_hw95``).

    Parameters
    ----------
    indices
        What :func:`sensitivity` returned, of one case: every dimension but ``parameter`` (and
        ``parameter_2``, which holds S2, not drawn) of length one.
    ax
        A matplotlib Axes to draw on (default: a new figure).

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on.

    Raises
    ------
    ValueError
        No indices to draw, or indices that vary over another dimension.
    """
    names = next((pair for pair in _BARS if all(n in indices for n in pair)), None)
    if names is None:
        raise ValueError(f"no indices to draw: expected {' and '.join(_BARS[0])} or {' and '.join(_BARS[1])}")
    extra = [d for d in indices[names[0]].dims if d != "parameter" and indices.sizes[d] > 1]
    if extra:
        raise ValueError(f"the indices vary over {', '.join(extra)}: select one value of each first")
    import matplotlib.pyplot as plt

    figure, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(6.4, 3.6))
    parameters = [str(p) for p in indices["parameter"].values]
    x = np.arange(len(parameters))
    width = 0.8 / len(names)
    suffix = f"_hw{round(float(indices.attrs.get('conf_level', 0.95)) * 100):d}"
    for k, name in enumerate(names):
        values = indices[name].squeeze(drop=True).values
        half = indices[name + suffix].squeeze(drop=True).values if name + suffix in indices else None
        ax.bar(x + (k - (len(names) - 1) / 2) * width, values, width, yerr=half, capsize=3,
               label=indices[name].attrs.get("long_name", name))
    ax.set_xticks(x, parameters)
    ax.set_ylabel(f"index of {indices.attrs.get('variable', 'the variable')}")
    ax.axhline(0, color="black", lw=0.5)
    ax.legend(fontsize=8)
    return figure
