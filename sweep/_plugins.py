"""Loading what installed packages declare in sweep's entry point groups (docs/plugins.md).

One way for every group: :func:`load_group` loads each entry point of a group, checks the
contract version its module declares and hands what it holds to the group's ``add``; a
plugin that fails any step is left out with one line on stderr, recorded in the group's
``errors``, and every other plugin and every sweep that does not use it still runs. The
families' policies (:mod:`sweep.families._discovery`) and the workloads' distributions and
trace readers (:mod:`sweep.workloads._discovery`) are found through it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Container, Iterable
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import Any

#: The version of the plugin contract: the policy and family hooks of docs/design.md §2a and the
#: workload parts of :mod:`sweep.workloads`. A plugin module may say which version it was written
#: for (``SWEEP_CONTRACT = 1``); one written for another is left out with one line. A plugin that
#: says nothing is taken as written for this one.
CONTRACT = 1


def where(entry: EntryPoint) -> str:
    """How an entry point is named in messages: ``name = value``, as in its package's metadata."""
    return f"{entry.name} = {entry.value}"


def objects_of(loaded: Any, kind: type | tuple[type, ...]) -> list[Any]:
    """What an entry point's value adds: the module-level ``kind`` objects of a module, or the
    value itself (whatever it is: the group's ``add`` refuses what it cannot take)."""
    if isinstance(loaded, ModuleType):
        return [value for value in vars(loaded).values() if isinstance(value, kind)]
    return [loaded]


def leave_out(place: str, why: str, errors: dict[str, str], noun: str = "plugin") -> None:
    """Record that the plugin at ``place`` is left out and say so once on stderr, in one line."""
    errors[place] = (why.splitlines() or [""])[0]
    print(f"sweep: {noun} {place!r} left out: {errors[place]}", file=sys.stderr)


def load_group(group: str, add: Callable[[Any, str], None], errors: dict[str, str]) -> None:
    """Load every entry point of ``group`` and call ``add(loaded, where)`` with what it names.

    A failure to import, a contract version other than :data:`CONTRACT`, or any exception of
    ``add`` (a name already taken, a value of the wrong type) leaves that plugin out
    (:func:`leave_out`, ``errors[where] = "<Error>: <message>"``) instead of breaking sweep.
    """
    for entry in entry_points(group=group):
        try:
            loaded = entry.load()
            declared = getattr(sys.modules.get(entry.module), "SWEEP_CONTRACT", CONTRACT)
            if declared != CONTRACT:
                raise ValueError(f"written for sweep's contract {declared!r}; this sweep has contract "
                                 f"{CONTRACT}")
            add(loaded, where(entry))
        except Exception as error:  # noqa: BLE001 - any failure of someone else's package is reported
            leave_out(where(entry), f"{type(error).__name__}: {error}", errors)


def missing(names: Iterable[str], known: Container[str], errors: dict[str, str]) -> dict[str, str]:
    """The ``names`` this process does not know, each with the reason in a few words: a plugin that
    failed to load here (from the group's ``errors``), or none installed here that adds it."""
    failed = "; ".join(f"{place}: {why}" for place, why in errors.items())
    reason = f"a plugin failed to load here ({failed})" if failed else "no package installed here adds it"
    return {name: reason for name in names if name not in known}
