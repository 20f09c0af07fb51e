"""A registry of plain-Python references found by name, as the kernels are (issue 28).

Whoever writes a reference registers it under a name (a policy's, or a rigid pass's);
asking for a name nobody registered fails with one line saying where to add it, so a
new policy without a reference fails its family's reference test instead of being
skipped or silently run as another policy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class References(dict):
    """Name -> a reference, or what a family's reference does differently for that name."""

    def __init__(self, what: str, how: str) -> None:
        """``what`` the names are (``policy``); ``how`` to add a missing one, where ``{name}`` is
        the name asked for (``register one in sweep/testing/naive/malleable.py``)."""
        super().__init__()
        self.what, self.how = what, how

    def register(self, *names: str) -> Callable[[Any], Any]:
        """Register the decorated function (or value) under each of ``names``."""
        def add(behaviour: Any) -> Any:
            for name in names:
                if name in self:
                    raise ValueError(f"naive reference for {self.what} {name!r} registered twice")
                self[name] = behaviour
            return behaviour
        return add

    def __missing__(self, name: str) -> Any:
        raise LookupError(f"no naive reference for {self.what} {name!r}: {self.how.format(name=name)} "
                          f"(known: {', '.join(sorted(self))})")
