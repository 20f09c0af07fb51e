"""The workload parts installed packages add: the ``sweep.workloads`` entry point group.

An entry point names a :class:`~sweep.workloads.DistributionKind`, a
:class:`~sweep.workloads.TraceReader`, or a module whose module-level ones are all
taken. Loaded once, on first use, by :func:`sweep._plugins.load_group`: a plugin that fails to
import, was written for another contract version, or takes a name (or a trace reader's
suffix) already taken is left out with one line on stderr (:data:`PLUGIN_ERRORS`), and every
sweep that does not use it runs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from sweep._plugins import leave_out, load_group, missing, objects_of
from sweep.workloads._parts import DistributionKind, TraceReader

__all__ = ["GROUP", "PLUGIN_ERRORS", "drop_distribution", "missing_parts", "plugin_distributions",
           "plugin_of_kind", "plugin_readers", "reserve"]

#: The entry point group through which an installed package adds distributions and trace readers.
GROUP = "sweep.workloads"
#: Installed workload plugins left out, by entry point (``name = value``): why, in one line.
PLUGIN_ERRORS: dict[str, str] = {}
#: The entry point that added each plugin distribution kind and trace reader, by name.
_ADDED_BY: dict[str, str] = {}
#: Sweep's own kinds and readers, which no plugin may take (:func:`reserve`).
_OWN_KINDS: set[str] = set()
_OWN_READERS: dict[str, TraceReader] = {}


def reserve(kinds: Iterable[str] = (), readers: Iterable[TraceReader] = ()) -> None:
    """Sweep's own distribution kinds and trace readers, said by the modules that define them
    (:mod:`~sweep.workloads.config`, :mod:`~sweep.workloads.traces`) as they are imported, which the
    package does before any plugin is looked at: a plugin that takes one of their names, or a suffix of
    a reader, is left out."""
    _OWN_KINDS.update(kinds)
    _OWN_READERS.update((reader.name, reader) for reader in readers)


@functools.cache
def _plugins() -> tuple[dict[str, Any], dict[str, Any]]:
    """(distribution kinds, trace readers) of the installed plugins, by name."""
    kinds: dict[str, DistributionKind] = {}
    readers: dict[str, TraceReader] = {}

    def add(loaded: Any, where: str) -> None:
        parts = objects_of(loaded, (DistributionKind, TraceReader))
        if not parts:
            raise TypeError("holds no DistributionKind or TraceReader")
        suffixes = {suffix.lower(): reader.name for reader in (*_OWN_READERS.values(), *readers.values())
                    for suffix in reader.suffixes}
        for part in parts:  # all or none: the first name taken leaves the whole plugin out
            if isinstance(part, DistributionKind):
                if part.name in _OWN_KINDS or part.name in kinds:
                    owner = "sweep's own" if part.name in _OWN_KINDS else _ADDED_BY[part.name]
                    raise ValueError(f"workload kind {part.name!r} is taken ({owner})")
            elif isinstance(part, TraceReader):
                if part.name in _OWN_READERS or part.name in readers:
                    owner = "sweep's own" if part.name in _OWN_READERS else _ADDED_BY[part.name]
                    raise ValueError(f"trace reader {part.name!r} is taken ({owner})")
                for suffix in part.suffixes:
                    if suffix.lower() in suffixes:
                        raise ValueError(f"trace reader {part.name!r}: suffix {suffix!r} is read by the "
                                         f"{suffixes[suffix.lower()]} reader")
            else:
                raise TypeError(f"expected a DistributionKind or a TraceReader, got {type(part).__name__}")
        for part in parts:
            (kinds if isinstance(part, DistributionKind) else readers)[part.name] = part
            _ADDED_BY[part.name] = where

    load_group(GROUP, add, PLUGIN_ERRORS)
    return kinds, readers


def plugin_distributions() -> dict[str, Any]:
    """The installed plugins' distribution kinds by name."""
    return _plugins()[0]


def plugin_readers() -> dict[str, Any]:
    """The installed plugins' trace readers by name."""
    return _plugins()[1]


def plugin_of_kind(name: str) -> str | None:
    """The entry point (``name = value``) that added a distribution kind or trace reader; ``None``
    for sweep's own and unknown names."""
    _plugins()
    return _ADDED_BY.get(name)


def drop_distribution(name: str, why: str) -> None:
    """Leave out, after loading, the plugin that added the distribution kind ``name`` (a family reads
    a workload kind of that name: :func:`sweep.families.load_families` checks): all it added, with
    one line on stderr."""
    where = plugin_of_kind(name)
    if where is None or name not in plugin_distributions():
        return
    for parts in _plugins():
        for added in [part for part in parts if _ADDED_BY.get(part) == where]:
            del parts[added]
            del _ADDED_BY[added]
    leave_out(where, why, PLUGIN_ERRORS)


def missing_parts(names: Iterable[str]) -> dict[str, str]:
    """The distribution kinds and trace readers of ``names`` no plugin of this process adds, each with
    the reason in a few words (a plugin missing here, or one that failed to load)."""
    return missing(names, {*plugin_distributions(), *plugin_readers()}, PLUGIN_ERRORS)
