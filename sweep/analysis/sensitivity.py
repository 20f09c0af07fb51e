"""Global sensitivity indices from a sweep over parameters (docs/design.md §1, §5).

Any family's Dataset swept over numeric parameters on a Cartesian grid (one
dimension per parameter) can be analysed; every other dimension (policy,
workload, month, ...) is kept, and replications are averaged first. Used for
TF99's parameters (SF, AWT, α_u, α_t, α_p, α_f; docs/model-notes.md §2:
``conf/experiment/tf99_sensitivity.yaml``) but nothing here is rigid-specific.

``method="sobol"``
    Variance-based indices of the grid itself, computed exactly by the ANOVA
    decomposition with every grid level equally likely: first order
    ``S1_i = Var(E[Y | X_i]) / Var(Y)``, total ``ST_i = E[Var(Y | X_~i)] / Var(Y)``
    (Sobol' 2001; Saltelli et al. 2010). On a fine grid they approach the
    indices of uniform inputs over the grid's range.
``method="morris"``
    Elementary effects (Morris 1991; Campolongo et al. 2007) with SALib: SALib
    draws ``trajectories`` trajectories on the grid's levels
    (``SALib.sample.morris``), their outputs are read off the Dataset, and
    ``SALib.analyze.morris`` gives ``mu``, ``mu_star`` and ``sigma``, in the
    output's units per whole parameter range. Every parameter needs the same
    even number of equally spaced levels (then every trajectory point is a grid
    point).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import xarray as xr

METHODS = ("sobol", "morris")


def sensitivity(ds: xr.Dataset, dims: Sequence[str], variable: str = "mean_wait",
                method: str = "sobol", trajectories: int = 50, seed: int = 0) -> xr.Dataset:
    """Sensitivity indices of ``ds[variable]`` to the parameters on ``dims``.

    Returns a Dataset on a ``parameter`` dimension (labeled by ``dims``) plus
    every remaining dimension of the variable except ``replication`` (averaged):
    ``S1`` and ``ST`` for ``"sobol"``, ``mu``, ``mu_star`` and ``sigma`` for
    ``"morris"`` (module docstring). Raises ``ValueError`` for a missing or
    constant parameter dimension, or a grid Morris cannot use.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if variable not in ds:
        raise ValueError(f"no variable {variable!r} in the Dataset")
    y = ds[variable]
    if "replication" in y.dims:
        y = y.mean("replication")
    dims = list(dims)
    for d in dims:
        if d not in y.dims or y.sizes[d] < 2:
            raise ValueError(f"parameter {d!r} must be a dimension of {variable} with >= 2 values")
    y = y.astype(np.float64)
    out = _sobol(y, dims) if method == "sobol" else _morris(y, dims, trajectories, seed)
    out = out.assign_coords(parameter=dims)
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
    s1.attrs.update(units="1", long_name="first-order Sobol index")
    st.attrs.update(units="1", long_name="total-order Sobol index")
    return xr.Dataset({"S1": s1, "ST": st})


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
    long = {"mu": "mean elementary effect", "mu_star": "mean absolute elementary effect",
            "sigma": "standard deviation of the elementary effects"}
    units = y.attrs.get("units", "")
    return xr.Dataset({n: xr.DataArray(result[n].reshape(shape), dims=("parameter", *rest),
                                       coords=coords, attrs={"units": units, "long_name": long[n]})
                       for n in names})
