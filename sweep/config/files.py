"""Where the configuration lives: sweep's own YAML folder, the user's, and the options of each group.

Light on purpose (no Hydra, no families, no scipy): ``sweep --help`` lists every
config group and its options from here alone.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

from sweep.errors import ConfigError

#: The entry point groups of installed packages' policies and families (``sweep.families``).
PLUGIN_GROUPS = ("sweep.policies", "sweep.families")
#: The entry point group of installed packages' distributions and trace readers (``sweep.workloads``).
WORKLOAD_GROUP = "sweep.workloads"


def conf_dir() -> Path:
    """The folder holding sweep's own ``config.yaml`` and option files: ``sweep/conf``, package
    data of every wheel (the repository's top-level ``conf`` is a link to it)."""
    return Path(__file__).resolve().parents[1] / "conf"


#: The entry point group through which an installed package adds a paper: ``<key> = <package>``,
#: the package holding the paper's ``claims.yaml``, ``conf/`` and modules (docs/adding-a-paper.md).
PAPER_GROUP = "sweep.papers"


@functools.cache
def paper_packages() -> dict[str, tuple[str, Path]]:
    """Each paper's package by key, as (module name, folder): sweep's own (:mod:`sweep.papers`: the
    folders of ``sweep/papers`` holding a ``claims.yaml``), then those installed packages declare
    in :data:`PAPER_GROUP`. Found without importing them; an installed paper whose package cannot
    be found, holds no ``claims.yaml`` or takes a key already taken is left out with one line on
    stderr (as a policy plugin is), and every other paper still runs."""
    own = Path(__file__).resolve().parents[1] / "papers"
    found = {claims.parent.name: (f"sweep.papers.{claims.parent.name}", claims.parent)
             for claims in sorted(own.glob("*/claims.yaml"))}
    for entry in entry_points(group=PAPER_GROUP):
        folder = _installed_folder(entry.value)
        why = ("its package is not installed" if folder is None
               else "its package holds no claims.yaml" if not (folder / "claims.yaml").is_file()
               else f"paper {entry.name!r} exists already" if entry.name in found else None)
        if why:
            print(f"sweep: paper '{entry.name} = {entry.value}' left out: {why}", file=sys.stderr)
        else:
            found[entry.name] = (entry.value, folder)
    return found


def paper_folders() -> dict[str, Path]:
    """Each paper's package folder by key (:func:`paper_packages`)."""
    return {key: folder for key, (_, folder) in paper_packages().items()}


def paper_modules() -> list[str]:
    """The modules of every paper's package (``<package>.<module>``, none named ``_*``): importing them
    registers the papers' figures and quantities."""
    import pkgutil

    return [f"{package}.{module.name}" for package, folder in paper_packages().values()
            for module in pkgutil.iter_modules([str(folder)]) if not module.name.startswith("_")]


def _paper_conf_dirs() -> tuple[Path, ...]:
    """The papers' own config folders (their presets and paper-specific options)."""
    return tuple(folder / "conf" for folder in paper_folders().values() if (folder / "conf").is_dir())


#: Folders of the user's own configs (``--config-dir``, ``hydra.searchpath``), searched after
#: :func:`conf_dir` and the papers'; set by :func:`use_search_path` (``compose`` calls it with its
#: overrides).
_user_dirs: tuple[Path, ...] = ()


def config_dirs() -> tuple[Path, ...]:
    """Every folder configs are read from: sweep's own, the papers', then the user's, in Hydra's order."""
    return (conf_dir(), *_paper_conf_dirs(), *_user_dirs)


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
    package = entry.removeprefix("pkg://").replace("/", ".").strip(".")
    folder = _installed_folder(package)
    if folder is None:
        top = package.split(".")[0]
        raise ConfigError(f"hydra.searchpath: {entry!r}: {top!r} is not an installed package")
    if not folder.is_dir() or not any(folder.rglob("*.yaml")):
        raise ConfigError(f"hydra.searchpath: {entry!r} is not a package folder holding YAML configs")
    return folder


def _installed_folder(package: str) -> Path | None:
    """The folder of the installed package (or a folder within it) ``top.sub.folder``, found without
    importing anything: ``top`` is looked up on the path, the rest is joined as folders; None
    where ``top`` is not an installed package."""
    import importlib.util

    top, *inner = package.split(".")
    spec = importlib.util.find_spec(top) if top.isidentifier() else None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)), *inner)


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
    for folder in _user_dirs:
        for path in sorted(folder.rglob("*.yaml")):
            _check_expanded_size(path, path.stat().st_mtime_ns)


#: The most values a user's YAML file may expand to once its aliases (``*name``) are copied out, as
#: Hydra does: a few aliases of aliases (an "anchor bomb") expand to billions.
MAX_EXPANDED_NODES = 1_000_000


@functools.lru_cache(maxsize=256)
def _check_expanded_size(path: Path, mtime_ns: int) -> None:
    """Refuse a user's config file whose aliases expand beyond :data:`MAX_EXPANDED_NODES` values
    (counted on the parsed node graph, each shared node once: linear in the file's size);
    ``mtime_ns`` only keys the cache."""
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            root = yaml.compose(handle, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return  # Hydra reports what it cannot read, with its own words
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a config") from None
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        if id(node) not in sizes:
            sizes[id(node)] = 0  # a recursive alias counts once
            children = node.value if isinstance(node.value, list) else []
            pairs = [part for child in children for part in (child if isinstance(child, tuple) else (child,))]
            sizes[id(node)] = min(MAX_EXPANDED_NODES + 1, 1 + sum(size(child) for child in pairs))
        return sizes[id(node)]

    try:
        expanded = 0 if root is None else size(root)
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a config") from None
    if expanded > MAX_EXPANDED_NODES:
        raise ConfigError(f"{path}: its aliases (*name) expand to more than {MAX_EXPANDED_NODES:,} values")


def search_path_override() -> list[str]:
    """The ``hydra.searchpath`` override that gives Hydra the papers' and the user's folders."""
    return ["hydra.searchpath=[" + ",".join(f"file://{folder}" for folder in config_dirs()[1:]) + "]"]


def config_groups() -> list[str]:
    """Every config group: the folders holding YAML in any config folder, as paths (``workload/speedup``)."""
    return sorted({str(p.parent.relative_to(root)) for root in config_dirs() for p in root.rglob("*.yaml")
                   if p.parent != root})


def group_options(group: str) -> list[str]:
    """The option names of a config group: the stems of ``<config folder>/<group>/*.yaml``.

    The ``policy`` group also offers every registered policy by name (an installed
    package's policy may have no YAML: it runs on its schema's defaults); sweep's own
    policies each have their YAML (``tests/config/test_schema.py``), so the families are
    loaded for this only where a package declares policies or families. The ``workload``
    group offers an installed package's distribution kinds by name, as well.
    """
    options = {p.stem for root in config_dirs() for p in (root / group).glob("*.yaml")}
    if group == "policy" and any(entry_points(group=name) for name in PLUGIN_GROUPS):
        from sweep.families import all_policies  # an installed package's policies: load them

        options.update(all_policies())
    if group == "workload" and entry_points(group=WORKLOAD_GROUP):
        from sweep.families import load_families  # a family's own kind takes precedence
        from sweep.workloads._discovery import plugin_distributions

        load_families()
        options.update(plugin_distributions())
    return sorted(options)


