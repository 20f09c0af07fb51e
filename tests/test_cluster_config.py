"""cluster.yaml is a valid Ray cluster-launcher config (checked offline against Ray's schema)."""

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ray_schema() -> dict:
    import ray

    return json.loads((Path(ray.__file__).parent / "autoscaler" / "ray-schema.json").read_text())


def test_cluster_yaml_matches_rays_schema(ray_schema):
    config = yaml.safe_load((ROOT / "cluster.yaml").read_text())
    jsonschema.validate(config, ray_schema)


def test_schema_check_rejects_a_broken_config(ray_schema):
    """The check above can fail: a misspelt required section is caught."""
    config = yaml.safe_load((ROOT / "cluster.yaml").read_text())
    config["provider"] = {"region": "us-west-2"}  # no provider type
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(config, ray_schema)


def test_nodes_install_the_package():
    config = yaml.safe_load((ROOT / "cluster.yaml").read_text())
    mounted = dict(config["file_mounts"])
    target = next(remote for remote, local in mounted.items() if local == ".")
    assert any(f"pip install -e {target}" in command for command in config["setup_commands"])
