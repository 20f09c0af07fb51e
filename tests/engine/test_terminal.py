"""What a finished sweep says (issue 16 §4, §7): the summary line always, a one-point table."""

from __future__ import annotations

import re

import pytest

from sweep.cli import main
from sweep.engine.backends import SERIAL_AT_MOST, choose_backend
from sweep.engine.summary import plural

FAST = ["policy=random", "stop.jobs=2000", "stop.warmup=200", "replications=2", "progress=false",
        "plots=false"]


#: The line a first run on this machine adds (kernels compiling; ``test_compile_once.py``).
COMPILING = "sweep: compiling"


def _run(capsys, tmp_path, *args):
    assert main([*FAST, f"output={tmp_path / 'out.nc'}", *args]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if not line.startswith(COMPILING)]


def test_one_point_prints_its_numbers_and_the_summary_without_progress(capsys, tmp_path):
    lines = _run(capsys, tmp_path, "load=0.5")
    assert lines[0].split() == ["variable", "mean", "90%", "CI", "units"]
    assert any(line.split()[0] == "mean_slowdown" and "±" in line for line in lines[1:-1])
    summary = lines[-1]
    assert summary.startswith("sweep: 1 point x 2 replications (2 runs computed, none saturated)")
    assert summary.endswith(str(tmp_path / "out.nc"))


def test_saturated_points_are_counted_with_their_cause(capsys, tmp_path):
    lines = _run(capsys, tmp_path, "grid.load=[0.5,1.2]")
    assert "1 saturated (1 at offered load >= 1)" in lines[-1]
    assert lines[-1].startswith("sweep: 2 points x 2 replications (4 runs computed")


def test_a_small_sweep_shows_its_headline_over_the_grid(capsys, tmp_path):
    """Issue 29: a multi-point sweep shows the family's headline variable over the grid, each cell the
    mean over replications ± the 90% Student-t half-width, saturated points starred."""
    import numpy as np
    import xarray as xr
    from scipy import stats

    lines = _run(capsys, tmp_path, "grid.load=[0.5,1.2]")
    title, header, row, summary = lines
    assert title == "mean_response (s): mean ± 90% half-width over replications, * saturated"
    assert header.split() == ["load", "0.5", "1.2"]
    values = xr.load_dataset(tmp_path / "out.nc")["mean_response"].squeeze(drop=True)  # load x replication
    means = values.mean("replication").values
    halfwidths = stats.t.ppf(0.95, 1) * values.std("replication", ddof=1).values / np.sqrt(2)
    loads = [0.5, 1.2]
    want = [f"{m:.4g} ± {h:.2g}" + (" *" if load >= 1 else "")
            for m, h, load in zip(means, halfwidths, loads, strict=True)]
    assert row.split("  ")[0] == "mean_response"
    assert [cell.strip() for cell in row.split("  ")[1:] if cell.strip()] == want


def test_a_family_without_a_saturated_flag_shows_its_grid(capsys, tmp_path):
    """Mapping records no ``saturated``: the table has no stars, and no crash (two mappers on the
    command line used to end in "truth value of an array ... is ambiguous")."""
    title, header, row, summary = _run(capsys, tmp_path, "grid.policy=[etf,heft]", "engine.backend=serial")
    assert title == "makespan (time units): mean ± 90% half-width over replications"
    assert header.split() == ["policy", "etf", "heft"] and row.split()[0] == "makespan" and "*" not in row
    assert summary.startswith("sweep: 2 points x 2 replications")


def test_the_summary_line_is_the_last_thing_shown_after_the_progress_bar(capsys, tmp_path):
    """With the progress bar on, the bar is erased at the end: the summary is the last line drawn
    (issue 29: the bar was redrawn below it)."""
    assert main([*FAST, "progress=true", "grid.load=[0.5,0.6]", f"output={tmp_path / 'out.nc'}"]) == 0
    err = capsys.readouterr().err
    assert "pt/s" in err  # the bar was drawn ...
    shown = [line for line in map(_as_a_terminal_shows, err.split("\n")) if line.strip()]
    assert shown[-1].startswith("sweep: 2 points x 2 replications"), shown  # ... and is gone
    # ... and closed before the summary: nothing is written after the summary line, not even a bar
    # erased again (a terminal that keeps carriage returns, a log file, showed it below the line)
    *_, last, after = err.split("\n")
    assert after == "", repr(err[-300:])
    assert last.startswith("sweep: 2 points x 2 replications") and "%|" not in last, repr(err[-300:])
    assert last.endswith(str(tmp_path / "out.nc"))


def _as_a_terminal_shows(line: str) -> str:
    """What stays on screen of one line written with carriage returns (each part overwrites)."""
    screen = ""
    for part in line.split("\r"):
        screen = part + screen[len(part):]
    return screen


def test_plural():
    assert (plural(1, "point"), plural(0, "point"), plural(3, "run")) == ("1 point", "0 points", "3 runs")


@pytest.mark.parametrize(("backend", "address", "tasks", "analytic", "expected"), [
    ("auto", "", SERIAL_AT_MOST, False, "serial"),
    ("auto", "", SERIAL_AT_MOST + 1, False, "ray"),
    ("auto", "", 10_000, True, "serial"),
    ("auto", "auto", 1, False, "ray"),
    ("ray", "", 1, False, "ray"),
    ("serial", "", 10_000, False, "serial"),
])
def test_auto_backend_runs_small_and_closed_form_sweeps_in_process(backend, address, tasks, analytic,
                                                                   expected):
    assert choose_backend(backend, address, tasks, analytic) == expected


def test_trace_jobs_left_out_are_counted_in_the_summary():
    import xarray as xr

    from sweep.engine.summary import dropped_text

    dataset = xr.Dataset(attrs={"trace_dropped_too_many_processors": 437, "trace_dropped_unknown": 0})
    assert dropped_text(dataset) == "; trace jobs left out: 437 too_many_processors"
    assert dropped_text(xr.Dataset()) == ""


def test_a_trace_replayed_as_it_is_has_no_load_dimension(tmp_path):
    """Issue 16 §4, issue 29: KTH without rescale_load is not at load 0.7, so the file has no ``load``
    dimension (the trace's own offered load is the variable ``offered_load``); rescaled to 0.5, it
    has one, and the offered load is 0.5."""
    import sweep

    common = ["policy=easy", "replications=1", "progress=false", "plots=false", "engine.backend=serial"]
    replayed = sweep.run([*common, "workload=kth", f"output={tmp_path / 'a.nc'}"])
    assert "load" not in replayed.dims and "load" not in replayed.coords
    assert replayed["mean_wait"].dims == ("policy", "workload", "replication")
    assert 0 < replayed["offered_load"].item() < 1
    rescaled = sweep.run([*common, "workload=kth_scaled", "load=0.5", f"output={tmp_path / 'b.nc'}"])
    assert rescaled["mean_wait"].dims == ("policy", "workload", "load", "replication")
    assert rescaled["offered_load"].item() == pytest.approx(0.5, rel=1e-6)


#: What a deterministic replay says before it runs (issue 29: "replays pretend").
ONE_REPLICATION = ("sweep: 1 replication (not 2): policy=easy on workload=kth draws no random number "
                   "(a trace replayed as it is), so every replication would be the same run")


def test_a_deterministic_replay_runs_one_replication_and_says_so(capsys, tmp_path):
    """Issue 29: KTH replayed as it is draws nothing at random; by default it runs once, says so in one
    line, and prints neither an interval of 0 nor the load it does not apply."""
    args = ["policy=easy", "workload=kth", "progress=false", "plots=false", f"output={tmp_path / 'e.nc'}"]
    assert main(args) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(COMPILING)]
    assert lines[0] == ONE_REPLICATION
    assert lines[1].split() == ["variable", "mean", "units"]
    assert lines[-1].startswith("sweep: 1 point x 1 replication (1 run computed, none saturated")
    assert not any("±" in line or re.search(r"\bload\b", line) for line in lines)
    import xarray as xr

    written = xr.load_dataset(tmp_path / "e.nc")
    assert dict(written.sizes) == {"policy": 1, "workload": 1, "replication": 1, "month": 12}
    assert "replications: 1" in written.attrs["config"].splitlines()


def test_replications_asked_of_a_deterministic_replay_are_run_and_said_to_repeat(capsys, tmp_path):
    """An explicit number is honoured (identical runs: a determinism check, or one setting across
    workloads) with one line saying the intervals are 0 by construction; an explicit load that the
    replay does not apply is said too."""
    args = ["policy=easy", "workload=kth", "replications=2", "load=0.5", "progress=false", "plots=false",
            f"output={tmp_path / 'e.nc'}"]
    assert main(args) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(COMPILING)]
    assert lines[:2] == [
        "sweep: replications=2 of policy=easy on workload=kth, which draws no random number (a trace "
        "replayed as it is): 2 identical runs, whose intervals are 0 by construction, not a measure of noise",
        "sweep: load=0.5 is not applied: policy=easy on workload=kth replays its trace as it is (its own "
        "load is the variable offered_load; workload.rescale_load=true scales the trace to a load)"]
    assert lines[-1].startswith("sweep: 1 point x 2 replications (2 runs computed")


def test_a_replay_with_random_draws_keeps_the_default_replications(capsys, tmp_path):
    """Submit times jittered (workload.submit_jitter): the replays differ, two replications, no note."""
    args = ["policy=easy", "workload=kth", "workload.split=none", "workload.submit_jitter=1",
            "progress=false", "plots=false", "engine.backend=serial", f"output={tmp_path / 'e.nc'}"]
    assert main(args) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(COMPILING)]
    assert lines[0].split() == ["variable", "mean", "90%", "CI", "units"]
    assert lines[-1].startswith("sweep: 1 point x 2 replications (2 runs computed")


def test_sweep_run_is_quiet_unless_asked(capsys, tmp_path):
    """From Python a sweep prints nothing (issue 29); ``verbose=True`` prints what the command does."""
    import sweep

    args = [*FAST, "load=0.5", "progress=true"]
    sweep.run([*args, f"output={tmp_path / 'quiet.nc'}"])
    assert capsys.readouterr().err == ""
    sweep.run([*args, f"output={tmp_path / 'loud.nc'}"], verbose=True)
    err = capsys.readouterr().err
    assert "pt/s" in err  # the progress bar
    lines = [line for line in err.splitlines()
             if line.strip() and "pt/s" not in line and not line.startswith(COMPILING)]
    assert lines[0].split()[0] == "variable", err  # the one-point table ...
    assert lines[-1].startswith("sweep: 1 point x 2 replications"), err  # ... and the summary


def test_options_a_closed_form_does_not_read_are_said(capsys, tmp_path):
    """Issue 29 (no silent ignoring): stop.* and record_jobs take no effect with model=analytic, said in
    one line before the run; without them, nothing is said."""
    args = ["policy=lwl", "workload=c90", "model=analytic", "progress=false", "plots=false"]
    assert main([*args, "stop.jobs=500", "record_jobs=true", f"output={tmp_path / 'a.nc'}"]) == 0
    assert capsys.readouterr().err.splitlines()[:2] == [ANALYTIC_ONCE, (
        "sweep: stop.jobs=500 record_jobs=true: no effect with model=analytic, which computes each point's "
        "closed form (no job is simulated)")]
    assert main([*args, f"output={tmp_path / 'b.nc'}"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0] == ANALYTIC_ONCE and said[1].split() == ["variable", "mean", "units"]


ANALYTIC_ONCE = ("sweep: 1 replication (not 2): policy=lwl on workload=c90 draws no random number "
                 "(model=analytic: a closed form), so every replication would be the same run")


def test_a_closed_form_runs_once_by_default_and_as_often_as_asked(capsys, tmp_path):
    """A closed form draws no random number: as a replay, one replication unless asked, said in one line;
    asked for two, the two are the same and the line says their interval of 0 measures nothing."""
    args = ["policy=lwl", "workload=c90", "model=analytic", "grid.load=[0.5,0.7]", "progress=false",
            "plots=false"]
    assert main([*args, f"output={tmp_path / 'a.nc'}"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == ANALYTIC_ONCE and lines[-1].startswith("sweep: 2 points x 1 replication (2 runs")
    assert main([*args, "replications=2", f"output={tmp_path / 'b.nc'}"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        "sweep: replications=2 of policy=lwl on workload=c90, which draws no random number (model=analytic: "
        "a closed form): 2 identical runs, whose intervals are 0 by construction, not a measure of noise")


def test_the_bar_says_compiling_until_the_first_results_come_back():
    """Issue 29: a first run compiles for minutes before any point is done; the bar says so (it sat at
    ``0/596`` with no word), and drops the word when results come back."""
    from sweep.engine.progress import Progress

    progress = Progress(4, 0, enabled=False, phase="compiling")
    assert progress.description == "sweep (compiling)"
    progress.update(1, 100)
    assert progress.description == "sweep"
    assert Progress(4, 0, enabled=False).description == "sweep"
