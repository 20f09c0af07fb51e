"""Config groups that mirror the code: family defaults, any group as a grid axis, nested choices.

The four commands the issue must show run end to end here (tiny stop sizes, serial).
"""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import sweep
from sweep.config.compose import ConfigError, compose, group_options, plain
from sweep.config.grid import expand
from sweep.families import family_of, load_families

TINY = ["engine.backend=serial", "progress=false", "plots=false", "replications=1", "stop.jobs=2000",
        "stop.warmup=200"]


def _run(tmp_path, *args: str):
    return sweep.run([*args, *TINY, f"output={tmp_path / 'out.nc'}"])


def _config(dataset) -> dict:
    return yaml.safe_load(dataset.attrs["config"])


@pytest.mark.parametrize("policy", ["easy", "eqs", "sita_e"])
def test_a_policy_named_alone_runs_on_its_familys_workload_and_system(tmp_path, policy):
    family = family_of(policy)
    dataset = _run(tmp_path, f"policy={policy}")
    assert list(dataset["workload"].values) == [family.default_workload]
    config = _config(dataset)
    assert config["workload"]["name"] == family.default_workload
    assert config["system"] == plain(compose([f"system={family.default_system}"]))["system"]
    assert np.isfinite(dataset["mean_response"]).all()


def test_every_family_default_is_an_option_of_conf():
    for family in load_families().values():
        cfg = compose([f"workload={family.default_workload}", f"system={family.default_system}"])
        assert cfg.hydra.runtime.choices.workload == family.default_workload


def test_an_experiments_choice_is_kept():
    choices = compose(["experiment=tf99_table1"]).hydra.runtime.choices
    assert (choices.workload, choices.system) == ("kth", "sp2_128")
    choices = compose(["experiment=quickstart", "workload=j90"]).hydra.runtime.choices
    assert choices.workload == "j90"


def test_a_grid_of_one_familys_policies_takes_that_familys_defaults():
    choices = compose(["grid.policy=[eqs,fb_pws,eqs_periodic]"]).hydra.runtime.choices
    assert (choices.workload, choices.system) == ("malleable_synthetic", "mpp128")


def test_policies_of_several_families_need_an_explicit_workload():
    with pytest.raises(ConfigError, match=r"^the policies random \(dispatch\), easy \(rigid\) are of "
                                          r"different families") as caught:
        compose(["grid.policy=[random,easy]"])
    assert "\n" not in str(caught.value)
    compose(["grid.policy=[random,easy]", "workload=kth", "system=sp2_128"])  # chosen: no default needed


def test_a_workload_given_alone_keeps_the_family_system():
    choices = compose(["policy=easy", "workload=kth_scaled"]).hydra.runtime.choices
    assert (choices.workload, choices.system) == ("kth_scaled", "sp2_128")


def test_system_as_a_grid_axis(tmp_path):
    """EASY on the KTH trace at 100 and at 128 processors: a `system` dimension with its option names.

    The smaller machine waits longer over the year (about 6.7-7.2 ks against ~4 ks at 128).
    """
    dataset = _run(tmp_path, "grid.system=[sp2_100,sp2_128]", "policy=easy", "workload=kth")
    # no load dimension: a trace replayed as it is does not apply it (issue 29)
    assert dataset["mean_wait"].dims[:4] == ("policy", "workload", "system", "replication")
    assert list(dataset["system"].values) == ["sp2_100", "sp2_128"]
    wait = dataset["mean_wait"].squeeze()
    assert float(wait.sel(system="sp2_100")) > float(wait.sel(system="sp2_128"))


def test_a_grid_axis_over_an_unknown_group_option_is_one_line():
    cfg = compose(["grid.system=[sp2_100,sp2_200]", "policy=easy"])
    with pytest.raises(ConfigError) as caught:
        expand(cfg, ["grid.system=[sp2_100,sp2_200]", "policy=easy"])
    assert str(caught.value) == f"unknown system 'sp2_200'; allowed: {', '.join(group_options('system'))}"


def test_speedup_model_chosen_on_the_command_line(tmp_path):
    args = ["policy=eqs", "workload=malleable_synthetic", "workload.speedup.model=linear"]
    assert plain(compose(args))["workload"]["speedup"] == {"model": "linear"}
    chosen = plain(compose([*args[:2], "workload/speedup=linear"]))
    assert chosen["workload"]["speedup"] == {"model": "linear"}
    dataset = _run(tmp_path, *args)
    assert _config(dataset)["workload"]["speedup"] == {"model": "linear"}
    assert np.isfinite(dataset["mean_response"]).all()


def test_a_model_switch_keeps_the_options_set_on_the_command_line():
    cfg = compose(["policy=eqs", "workload.speedup.model=eq2", "workload.speedup.phi=1.5"])
    assert plain(cfg)["workload"]["speedup"] == {"model": "eq2", "phi": 1.5, "alpha": 0.0, "beta": 0.0}


def test_an_option_left_from_another_speedup_model_names_its_model():
    with pytest.raises(ConfigError) as caught:
        compose(["policy=eqs", "workload=cv96_fig5", "workload.speedup.model=linear"])
    assert str(caught.value).startswith("workload.speedup.phi_prime belongs to speedup model eq5, not linear")


def test_speedup_model_as_a_grid_axis():
    args = ["policy=eqs", "grid.workload.speedup.model=[eq5,linear]"]
    grid = expand(compose(args), args)
    assert [a.dim for a in grid.axes] == ["policy", "workload", "load", "speedup"]
    assert grid.axes[3].values == ("eq5", "linear")
    speedups = [p.point.workload["speedup"] for p in grid.points]
    assert speedups == [{"model": "eq5", "phi_prime": 0.0, "beta_prime": "max"}, {"model": "linear"}]
    assert grid.points[0].stream != grid.points[1].stream  # the speedup is part of the workload


def test_a_key_inside_a_group_axis_is_set_after_the_option():
    args = ["policy=eqs", "grid.workload.speedup.phi_prime=[0.0,0.01]", "grid.workload/speedup=[eq5,eq2]"]
    grid = expand(compose(args), args)
    by_position = {p.position: p.point.workload["speedup"] for p in grid.points}
    assert by_position[(0, 0, 0, 1, 0)] == {"model": "eq5", "phi_prime": 0.01, "beta_prime": "max"}
    assert by_position[(0, 0, 0, 1, 1)]["model"] == "eq2" and "phi_prime" not in by_position[(0, 0, 0, 1, 1)]


def test_experiment_is_not_a_grid_axis():
    with pytest.raises(ConfigError, match="experiment cannot be a grid axis"):
        compose(["grid.experiment=[quickstart,sh00_fig2]"])


def test_a_key_of_the_default_workload_can_be_set_without_choosing_it():
    # lwl alone runs on its family's default workload, C90
    assert plain(compose(["policy=lwl", "workload.alpha=1.6"]))["workload"]["alpha"] == 1.6
    settings = plain(compose(["experiment=tf99_table1", "system.processors=100"]))
    assert settings["system"] == {"processors": 100} and settings["workload"]["name"] == "kth"


def test_a_swept_group_composes_its_first_option_as_the_main_one():
    args = ["grid.workload=[c90,j90]", "policy=lwl", "workload.alpha=1.6"]
    grid = expand(compose(args), args)
    assert [p.point.workload["alpha"] for p in grid.points] == [1.6, 1.6]  # set in both options
    assert [p.point.workload["k"] for p in grid.points] == [69190.0, 57519.0]
