"""Bad input: one line naming the problem and the allowed values, exit 2, before any work (issue 2)."""

from __future__ import annotations

import gzip
import subprocess
import sys

import pytest

from sweep.cli import main

FAST = ["engine.backend=serial", "stop.jobs=1000", "stop.warmup=0", "replications=1", "progress=false"]


def test_unknown_policy_lists_the_allowed_names(error_line):
    line = error_line([*FAST, "policy=fastest"])
    assert "'fastest'" in line and "random" in line and "sita_e" in line


def test_unknown_policy_on_the_grid(error_line):
    line = error_line([*FAST, "grid.policy=[random,fastest]", "output=unused.nc"])
    assert "'fastest'" in line and "lwl" in line


def test_unknown_workload(error_line):
    line = error_line([*FAST, "workload=c91"])
    assert "'c91'" in line and "c90" in line


def test_grid_over_unknown_key(error_line):
    line = error_line([*FAST, "grid.system.nodes=[2,4]"])
    assert "system.nodes" in line


def test_unknown_plain_key(error_line):
    line = error_line([*FAST, "replicatoins=3"])
    assert "replicatoins" in line


@pytest.mark.parametrize("hosts", ["0", "-2"])
def test_hosts_below_one(error_line, hosts):
    line = error_line([*FAST, f"system.hosts={hosts}"])
    assert "hosts" in line


@pytest.mark.parametrize("load", ["-0.5", "0", "abc"])
def test_bad_load(error_line, load):
    line = error_line([*FAST, f"load={load}"])
    assert "load" in line


def test_bad_load_on_the_grid(error_line):
    line = error_line([*FAST, "grid.load=[0.5,-1]"])
    assert "load" in line


def test_missing_trace_file(error_line, tmp_path):
    missing = tmp_path / "no-such-trace.swf"
    line = error_line([*FAST, "workload=ctc", f"workload.path={missing}"])
    assert "no-such-trace.swf" in line


def test_malformed_trace_file(error_line, tmp_path):
    bad = tmp_path / "bad.swf.gz"
    with gzip.open(bad, "wt") as handle:
        handle.write("; MaxProcs: 8\n1 0 0 100 8 -1 -1 8 200 -1 1 1 1 1 1 1 -1 -1\n2 10 zero\n")
    line = error_line([*FAST, "workload=ctc", f"workload.path={bad}"])
    assert "bad.swf.gz" in line and ":3" in line


def test_bad_engine_option(error_line):
    line = error_line([*FAST, "engine.backend=dask"])
    assert "ray" in line and "serial" in line


def test_a_cluster_address_with_the_serial_backend_is_refused(error_line):
    """Issue 29: ``engine.backend=serial`` ran in this process and ignored the address silently."""
    line = error_line([*FAST, "engine.address=auto"])
    assert "engine.address=auto" in line and "engine.backend=serial" in line


def test_command_line_exit_status_and_no_traceback():
    result = subprocess.run([sys.executable, "-m", "sweep.cli", "policy=fastest"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0


def test_load_at_or_above_one_is_marked_saturated_not_hung(tmp_path):
    import sweep

    dataset = sweep.run(["grid.policy=[random,lwl]", "grid.load=[0.5,1.0,1.5]", f"output={tmp_path / 's.nc'}",
                         *FAST])
    saturated = dataset["saturated"].all("replication")
    assert not saturated.sel(load=0.5).any()
    assert saturated.sel(load=[1.0, 1.5]).all()


@pytest.mark.parametrize(("option", "name"), [("stop.ci_target=1.5", "stop.ci_target"),
                                              ("stop.max_jobs=-3", "stop.max_jobs"),
                                              ("stop.jobs=0", "stop.jobs"),
                                              ("stop.control_variate=true", "stop.control_variate")])
def test_bad_stop_rule(error_line, option, name):
    assert name in error_line([*FAST, option])


@pytest.mark.parametrize(("args", "family"), [
    (["stop.ci_target=0.05", "stop.max_jobs=100000"], "dispatch"),
    (["stop.control_variate=demand"], "dispatch"),
    (["experiment=tf99_table1", "stop.ci_target=0.05"], "rigid"),
    (["policy=rate_of_change", "stop.ci_target=0.05"], "balancing"),
    (["policy=heft", "stop.ci_target=0.05"], "mapping"),
    (["policy=gang", "stop.control_variate=demand"], "gang")])
def test_sequential_stop_options_are_refused_where_a_family_ignores_them(error_line, args, family):
    """Only the malleable family stops sequentially: a CI target elsewhere is an error, not dropped
    (the balancing and mapping families ignored it before)."""
    line = error_line([*FAST, *args])
    assert line.startswith(f"sweep: error: stop.ci_target and stop.control_variate are not supported by "
                           f"the {family} "
                           f"family (only malleable)"), line


def test_analytic_model_refused_for_a_family_without_closed_forms(error_line):
    line = error_line([*FAST, "policy=easy", "model=analytic", "output=unused.nc"])
    assert "model=analytic" in line and "rigid" in line


def test_malformed_cluster_address_is_one_line():
    from sweep.config.compose import ConfigError
    from sweep.engine.backends import _check_reachable

    with pytest.raises(ConfigError, match="expected auto, host:port or ray://host:port"):
        _check_reachable("nonsense")


def test_unreachable_cluster_is_one_line_within_seconds(capsys, tmp_path, monkeypatch):
    """No traceback and no 36 s wait: the address is checked before Ray is asked (issue 16 §5)."""
    import time

    import ray

    from sweep.config.compose import ConfigError
    from sweep.engine.backends import CONNECT_TIMEOUT, _check_reachable

    started = time.perf_counter()  # the wait itself (not the machine's load): the check's timeout
    with pytest.raises(ConfigError):
        _check_reachable("ray://localhost:1")
    assert time.perf_counter() - started < CONNECT_TIMEOUT + 2
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a fresh process
    status = main(["engine.backend=ray", "engine.address=ray://localhost:1", "progress=false",
                   f"output={tmp_path / 'unused.nc'}"])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert status == 2
    assert err == ["sweep: error: engine.address='ray://localhost:1': no Ray cluster answers at "
                   f"localhost:1 within {CONNECT_TIMEOUT:.0f} s"]
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("args", "family"), [
    (["policy=random", "workload=kth", "system=sp2_128"], "dispatch"),
    (["policy=easy", "system=distributed"], "rigid"),
])
def test_a_policy_on_another_familys_machine_names_the_mismatch(error_line, args, family):
    line = error_line([*FAST, *args, "output=unused.nc"])
    assert f"is not a machine of the {family} family" in line


def test_a_load_axis_over_a_trace_replayed_as_it_is_is_refused(error_line):
    line = error_line([*FAST, "policy=easy", "workload=kth", "grid.load=[0.5,0.7]", "output=unused.nc"])
    assert "the load is not applied" in line and "workload.rescale_load=true" in line


RIGID = [*FAST, "policy=easy", "workload=kth", "system.processors=8"]
JOB = "1 0 0 100 4 -1 -1 {procs} 200 -1 1 1 1 1 1 1 -1 -1\n"


@pytest.mark.parametrize(("text", "expected"), [
    ("", "the trace has no job to run on 8 processors (it holds no jobs)"),
    ("; MaxProcs: 8\n; UnixStartTime: 0\n", "(it holds no jobs)"),
    (JOB.format(procs=16), "(dropped: 1 too many processors)"),
    (JOB.format(procs="99999999999999999999999"), "field requested_procs is too large"),
])
def test_a_trace_without_a_job_to_run_is_one_line(error_line, tmp_path, text, expected):
    """Issue 30: an empty or header-only SWF ran to exit 0 with every variable NaN, and a requested
    processor count beyond 64 bits became INT64_MIN with only numpy's warning."""
    trace = tmp_path / "t.swf"
    trace.write_text(text)
    assert expected in error_line([*RIGID, f"workload.path={trace}"])


def test_a_trace_that_is_not_a_regular_file_is_refused_not_read_forever(error_line):
    assert "not a regular file" in error_line([*RIGID, "workload.path=/dev/zero"])


@pytest.mark.parametrize("gap", ["nan", "inf"])
def test_priority_gap_must_be_finite(error_line, gap):
    """NaN is the slack code's own marker of a job without priority: as a gap it changed the results."""
    assert "workload.priority_gap must be a finite number" in error_line(
        [*RIGID, "workload.priority_every=5", f"workload.priority_gap={gap}"])


@pytest.mark.parametrize(("entry", "expected"), [("pkg://planted", "is not a package folder holding YAML"),
                                                 ("pkg://planted/inner", "is not a package folder"),
                                                 ("pkg://json", "is not a package folder holding YAML"),
                                                 ("pkg://os", "'os' is not an installed package")])
def test_a_search_path_package_is_found_without_running_it(error_line, tmp_path, monkeypatch, entry,
                                                            expected):
    """Issue 30 §2: ``hydra.searchpath=[pkg://module]`` imported any installed module before failing."""
    package = tmp_path / "planted"
    package.mkdir()
    marker = tmp_path / "ran"
    (package / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert expected in error_line([*FAST, f"hydra.searchpath=[{entry}]"])
    assert not marker.exists()


@pytest.mark.parametrize(("args", "expected"), [
    (["load=1e-300"], "load must be a finite number >= 1e-10, got 1e-300"),
    (["grid.load=[0.5,inf]"], "load must be a finite number >= 1e-10, got inf"),
    (["+stop.bogus=1"], "unknown option stop.bogus; allowed: ci_target"),
    (["+foo=1"], "unknown option foo; allowed: design"),
    (["+engine.speed=2"], "unknown option engine.speed"),
    (["seed=18446744073709551616"], "seed must be an integer in [0, 9223372036854775807]"),
    (["design=lhs", "design.samples=0", "+design.params.load=[0.1,0.9]"],
     "design.samples must be an integer >= 1"),
    (["replications=1000000000000"], "= 1,000,000,000,000 runs; one output holds at most"),
    (["grid.load=range(0.0001,1,0.000001)"], "has more than 10,000 values"),
    (["grid.seed=range(0,2000)", "grid.system.hosts=range(1,1000)"], "the sweep has 1,998,000 points"),
])
def test_bad_values_that_were_tracebacks_or_hangs_are_one_line(error_line, args, expected):
    """Issue 30 §3-4: each of these was a traceback, a silently stored key, or minutes of silence."""
    assert expected in error_line([*FAST, *args])


def test_a_yaml_tag_in_a_users_config_is_one_line_naming_the_file(error_line, tmp_path):
    experiments = tmp_path / "experiment"
    experiments.mkdir()
    (experiments / "tagged.yaml").write_text("# @package _global_\npolicy: !!python/name:os.system\n")
    line = error_line([*FAST, "--config-dir", str(tmp_path), "experiment=tagged"])
    assert "tagged.yaml:2: could not determine a constructor" in line


def test_an_anchor_bomb_in_a_users_config_is_refused_before_hydra_expands_it(error_line, tmp_path):
    """Issue 30 §4: eight aliases of ten aliases each expand to 10^9 values (Hydra never finished)."""
    experiments = tmp_path / "experiment"
    experiments.mkdir()
    lines = ["# @package _global_", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    (experiments / "bomb.yaml").write_text("\n".join(lines) + "\n")
    line = error_line([*FAST, "--config-dir", str(tmp_path), "experiment=bomb"])
    assert "bomb.yaml: its aliases (*name) expand to more than 1,000,000 values" in line


@pytest.mark.parametrize(("make", "expected"), [
    (lambda folder: "/dev/zero", "/dev/zero: not a regular file"),
    (lambda folder: _write(folder / "deep.json", "[" * 100_000), "JSON nested too deeply")])
def test_a_task_graph_file_that_cannot_be_one_is_one_line(error_line, tmp_path, make, expected):
    """Issue 30 §3-4: a JSON graph of 100,000 nested '[' was a RecursionError, /dev/zero read forever."""
    line = error_line([*FAST, "policy=heft", "workload=task_graph_file", f"workload.path={make(tmp_path)}"])
    assert expected in line


def _write(path, text: str):
    path.write_text(text)
    return path
