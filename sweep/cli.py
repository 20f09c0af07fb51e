"""The ``sweep`` command: Hydra's command line, one sweep per invocation (docs/design.md §8).

``sweep [flags] [overrides]`` takes Hydra's flags (its own argument parser) and
override grammar (``key=value``, ``+key=value``, ``++key=value``, ``~key``;
with ``-m``, ``key=a,b``, ``key=range(...)`` and ``key=choice(...)`` become grid
axes of one sweep). ``--cfg``, ``--info``, ``--help`` and ``--shell-completion``
print and run nothing. Bad input ends in one line on stderr naming the
problem, and exit status 2, before any simulation starts; an interrupted sweep
exits 130 and resumes when the same command is run again with the same ``output``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

HEADER = """usage: sweep [--cfg job|hydra|all] [--info] [-m] [--config-dir DIR] [-sc install=bash] [overrides]

Runs a parameter sweep and writes its results as netCDF.

  sweep experiment=quickstart            a preset (the experiment group, below)
  sweep policy=easy                      a policy alone: its family's workload and system
  sweep -m policy=random,lwl load=0.5,0.8 replications=4 output=out.nc   (one sweep, 2 x 2 points)
  sweep grid.policy=[random,lwl] grid.load=[0.5,0.8]                     (the same, without -m)
  sweep policy=sita_e workload=c90 load=0.7 system.hosts=4 engine.backend=serial
  sweep --config-dir ./my_conf policy=my_policy     your own YAML (my_conf/policy/my_policy.yaml)
  sweep --cfg job experiment=sh00_fig2              print the composed config, run nothing

Any config key can be set (key=value), added (+key=value), forced (++key=value), deleted (~key)
or swept (-m key=v1,v2 or grid.key=[v1,v2]); each config group is a grid axis over its options.
"""

FLAGS = """== Flags (Hydra's) ==
  --cfg, -c job|hydra|all   print the composed config (--package P: one section; --resolve) and exit
  --info, -i [all|config|defaults|defaults-tree|plugins|searchpath]   what Hydra would use, and exit
  --multirun, -m            sweep overrides (key=a,b, range(...), choice(...)) become grid axes
  --config-dir, -cd DIR     search DIR for configs too (as hydra.searchpath=[file://DIR])
  --shell-completion, -sc   install=bash|zsh|fish, uninstall=..., e.g. eval "$(sweep -sc install=bash)"
  --version                 sweep's version
"""


class _Parser(argparse.ArgumentParser):
    """Hydra's argument parser, whose errors are one line (a ConfigError) instead of usage + exit."""

    def error(self, message: str):  # noqa: D102 - argparse's hook
        from sweep.errors import ConfigError

        raise ConfigError(message)


def parse_flags(args: Sequence[str]) -> argparse.Namespace:
    """Hydra's flags and the overrides (Hydra's own parser, so the flags are exactly Hydra's)."""
    from hydra._internal.utils import get_args_parser

    hydra_parser = get_args_parser()
    parser = _Parser(add_help=False, parents=[hydra_parser], conflict_handler="resolve")
    return parser.parse_intermixed_args(_info_section_explicit(list(args)))


def _info_section_explicit(args: list[str]) -> list[str]:
    """``--info policy=x`` means ``--info all policy=x`` (argparse would read the override as the section)."""
    for position, arg in enumerate(args):
        if arg in ("--info", "-i") and (position + 1 < len(args) and "=" in args[position + 1]):
            return [*args[:position + 1], "all", *args[position + 1:]]
    return args


def help_text() -> str:
    """The header, every config group with its options (Hydra's ``$APP_CONFIG_GROUPS``), the flags."""
    import textwrap

    from sweep.config.files import config_groups, group_options

    lines = [HEADER, "== Configuration groups ==",
             "Compose your configuration from those groups (group=option)", ""]
    for group in config_groups():
        lines.append(textwrap.fill(f"{group}: {', '.join(group_options(group))}", width=100,
                                   subsequent_indent="    ", break_on_hyphens=False))
    lines += ["", FLAGS]
    return "\n".join(lines)


def _print_config(flags: argparse.Namespace, overrides: list[str]) -> None:
    """``--cfg job|hydra|all`` (Hydra's): the composed config as YAML, ``--package`` selects a section."""
    from omegaconf import OmegaConf, open_dict

    from sweep.config.compose import ConfigError, compose

    cfg = compose(overrides)
    if flags.cfg == "job":
        with open_dict(cfg):
            del cfg["hydra"]
    elif flags.cfg == "hydra":
        cfg = OmegaConf.create({"hydra": cfg.hydra})
    if flags.package:
        cfg = OmegaConf.select(cfg, flags.package)
        if cfg is None:
            raise ConfigError(f"--package {flags.package}: no such section in the composed config")
    if flags.package:
        print(f"# @package {flags.package}")
    print(OmegaConf.to_yaml(cfg, resolve=flags.resolve), end="")


def _print_info(which: str, overrides: list[str]) -> None:
    """``--info`` (Hydra's sections): search path, defaults (group choices), config, plugins."""
    from omegaconf import OmegaConf, open_dict

    from sweep.config.compose import compose, config_dirs

    cfg = compose(overrides)
    sections = []
    if which in ("all", "searchpath"):
        sections.append("Config search path\n" + "\n".join(f"  file://{folder}" for folder in config_dirs()))
    if which in ("all", "defaults", "defaults-tree"):
        choices = {k: v for k, v in cfg.hydra.runtime.choices.items() if not k.startswith("hydra/")}
        sections.append("Defaults (group choices)\n" + "\n".join(f"  {k}: {v}" for k, v in choices.items()))
    if which in ("all", "plugins"):
        sections.append("Plugins\n  launcher and sweeper: sweep's own (Ray actors or in-process); "
                        "Hydra's launcher plugins are not used")
    if which in ("all", "config"):
        with open_dict(cfg):
            del cfg["hydra"]
        sections.append("Config\n" + OmegaConf.to_yaml(cfg))
    print("\n\n".join(sections))


def _shell_completion(overrides: Sequence[str]) -> None:
    """``-sc install=bash`` / ``uninstall=bash`` / ``query=bash`` with Hydra's completion plugins,
    over sweep's config search path (so groups, options and keys complete)."""
    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra._internal.core_plugins.bash_completion import BashCompletion
    from hydra._internal.core_plugins.fish_completion import FishCompletion
    from hydra._internal.core_plugins.zsh_completion import ZshCompletion
    from hydra._internal.utils import create_config_search_path

    from sweep.config import schema
    from sweep.config.compose import ConfigError, conf_dir, config_dirs

    plugins = {plugin.provides(): plugin for plugin in (BashCompletion, ZshCompletion, FishCompletion)}
    action, _, shell = (overrides[0] if overrides else "").partition("=")
    if action not in ("install", "uninstall", "query") or shell not in plugins:
        raise ConfigError(f"--shell-completion expects install=, uninstall= or query= one of "
                          f"{', '.join(plugins)}, got {' '.join(overrides) or 'nothing'}")
    schema.register(conf_dir())
    search_path = create_config_search_path(str(config_dirs()[0]))
    for folder in config_dirs()[1:]:
        search_path.append("sweep-user", f"file://{folder}")
    completion = plugins[shell](ConfigLoaderImpl(config_search_path=search_path))
    if action == "query":
        completion.query("config")
    else:
        getattr(completion, action)()


def _unsupported(flags: argparse.Namespace) -> None:
    from sweep.errors import ConfigError

    for flag, name in (("config_path", "--config-path"), ("config_name", "--config-name"),
                       ("experimental_rerun", "--experimental-rerun")):
        if getattr(flags, flag):
            raise ConfigError(f"{name} is not supported: sweep's primary config is its own config.yaml; "
                              f"use --config-dir DIR for your configs and experiment=<name> for presets")


def _search_path(flags: argparse.Namespace) -> tuple[list[str], list[str]]:
    """(the ``hydra.searchpath`` override with ``--config-dir`` folded in, the other overrides)."""
    from pathlib import Path

    from sweep.config.files import split_search_path

    searchpath, rest = split_search_path(flags.overrides)
    if flags.config_dir:
        entries = [item for override in searchpath
                   for item in override.partition("=")[2].strip("[]").split(",") if item]
        entries.append(f"file://{Path(flags.config_dir).expanduser().resolve()}")
        searchpath = [f"hydra.searchpath=[{','.join(entries)}]"]
    return searchpath, rest


def _overrides(flags: argparse.Namespace) -> list[str]:
    """The overrides with ``--config-dir`` folded into ``hydra.searchpath`` and ``-m`` sweeps as axes."""
    from sweep.config.compose import multirun_axes

    searchpath, rest = _search_path(flags)
    return [*searchpath, *multirun_axes(rest, flags.multirun)]


def _run(args: list[str]) -> int:
    if "--version" in args:
        import sweep

        print(f"sweep {sweep.__version__}")
        return 0
    flags = parse_flags(args)
    _unsupported(flags)
    if flags.help:  # nothing heavy imported: the groups and options come from the YAML folders
        from sweep.config.files import use_search_path

        use_search_path(_search_path(flags)[0])
        print(help_text(), end="")
        return 0
    if flags.hydra_help:
        print(FLAGS, end="")
        return 0
    if flags.shell_completion:
        _shell_completion(flags.overrides)
        return 0
    overrides = _overrides(flags)
    if flags.cfg:
        _print_config(flags, overrides)
        return 0
    if flags.info:
        _print_info(flags.info, overrides)
        return 0
    from sweep.analysis.figures import write_figures
    from sweep.config.compose import compose
    from sweep.engine.runner import run_config

    run_config(compose(overrides), overrides, write_figures)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    from sweep.errors import ConfigError, PoolEmpty, TaskFailed, WriteFailed

    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    except ConfigError as error:
        print(f"sweep: error: {error}", file=sys.stderr)
        return 2
    except TaskFailed as error:
        print(f"sweep: error: a run failed ({error}); finished points are checkpointed",
              file=sys.stderr)
        return 1
    except WriteFailed as error:
        print(f"sweep: error: {error}", file=sys.stderr)
        return 1
    except PoolEmpty as error:
        print(f"sweep: error: {error}; finished points are checkpointed: run the same command "
              "again to resume", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sweep: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a reader that stopped (`sweep --help | head`)
        sys.stdout = None
        return 0


if __name__ == "__main__":
    sys.exit(main())
