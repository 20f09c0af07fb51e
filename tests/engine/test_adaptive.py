"""The saturation search in rounds (sweep/engine/adaptive.py, docs/design.md §3 step 5)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import sweep
import sweep.engine.tasks
from sweep.cli import main
from sweep.engine.dataset import reproducible
from sweep.engine.tasks import TaskFailed

#: A SITA split giving host 1 the fraction f of the work overloads host 2 (load 2 (1 − f) ρ)
#: from ρ = 1 / (2 (1 − f)) on: 0.625 for f = 0.2, 1 for f = 0.5 (exponential sizes).
SETTINGS = ["saturation.search=true", "saturation.low=0.3", "saturation.high=1.3", "saturation.tol=0.02",
          "stop.jobs=20000", "stop.warmup=4000", "replications=2", "progress=false",
          "engine.backend=serial"]
SEARCH = ["policy=sita_u_rule", "workload=exponential", "grid.policy.host1_fraction=[0.2,0.5]", *SETTINGS]


def test_search_brackets_the_analytic_saturation_loads(tmp_path):
    ds = sweep.run([*SEARCH, f"output={tmp_path / 's.nc'}"])
    found = ds["saturation_load"].squeeze(drop=True)
    np.testing.assert_allclose(found.values, [0.625, 1.0], atol=0.02)
    width = (ds["saturation_high"] - ds["saturation_low"]).values
    assert np.all(width <= 0.02) and np.all(width > 0)
    assert "load" not in ds.dims and ds.attrs["saturation_rounds"] >= 7
    xr.testing.assert_identical(xr.load_dataset(tmp_path / "s.nc"), ds)
    assert not list(tmp_path.glob("*.rounds"))


def test_an_interrupted_search_resumes_from_its_rounds(tmp_path, monkeypatch, capsys):
    real, calls = sweep.engine.tasks.run_task, []

    def failing_later(task):
        calls.append(task)
        if len(calls) > 12:  # round 1 (8 runs) and part of round 2
            raise RuntimeError("node lost")
        return real(task)

    monkeypatch.setattr(sweep.engine.tasks, "run_task", failing_later)
    with pytest.raises(TaskFailed):
        sweep.run([*SEARCH, f"output={tmp_path / 'r.nc'}"])
    assert list(tmp_path.glob("r.nc.rounds/round-*.partial"))
    monkeypatch.setattr(sweep.engine.tasks, "run_task", real)
    capsys.readouterr()
    resumed = sweep.run([*SEARCH, f"output={tmp_path / 'r.nc'}"])
    assert "12 resumed from checkpoint" in capsys.readouterr().err
    whole = sweep.run([*SEARCH, f"output={tmp_path / 'w.nc'}"])
    xr.testing.assert_identical(reproducible(resumed), reproducible(whole))


@pytest.mark.parametrize(("extra", "words"), [
    (["grid.load=[0.5,0.6]"], "leave load out of the grid"),
    (["saturation.low=1.3", "saturation.high=0.3"], "saturation.low must be below saturation.high"),
    (["saturation.low=0.8"], "load 0.8 must be stable and 1.3 unstable, at policy=sita_u_rule"),
    (["policy=easy", "workload=kth_scaled"], "which the rigid family does not record"),
])
def test_bad_searches_are_one_line(capsys, tmp_path, extra, words):
    search = SEARCH if not extra[0].startswith("policy=") else SETTINGS
    status = main([*search, *extra, f"output={tmp_path / 'x.nc'}"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()
             and not line.startswith("saturation search: round")]
    assert status == 2 and len(lines) == 1 and words in lines[0], lines
