"""cluster.yaml, the cloud recipe (AWS), is a valid Ray cluster-launcher config (checked offline
against Ray's schema) whose nodes install sweep and whose header runs a valid sweep."""

import jsonschema
import pytest

from sweep.config.compose import compose
from tests.recipes._launcher import installed_package_path, load, rays_schema, sweep_commands

RECIPE = "cluster.yaml"


@pytest.fixture(scope="module")
def ray_schema() -> dict:
    return rays_schema()


def test_cluster_yaml_matches_rays_schema(ray_schema):
    jsonschema.validate(load(RECIPE), ray_schema)


def test_schema_check_rejects_a_broken_config(ray_schema):
    """The check above can fail: a misspelt required section is caught."""
    config = load(RECIPE)
    config["provider"] = {"region": "us-west-2"}  # no provider type
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(config, ray_schema)


def test_nodes_install_the_package():
    config = load(RECIPE)
    target = installed_package_path(config)
    assert any(f"pip install -e {target}" in command for command in config["setup_commands"])


def test_the_sweep_it_shows_joins_the_cluster_and_composes():
    [command] = sweep_commands(RECIPE)
    assert command[0] == "sweep" and "engine.address=auto" in command
    compose(command[1:])
