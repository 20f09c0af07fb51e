"""Named registries: one per family for its policies (duplicate names raise)."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar


class _Named(Protocol):
    name: str


T = TypeVar("T", bound=_Named)


class Registry(dict[str, T], Generic[T]):
    """Items by their ``name``, in registration order; registering a name twice raises."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def register(self, item: T) -> T:
        """Add ``item`` under ``item.name`` and return it (usable as a one-line registration)."""
        if item.name in self:
            raise ValueError(f"{self.kind} {item.name!r} registered twice")
        self[item.name] = item
        return item
