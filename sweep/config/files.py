"""Where the configuration lives: sweep's own YAML folder, the user's, and the options of each group.

Light on purpose (no Hydra, no families, no scipy): ``sweep --help`` lists every
config group and its options from here alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

from sweep.errors import ConfigError

#: The entry point groups of installed packages' policies and families (``sweep.families``).
PLUGIN_GROUPS = ("sweep.policies", "sweep.families")


def conf_dir() -> Path:
    """The folder holding sweep's own ``config.yaml`` and option files: ``sweep/conf``, package
    data of every wheel (the repository's top-level ``conf`` is a link to it)."""
    return Path(__file__).resolve().parents[1] / "conf"


#: Folders of the user's own configs (``--config-dir``, ``hydra.searchpath``), searched after
#: :func:`conf_dir`; set by :func:`use_search_path` (``compose`` calls it with its overrides).
_user_dirs: tuple[Path, ...] = ()


def config_dirs() -> tuple[Path, ...]:
    """Every folder configs are read from: sweep's own, then the user's, in Hydra's order."""
    return (conf_dir(), *_user_dirs)


def _search_path_dirs(entries: Sequence[str]) -> tuple[Path, ...]:
    """Folders of ``hydra.searchpath`` entries (``file://dir``, ``pkg://module.path``, or a path)."""
    folders = []
    for entry in entries:
        folder = _package_folder(entry) if entry.startswith("pkg://") else \
            Path(entry.removeprefix("file://")).expanduser()
        if not folder.is_dir():
            raise ConfigError(f"hydra.searchpath: {entry!r} is not a folder")
        folders.append(folder.resolve())
    return tuple(folders)


def _package_folder(entry: str) -> Path:
    """The folder of ``pkg://package/sub/folder``, found without importing (running) the package: only
    an installed package's folder that holds YAML configs may be searched (issue 30 §2)."""
    import importlib.util

    top, *inner = entry.removeprefix("pkg://").replace(".", "/").strip("/").split("/")
    spec = importlib.util.find_spec(top) if top.isidentifier() else None
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"hydra.searchpath: {entry!r}: {top!r} is not an installed package")
    folder = Path(next(iter(spec.submodule_search_locations)), *inner)
    if not folder.is_dir() or not any(folder.rglob("*.yaml")):
        raise ConfigError(f"hydra.searchpath: {entry!r} is not a package folder holding YAML configs")
    return folder


def split_search_path(overrides: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the ``hydra.searchpath=[...]`` overrides, the others)."""
    searchpath, rest = [], []
    for override in overrides:
        (searchpath if override.lstrip("+").startswith("hydra.searchpath=") else rest).append(override)
    return searchpath, rest


def use_search_path(searchpath: Sequence[str]) -> None:
    """Search the folders of these ``hydra.searchpath=[...]`` overrides (and no others) from now on.

    Hydra itself is given the folders at every compose; :func:`config_groups` and
    :func:`group_options` list their options.
    """
    global _user_dirs
    entries = []
    for override in searchpath:
        value = override.partition("=")[2]
        entries += [item.strip().strip("'\"") for item in value.strip("[]").split(",") if item.strip()]
    _user_dirs = _search_path_dirs(entries)


def search_path_override() -> list[str]:
    """The ``hydra.searchpath`` override that gives Hydra the user's folders (none: [])."""
    if not _user_dirs:
        return []
    return ["hydra.searchpath=[" + ",".join(f"file://{folder}" for folder in _user_dirs) + "]"]


def config_groups() -> list[str]:
    """Every config group: the folders holding YAML in any config folder, as paths (``workload/speedup``)."""
    return sorted({str(p.parent.relative_to(root)) for root in config_dirs() for p in root.rglob("*.yaml")
                   if p.parent != root})


def group_options(group: str) -> list[str]:
    """The option names of a config group: the stems of ``<config folder>/<group>/*.yaml``.

    The ``policy`` group also offers every registered policy by name (an installed
    package's policy may have no YAML: it runs on its schema's defaults); sweep's own
    policies each have their YAML (``tests/config/test_schema.py``), so the families are
    loaded for this only where a package declares policies or families.
    """
    options = {p.stem for root in config_dirs() for p in (root / group).glob("*.yaml")}
    if group == "policy" and any(entry_points(group=name) for name in PLUGIN_GROUPS):
        from sweep.families import all_policies  # an installed package's policies: load them

        options.update(all_policies())
    return sorted(options)


