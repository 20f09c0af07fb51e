"""Hydra's command line, really (issue 16 §2): flags, override grammar, -m, user configs, completion."""

from __future__ import annotations

import pytest
import xarray as xr
import yaml

from sweep.cli import main

FAST = ["engine.backend=serial", "stop.jobs=1000", "stop.warmup=0", "replications=1", "progress=false",
        "plots=false"]


def _out(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _error(capsys, *args: str) -> str:
    assert main(list(args)) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("sweep: error: "), lines
    return lines[0]


@pytest.fixture
def user_conf(tmp_path):
    """A user's own folder of configs: a policy option and an experiment."""
    (tmp_path / "policy").mkdir()
    (tmp_path / "policy" / "patient_slack.yaml").write_text(
        "defaults:\n  - /schema/policy/slack@_here_\n  - _self_\nname: slack\nslack_factor: 7.0\n")
    return tmp_path


def test_help_lists_every_group_with_its_options(capsys):
    text = _out(capsys, "--help")
    assert "== Configuration groups ==" in text
    groups = {line.split(":")[0] for line in text.splitlines() if ": " in line and not line.startswith(" ")}
    assert {"policy", "workload", "system", "experiment", "workload/speedup"} <= groups
    assert "sita_u_opt" in text and "ipg00_table5" in text and "--cfg" in text


def test_cfg_job_prints_the_composed_config_and_runs_nothing(capsys, tmp_path):
    text = _out(capsys, "--cfg", "job", "policy=easy", f"output={tmp_path / 'never.nc'}")
    config = yaml.safe_load(text)
    assert config["policy"]["name"] == "easy" and config["workload"]["name"] == "kth"
    assert "hydra" not in config and not list(tmp_path.iterdir())
    assert "hydra" in yaml.safe_load(_out(capsys, "-c", "hydra"))
    stop = _out(capsys, "--cfg", "job", "--package", "stop", "stop.jobs=123")
    assert stop.startswith("# @package stop") and yaml.safe_load(stop)["jobs"] == 123


def test_info_prints_the_search_path_and_the_choices(capsys):
    text = _out(capsys, "--info", "policy=easy")
    assert "Config search path" in text and "policy: easy" in text and "system: sp2_128" in text


def test_multirun_sweeps_become_axes_of_one_dataset(capsys, tmp_path):
    output = tmp_path / "m.nc"
    assert main(["-m", "policy=random,lwl", "load=range(0.5,0.9,0.2)", *FAST, f"output={output}"]) == 0
    dataset = xr.load_dataset(output)
    assert list(dataset["policy"].values) == ["random", "lwl"]
    assert dataset.sizes["load"] == 2


def test_a_sweep_without_multirun_says_what_to_do(capsys):
    line = _error(capsys, "load=0.5,0.6", *FAST)
    assert "add -m" in line and "grid.load=[...]" in line


def test_deleting_a_key(capsys, tmp_path):
    text = _out(capsys, "--cfg", "job", "experiment=quickstart", "~grid")
    assert yaml.safe_load(text).get("grid") in (None, {})
    assert "set it (key=value) instead of deleting it" in _error(capsys, "~stop", "engine.backend=serial")


def test_a_users_config_dir_adds_options(capsys, user_conf):
    for flags in (["--config-dir", str(user_conf)], [f"hydra.searchpath=[file://{user_conf}]"]):
        text = _out(capsys, "--cfg", "job", "--package", "policy", *flags, "policy=patient_slack")
        assert yaml.safe_load(text.split("\n", 1)[1])["slack_factor"] == 7.0
    assert "patient_slack" in _out(capsys, "--help", "--config-dir", str(user_conf))
    assert "'patient_slack'" in _error(capsys, "policy=patient_slack", *FAST)  # not without the folder


def test_shell_completion_installs_and_completes_options(capsys, monkeypatch):
    assert "complete -o nospace" in _out(capsys, "--shell-completion", "install=bash")
    monkeypatch.setenv("COMP_LINE", "sweep policy=sita_u")
    monkeypatch.setenv("COMP_POINT", str(len("sweep policy=sita_u")))
    assert set(_out(capsys, "-sc", "query=bash").split()) == {
        "policy=sita_u_fair", "policy=sita_u_opt", "policy=sita_u_rule"}
    assert "--shell-completion expects" in _error(capsys, "-sc", "install=tcsh")


@pytest.mark.parametrize("args", [["--config-name", "other"], ["--bogus"], ["--cfg", "everything"]])
def test_unsupported_or_unknown_flags_are_one_line(capsys, args):
    _error(capsys, *args)


def test_help_imports_nothing_heavy():
    """``sweep --help`` lists every group and option from the YAML folders alone (issue 29: fast start):
    neither numba, scipy, Ray nor xarray is imported, nor any family."""
    import subprocess
    import sys

    probe = ("import sys, io, contextlib\nfrom sweep.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()) as out:\n    status = main(['--help'])\n"
             "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'scipy', 'ray', 'xarray'})\n"
             "families = sorted(m for m in sys.modules if m.startswith('sweep.families'))\n"
             "print(status, 'policy: ' in out.getvalue(), heavy, families)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split("\n")[0] == "0 True [] []", done.stdout + done.stderr
