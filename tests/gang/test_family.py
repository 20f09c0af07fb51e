"""The gang family through the engine's contract: options, bad input, traces, the Jann fit."""

from __future__ import annotations

import numpy as np
import pytest

import sweep
from sweep.families import Point, StopRule, load_families
from sweep.families.gang._workload import CTC_RANGES, fit_ranges
from sweep.workloads.swf import read_swf
from tests.gang.conftest import SIM

FAMILY = load_families()["gang"]
CTC = "data/traces/CTC-SP2-1996-3.1-cln.swf.gz"
SYSTEM = {"processors": 128, "slice": 1.0, "ticks": 10, "times": [500, 1000], "trace_slices": 0}
JANN = {"name": "gang_mixed", "kind": "jann", "mix": {"compute": 1, "io": 1, "sync": 1},
        "io_burst": 0.2, "io_wait": 0.5, "sync_phase": 3.0, "sync_imbalance": 0.5}


def _point(policy=None, workload=None, system=None, load=2.0):
    return Point(policy=policy or {"name": "gang"}, workload={**JANN, **(workload or {})},
                 system={**SYSTEM, **(system or {})}, load=load, stop=StopRule(jobs=1, warmup=0))


def test_policy_named_like_the_family_is_registered_once():
    assert FAMILY.policies["gang"].family == "gang" and "concurrent_gang" in FAMILY.policies
    assert sweep.families.family_of("gang") is FAMILY


@pytest.mark.parametrize(("policy", "system", "workload", "match"), [
    ({"name": "concurrent_gang", "alpha": 1.0}, {}, {}, r"^policy.alpha must be a number > 1, got 1"),
    ({"name": "concurrent_gang", "beta": 1.5}, {}, {}, r"^policy.beta must be a number in \[0, 1\]"),
    ({"name": "concurrent_gang", "beta": -0.1}, {}, {}, r"^policy.beta must be"),
    ({"name": "gang", "packing": "worst_fit"}, {}, {}, r"^policy.packing must be one of"),
    ({"name": "gang"}, {"slice": 0}, {}, r"^system.slice must be a number of seconds > 0, got 0"),
    ({"name": "gang"}, {"slice": -1.0}, {}, r"^system.slice must be"),
    ({"name": "gang"}, {"processors": 64}, {}, r"^workload 'gang_mixed' draws jobs of up to 128 tasks"),
    ({"name": "gang"}, {"times": [1000, 500]}, {}, r"^system.times must be increasing"),
    ({"name": "gang"}, {"times": [1000.5]}, {}, r"^system.times must be whole numbers of slices"),
    ({"name": "gang"}, {}, {"mix": {"disk": 1}}, r"^workload.mix must map"),
    ({"name": "gang"}, {}, {"sync_imbalance": 2}, r"^workload.sync_imbalance must be"),
    ({"name": "gang"}, {}, {"kind": "lublin"}, r"^workload.kind must be one of jann, gang_swf"),
])
def test_bad_input_is_one_line_naming_the_option(policy, system, workload, match):
    with pytest.raises(ValueError, match=match) as error:
        FAMILY.validate(_point(policy, workload, system))
    assert "\n" not in str(error.value)


def test_bad_input_exits_2_on_the_command_line(capsys):
    from sweep.cli import main

    assert main(["policy=concurrent_gang", "policy.alpha=0.5", "workload=gang_io",
                 "system=gang128"]) == 2
    assert "policy.alpha must be a number > 1" in capsys.readouterr().err


def test_trace_jobs_wider_than_the_machine_are_counted_not_hidden():
    point = _point(workload={"name": "gang_ctc", "kind": "gang_swf", "path": CTC},
                   system={"processors": 64, "times": [20000]})
    FAMILY.validate(point)
    result = FAMILY.simulate(point, np.random.default_rng(0))
    trace = read_swf(CTC)
    procs = np.where(trace.requested_procs > 0, trace.requested_procs, trace.allocated_procs)
    window = trace.submit < trace.submit.min() + 20000
    want = int(np.count_nonzero(window & (procs > 64) & (trace.run_time >= 0)))
    assert want > 0
    assert result.summary["too_wide"] == want == result.attrs["trace_dropped_too_wide"]
    assert result.summary["jobs_arrived"][-1] == np.count_nonzero(window) - want


def test_jann_ranges_are_the_fit_of_the_shipped_ctc_log():
    trace = read_swf(CTC)
    procs = np.where(trace.requested_procs > 0, trace.requested_procs, trace.allocated_procs)
    fitted = fit_ranges(procs, trace.run_time)
    np.testing.assert_allclose(np.array(fitted), np.array(CTC_RANGES), rtol=2e-3, atol=1e-3)


def test_load_sets_the_offered_load_of_the_synthetic_workload():
    jobs = SIM.load_jobs(_point(system={"times": [2_000_000]}, load=0.5), np.random.default_rng(1))
    offered = np.sum(jobs.width * jobs.work) / (128 * 2_000_000)
    assert offered == pytest.approx(0.5, rel=0.1)
    assert jobs.width.max() <= 128 and set(np.unique(jobs.cls)) == {0, 1, 2}


def test_engine_run_has_a_time_dimension_and_common_jobs(tmp_path):
    ds = sweep.run(["grid.policy=[gang,concurrent_gang]", "workload=gang_mixed", "system=gang128",
                    "load=2.0", "system.times=[600,1200]", "system.trace_slices=2", "system.trace_start=100",
                    "replications=2", "engine.backend=serial", "progress=false", "plots=false",
                    f"output={tmp_path / 'g.nc'}"])
    assert list(ds["time"].values) == [600.0, 1200.0]
    assert ds["jobs_completed"].dims[-1] == "time" and ds.sizes["trace_tick"] == 20
    assert list(ds["trace_tick"].values[:2]) == [100.0, 100.1]
    arrived = ds["jobs_arrived"]
    np.testing.assert_array_equal(arrived.sel(policy="gang"), arrived.sel(policy="concurrent_gang"))
    idle = ds["idle_fraction"]
    assert ((idle >= 0) & (idle <= 1)).all()
    assert (ds["jobs_completed"] <= arrived).all()


def test_a_run_without_jobs_is_all_idle():
    result = FAMILY.simulate(_point(system={"times": [10], "trace_slices": 2}, load=1e-6),
                             np.random.default_rng(0))
    assert result.summary["jobs_arrived"][-1] == 0
    assert np.all(result.summary["idle_fraction"] == 1.0) and np.all(result.summary["trace_job"] == -1)
