"""recipes/onprem.yaml, the on-premises recipe (issue 18 §5): Ray's ``local`` provider with a list
of hosts. Checked offline as far as no machine is reached: Ray's schema, the preparation
``ray up`` applies before it connects (which refuses a config without its hosts), and what
makes the cluster run sweep: hosts set, the package installed into the environment Ray is
started from, and a header whose sweep command joins the cluster and composes."""

import ipaddress

import click
import jsonschema
import pytest
from ray.autoscaler._private.util import prepare_config, validate_config

from sweep.config.compose import compose
from tests.recipes._launcher import header_commands, installed_package_path, load, rays_schema, sweep_commands

RECIPE = "recipes/onprem.yaml"


def test_it_matches_rays_schema():
    jsonschema.validate(load(RECIPE), rays_schema())


def test_ray_up_prepares_it_keeping_every_host():
    """``ray up`` fills the provider's defaults and one node type of the listed hosts, then checks
    the schema again (Ray's ``prepare_config`` and ``validate_config``, what it runs before SSH)."""
    config = load(RECIPE)
    prepared = prepare_config(config)
    validate_config(prepared)
    [node_type] = prepared["available_node_types"].values()
    hosts = len(config["provider"]["worker_ips"])
    assert node_type["min_workers"] == node_type["max_workers"] == hosts


def test_ray_up_refuses_it_without_a_head():
    """The preparation above can fail: without ``head_ip`` Ray stops with its own message."""
    config = load(RECIPE)
    del config["provider"]["head_ip"]
    with pytest.raises(click.ClickException, match="head_ip"):
        prepare_config(config)


def test_the_hosts_are_distinct_addresses():
    provider = load(RECIPE)["provider"]
    hosts = [provider["head_ip"], *provider["worker_ips"]]
    assert provider["worker_ips"] and len(set(hosts)) == len(hosts)
    for host in hosts:
        ipaddress.ip_address(host)


def test_every_machine_installs_sweep_where_ray_is_started_from():
    """Ray's workers import sweep: the ``ray`` that starts each node is the one of the
    environment the repository is installed into."""
    config = load(RECIPE)
    environment = config["setup_commands"][0].split()[-1]  # test -d ENV || python3 -m venv ENV
    assert f"python3 -m venv {environment}" in config["setup_commands"][0]
    install = f"{environment}/bin/python -m pip install -e {installed_package_path(config)}"
    assert install in config["setup_commands"]
    for command in (*config["head_start_ray_commands"], *config["worker_start_ray_commands"]):
        assert command.startswith(f"{environment}/bin/ray "), command


def test_the_header_launches_this_file_and_a_sweep_that_joins_the_cluster():
    config = load(RECIPE)
    environment = config["setup_commands"][0].split()[-1]
    verbs = {words[1] for words in header_commands(RECIPE) if RECIPE in words}
    assert {"up", "exec", "attach", "down"} <= verbs
    [command] = sweep_commands(RECIPE)
    assert command[0] == f"{environment}/bin/sweep" and "engine.address=auto" in command
    compose(command[1:])
