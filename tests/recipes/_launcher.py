"""What the checks of the cluster-launcher recipes (cluster.yaml, recipes/onprem.yaml) share."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def rays_schema() -> dict:
    """The JSON schema of cluster-launcher configs that ships with Ray (what `ray up` checks)."""
    import ray

    return json.loads((Path(ray.__file__).parent / "autoscaler" / "ray-schema.json").read_text())


def load(recipe: str) -> dict:
    return yaml.safe_load((ROOT / recipe).read_text())


def header_commands(recipe: str) -> list[list[str]]:
    """The shell commands of the recipe's opening comment (lines ``#   ray ...``), as words."""
    commands = []
    for line in (ROOT / recipe).read_text().splitlines():
        if not line.startswith("#"):
            break
        text = line.lstrip("# ").split("  #")[0]
        if text.startswith("ray "):
            commands.append(shlex.split(text))
    return commands


def sweep_commands(recipe: str) -> list[list[str]]:
    """The sweep commands the header runs on the head node (``ray exec CONFIG 'sweep ...'``)."""
    return [shlex.split(words[-1]) for words in header_commands(recipe) if words[1] == "exec"]


def installed_package_path(config: dict) -> str:
    """Where the repository lands on the nodes (the file mount of ``.``)."""
    return next(remote for remote, local in config["file_mounts"].items() if local == ".")
