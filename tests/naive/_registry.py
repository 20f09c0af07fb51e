"""The naive references of one family, found by policy name as the kernels are (issue 28).

A reference module registers what depends on the policy under the policy's name;
asking for a name nobody registered fails with one line saying where to add it,
so a new policy without a reference fails its family's reference test instead of
being skipped or silently run as another policy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class References(dict):
    """Policy name -> what the family's reference does differently for it."""

    def __init__(self, module: str) -> None:
        super().__init__()
        self.module = module

    def register(self, *names: str) -> Callable[[Any], Any]:
        """Register the decorated function (or value) under each of ``names``."""
        def add(behaviour: Any) -> Any:
            for name in names:
                if name in self:
                    raise ValueError(f"{self.module}: {name!r} registered twice")
                self[name] = behaviour
            return behaviour
        return add

    def __missing__(self, policy: str) -> Any:
        raise LookupError(f"no naive reference for policy {policy!r}: register one in "
                          f"{self.module} (known: {', '.join(sorted(self))})")
