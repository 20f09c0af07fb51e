"""Sample designs beside the grid (sweep/config/design.py; docs/sensitivity.md; issue 17)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import xarray as xr

import sweep
from sweep.config.compose import compose
from sweep.config.design import SAMPLE_DIM, from_attrs
from sweep.config.grid import expand
from sweep.config.seeding import stream_key

ANALYTIC = ["policy=central_queue", "workload=hyperexp2", "model=analytic", "replications=1",
            "progress=false", "plots=false"]


#: The options of a run that fails on its input, before anything is computed.
SERIAL = ["progress=false", "engine.backend=serial"]


def _expand(overrides):
    return expand(compose(overrides), overrides)


def _design(name, samples, params=("design.params.load=[0.3,0.7]", "design.params.workload.scv=[1,8]",
                                   "design.params.system.hosts=[1,4]"), extra=()):
    return [f"design={name}", f"design.samples={samples}", *params, *extra]


@pytest.mark.parametrize("name, samples, extra, points", [
    ("saltelli", 8, (), 8 * (2 * 3 + 2)),
    ("saltelli", 8, ("design.second_order=false",), 8 * (3 + 2)),
    ("morris", 5, (), 5 * (3 + 1)),
    ("lhs", 10, (), 10),
    ("sobol_qmc", 16, (), 16),
])
def test_each_design_gives_its_number_of_points(name, samples, extra, points):
    """Saltelli N(2d+2) (N(d+2) without second order), Morris N(d+1), LHS and Sobol' N."""
    grid = _expand(["policy=central_queue", "workload=hyperexp2", *_design(name, samples, extra=extra)])
    assert [a.dim for a in grid.axes] == ["policy", "workload", SAMPLE_DIM]  # a sampled load: no axis
    assert len(grid.points) == points == len(grid.design)


def test_values_lie_in_their_ranges_and_integers_are_equally_likely():
    grid = _expand(["policy=central_queue", "workload=hyperexp2", *_design("sobol_qmc", 64)])
    load, scv = (np.array([p.point.load for p in grid.points]),
                 np.array([p.point.workload["scv"] for p in grid.points]))
    hosts = np.array([p.point.system["hosts"] for p in grid.points])
    assert (load >= 0.3).all() and (load < 0.7).all() and (scv >= 1).all() and (scv < 8).all()
    assert all(isinstance(p.point.system["hosts"], int) for p in grid.points)
    # a scrambled Sobol' net of 64 points: each quarter of [0, 1) holds 16 of them, so each host count
    assert np.bincount(hosts, minlength=5)[1:].tolist() == [16, 16, 16, 16]


def test_latin_hypercube_has_one_point_per_stratum():
    """The Latin property (McKay et al. 1979): each of the N equal strata of each range holds one point."""
    grid = _expand(["policy=central_queue", "workload=hyperexp2",
                    *_design("lhs", 12, params=("design.params.load=[0.3,0.7]",
                                                "design.params.workload.scv=[1,8]"))])
    load = np.array([p.point.load for p in grid.points])
    scv = np.array([p.point.workload["scv"] for p in grid.points])
    for values, (low, high) in ((load, (0.3, 0.7)), (scv, (1, 8))):
        strata = np.floor((values - low) / (high - low) * 12).astype(int)
        assert sorted(strata) == list(range(12))


def test_sampled_load_keys_the_stream_and_policies_share_it():
    """docs/design.md §4 with a design: the stream follows each sample's load and workload,
    and every policy sees the same stream at the same sample (common random numbers)."""
    overrides = ["grid.policy=[random,round_robin]", "workload=hyperexp2",
                 *_design("saltelli", 4, params=("design.params.load=[0.3,0.7]",
                                                 "design.params.workload.scv=[1,8]"))]
    grid = _expand(overrides)
    by_sample: dict[int, set] = {}
    for p in grid.points:
        assert p.stream == stream_key(p.point.workload, p.point.load)
        by_sample.setdefault(p.position[-1], set()).add(p.stream)
    assert all(len(streams) == 1 for streams in by_sample.values())
    distinct = {(p.point.load, p.point.workload["scv"]) for p in grid.points}
    assert len({next(iter(s)) for s in by_sample.values()}) == len(distinct) > 4


def test_design_seed_defaults_to_the_root_seed():
    def loads(extra):
        grid = _expand(["policy=central_queue", "workload=hyperexp2", *extra,
                        *_design("lhs", 8, params=("design.params.load=[0.3,0.7]",))])
        return [p.point.load for p in grid.points]
    assert loads([]) == loads(["design.seed=20000"]) != loads(["design.seed=1"])
    assert loads(["seed=1"]) == loads(["design.seed=1"])


def test_dataset_carries_the_design_and_round_trips(tmp_path):
    """Parameters are coordinates on ``sample``; the design is JSON in the attributes; read back equal."""
    path = tmp_path / "d.nc"
    ds = sweep.run([*ANALYTIC, *_design("saltelli", 4), f"output={path}"])
    assert ds["mean_wait"].dims == ("policy", "workload", "sample", "replication")
    assert {n: ds[n].dims for n in ("load", "scv", "hosts")} == dict.fromkeys(("load", "scv", "hosts"),
                                                                               ("sample",))
    assert ds["hosts"].dtype == np.int64 and ds["scv"].attrs["config_key"] == "workload.scv"
    design = from_attrs(ds.attrs)
    assert design == {"name": "saltelli", "params": {"load": [0.3, 0.7], "workload.scv": [1, 8],
                                                     "system.hosts": [1, 4]},
                      "dims": {"load": "load", "workload.scv": "scv", "system.hosts": "hosts"},
                      "integer": ["system.hosts"], "samples": 4, "seed": 20000, "second_order": True}
    back = xr.load_dataset(path)
    xr.testing.assert_identical(back, ds)
    # each sample's own closed form: M/G/1 at hosts = 1 (P-K, mean 1), rho (1 + C^2) / (2 (1 - rho))
    one = ds.isel(policy=0, workload=0, replication=0).where(ds["hosts"] == 1, drop=True)
    rho, scv = one["load"].values, one["scv"].values
    np.testing.assert_allclose(one["mean_wait"].values.ravel(), rho * (1 + scv) / (2 * (1 - rho)), rtol=1e-12)


def test_grid_sweep_stores_no_design(tmp_path):
    """design=grid (the default) changes nothing: no attribute, no ``design`` in the stored config."""
    ds = sweep.run([*ANALYTIC, "grid.load=[0.5,0.6]", f"output={tmp_path / 'g.nc'}"])
    assert "design" not in ds.attrs and "design" not in ds.attrs["config"]
    assert ds["mean_wait"].dims == ("policy", "workload", "load", "replication")


# --- bad input: one line naming the option, exit 2 (issue 17 "Must show") -----------------------


@pytest.mark.parametrize("args, words", [
    (_design("saltelli", 8, params=("design.params.load=[0.8,0.3]",)), ["design.params.load", "low < high"]),
    (_design("saltelli", 8, params=("design.params.workload.scv=[2,2]",)), ["workload.scv", "low < high"]),
    (_design("lhs", 8, params=("design.params.workload.sigma=[1,2]",)),
     ["design.params", "'workload.sigma'"]),
    (_design("saltelli", 12, params=("design.params.load=[0.3,0.8]",)),
     ["design.samples", "power of two", "12", "8 or 16"]),
    (_design("sobol_qmc", 100, params=("design.params.load=[0.3,0.8]",)), ["design.samples", "64 or 128"]),
    (_design("saltelli", 8, params=("design.params.load=[0.3,0.8]",), extra=("grid.load=[0.5,0.6]",)),
     ["design.params.load", "grid.load"]),
    (_design("saltelli", 8, params=("design.params.load=[low,0.8]",)), ["design.params.load", "two numbers"]),
    (_design("saltelli", 8, params=()), ["design=saltelli needs parameters"]),
    (["design.samples=8"], ["design 'grid'", "samples"]),
])
def test_bad_design_is_one_line(error_line, args, words):
    line = error_line([*SERIAL, "policy=central_queue", "workload=hyperexp2", "model=analytic", *args])
    assert all(w in line for w in words), line


def test_morris_on_a_non_numeric_key_is_one_line(error_line):
    line = error_line([*SERIAL, "policy=slack", "design=morris", "design.samples=4",
                       "design.params.policy.heuristic=[0,1]", "design.params.policy.awt=[1,2]"])
    assert "design.params.policy.heuristic" in line and "morris" in line and "'ast'" in line


def test_design_json_is_plain_text():
    """netCDF attributes take text: the design is JSON, readable without sweep."""
    grid = _expand(["policy=central_queue", "workload=hyperexp2", *_design("morris", 2)])
    from sweep.config.design import to_json

    assert json.loads(to_json(grid.design))["num_levels"] == 4
