"""The Hydra schemas made from the code (sweep/config/schema.py) and the YAML that extends them.

Generic over the registry and over conf/: a policy, workload or speedup option
added later is checked by the same tests.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from omegaconf import OmegaConf

from sweep.config import schema
from sweep.config.compose import ConfigError, compose, conf_dir, group_options, load_option, plain
from sweep.config.files import config_dirs, paper_folders
from sweep.config.grid import expand
from sweep.families import all_policies, load_families
from sweep.families.malleable import _workload as malleable_workload
from sweep.families.rigid._jobs import prepare
from sweep.families.rigid._options import SwfWorkload
from sweep.workloads.config import KINDS
from sweep.workloads.named import C90_PARAMETERS, J90_PARAMETERS

CONF = conf_dir()
POLICY_FILES = sorted((CONF / "policy").glob("*.yaml"))
WORKLOAD_FILES = sorted(path for folder in config_dirs() for path in (folder / "workload").glob("*.yaml"))


def _raw(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def _extends(path: Path, group: str) -> str:
    """What the option at ``path`` extends: ``schema:<name>`` or ``option:<sibling>``.

    Its defaults list must be exactly [that, _self_]: the schema first, so the
    file's own values are checked against it.
    """
    defaults = _raw(path).get("defaults")
    assert isinstance(defaults, list) and len(defaults) >= 2 and defaults[-1] == "_self_", path
    first = defaults[0]
    prefix = f"/schema/{group}/"
    if isinstance(first, str) and first.startswith(prefix) and first.endswith("@_here_"):
        return "schema:" + first.removeprefix(prefix).removesuffix("@_here_")
    assert isinstance(first, str) and first in group_options(group), f"{path}: extends {first!r}"
    return "option:" + first


def _fields(cls: type) -> dict[str, dataclasses.Field]:
    return {f.name: f for f in dataclasses.fields(cls)}


@pytest.mark.parametrize("path", POLICY_FILES, ids=[p.stem for p in POLICY_FILES])
def test_every_policy_yaml_extends_the_schema_of_a_registered_policy(path):
    extends = _extends(path, "policy")
    own = {k: v for k, v in _raw(path).items() if k != "defaults"}
    composed = load_option("policy", path.stem)
    policy = all_policies()[composed["name"]]
    fields = _fields(policy.params)
    assert set(composed) == {"name", *fields}
    if extends.startswith("schema:"):
        # a policy's own file: the registered name, every parameter at its dataclass default
        assert extends == f"schema:{policy.name}" and own.get("name", policy.name) == policy.name
        assert set(own) - {"name"} == set(fields), f"{path.name} lists the parameters of {policy.name}"
        assert {k: own[k] for k in fields} == {k: f.default for k, f in fields.items()}
    else:
        # a variant (eqs_periodic): another option's policy with some values changed
        assert set(own) <= set(fields) and own, path.name
        assert composed["name"] == load_option("policy", extends.removeprefix("option:"))["name"]


def test_every_registered_policy_has_its_yaml():
    assert set(all_policies()) <= {p.stem for p in POLICY_FILES}


def test_a_variant_keeps_its_option_name_as_the_label():
    cfg = compose(["grid.policy=[eqs,eqs_periodic]", "engine.backend=serial"])
    grid = expand(cfg, ["grid.policy=[eqs,eqs_periodic]"])
    assert grid.axes[0].values == ("eqs", "eqs_periodic")
    periods = {p.position[0]: p.point.policy for p in grid.points}
    assert periods[0]["name"] == periods[1]["name"] == "eqs"
    assert (periods[0]["repartition_period"], periods[1]["repartition_period"]) == (0.0, 500.0)


@pytest.mark.parametrize("path", WORKLOAD_FILES, ids=[p.stem for p in WORKLOAD_FILES])
def test_every_workload_yaml_extends_a_kind_schema_and_is_named_after_its_file(path):
    extends = _extends(path, "workload")
    raw = _raw(path)
    assert raw["name"] == path.stem and "kind" not in raw  # the schema sets the kind
    kinds = {*KINDS, *(kind for family in load_families().values() for kind in family.workloads)}
    if extends.startswith("schema:"):
        assert extends.removeprefix("schema:") in kinds
    assert load_option("workload", path.stem)["kind"] in kinds


@pytest.mark.parametrize(("name", "constants"), [("c90", C90_PARAMETERS), ("j90", J90_PARAMETERS)])
def test_c90_and_j90_take_their_parameters_from_named_py(name, constants):
    raw = _raw(CONF / "workload" / f"{name}.yaml")
    assert set(raw) == {"defaults", "name"}  # the YAML only selects
    assert load_option("workload", name) == {"name": name, "kind": name, **constants}


def test_every_speedup_option_is_one_model_of_the_code():
    options = group_options("workload/speedup")
    assert set(options) == set(malleable_workload.SPEEDUP_MODELS)
    for model in options:
        path = CONF / "workload" / "speedup" / f"{model}.yaml"
        assert _extends(path, "workload/speedup") == f"schema:{model}"
        raw = _raw(path)
        assert raw["model"] == model
        assert set(raw) - {"defaults", "model"} <= set(_fields(malleable_workload.SPEEDUP_MODELS[model]))


def test_the_cv96_workloads_are_malleable_synthetic_with_their_differences():
    base = load_option("workload", "malleable_synthetic")
    fig6a = load_option("workload", "cv96_fig6a")
    assert {**fig6a, "name": base["name"]} == base  # Figure 6(a) is the synthetic default
    figures = sorted((paper_folders()["cv96"] / "conf" / "workload").glob("cv96_fig*.yaml"))
    assert len(figures) == 13
    for path in figures:  # the synthetic model, or a figure's workload it varies (cv96_fig6a_cwn2)
        assert _extends(path, "workload") in {"option:malleable_synthetic",
                                              *(f"option:{p.stem}" for p in figures)}, path.name
    assert load_option("workload", "cv96_fig10b")["speedup"] == {"model": "eq13", "c1": 0.75, "c2": 0.5}
    assert load_option("workload", "cv96_fig7b")["speedup"]["delta"] == {
        "dist": "uniform", "low": 100.0, "high": 200.0, "by_work": False}


def test_malleable_schema_lists_the_options_the_family_reads():
    options = malleable_workload._OPTIONS | set(malleable_workload._OPTIONAL)
    assert set(_fields(malleable_workload.MalleableWorkload)) == options - {"name", "kind"}
    assert {k: _fields(malleable_workload.MalleableWorkload)[k].default
            for k in malleable_workload._OPTIONAL} == malleable_workload._OPTIONAL


def test_swf_schema_is_prepares_keywords_with_its_defaults():
    keywords = {k: p.default for k, p in inspect.signature(prepare).parameters.items()
                if p.kind is p.KEYWORD_ONLY and k not in ("processors", "load", "rng")}
    fields = _fields(SwfWorkload)
    assert {k: fields[k].default for k in keywords} == keywords
    assert set(fields) - set(keywords) == {"path", "rescale_load"}


def test_annotations_omegaconf_cannot_enforce_become_any():
    assert schema.omegaconf_type(float) is float and schema.omegaconf_type(bool) is bool
    assert schema.omegaconf_type(float | None) == typing.Optional[float]  # noqa: UP045
    for annotation in (tuple[str, ...], float | str, Mapping[str, Any], int | str | None, list):
        assert schema.omegaconf_type(annotation) is Any


def test_policy_schema_is_name_and_the_parameter_fields():
    schema.register(conf_dir())
    for name, policy in all_policies().items():
        node = OmegaConf.structured(schema.SCHEMAS[f"schema_policy_{name}"].node)
        fields = _fields(policy.params)
        assert list(node) == ["name", *fields] and node.name == name
        assert all(node[k] == f.default for k, f in fields.items())


def test_unset_options_are_left_out_of_the_plain_config():
    """A speedup option the YAML does not set is not in the dict a family gets (nor in the stream key)."""
    speedup = load_option("workload", "cv96_fig6a")["speedup"]
    assert speedup == {"model": "eq5", "phi_prime": 0.0, "beta_prime": "max"}
    assert "arrival_cv" not in load_option("workload", "malleable_synthetic")


def _error(overrides: list[str]) -> str:
    with pytest.raises(ConfigError) as caught:
        compose(overrides)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_unknown_option_of_a_policy_names_the_policy_and_its_options():
    assert _error(["policy=eqs", "policy.quantum=10"]) == (
        "policy 'eqs' has no option 'quantum'; allowed: fractional, repartition_overhead, repartition_period")


def test_wrong_type_says_what_is_allowed_in_the_params_wording():
    assert _error(["policy=sita_u_rule", "policy.host1_fraction=abc"]) == (
        "policy.host1_fraction must be null or a number in (0, 1), got 'abc'")
    assert _error(["policy=eqs", "policy.fractional=maybe"]) == (
        "policy.fractional must be true or false, got 'maybe'")
    assert _error(["seed=abc"]) == "seed must be an integer in [0, 9223372036854775807], got 'abc'"
    assert _error(["engine.workers=1.5"]) == "engine.workers must be null or an integer >= 1, got 1.5"


def test_unknown_option_of_a_workload_kind_and_of_the_root():
    assert _error(["workload=hyperexp2", "workload.scvv=3"]) == (
        "workload kind 'hyperexp2' has no option 'scvv'; allowed: mean, scv")
    assert _error(["stop.job=3"]).startswith("stop has no option 'job'; allowed: ci_target, ")


def test_a_required_option_left_unset_is_named():
    cfg = compose(["policy=easy", "workload=swf"])  # swf.yaml leaves the trace's path to the user
    with pytest.raises(ConfigError, match=r"^workload.path is required for workload kind 'swf'"):
        plain(cfg)
