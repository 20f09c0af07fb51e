"""The records through which workload kinds and trace formats are added: sweep's own and plugins'.

A leaf module (it imports no other workload module but the two it types with), so that
:mod:`~sweep.workloads._discovery`, which checks what plugins add, and the modules that define
sweep's own kinds and readers (:mod:`~sweep.workloads.config`, :mod:`~sweep.workloads.traces`)
import it without importing one another in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any

from sweep.workloads.distributions import Distribution
from sweep.workloads.swf import SWFTrace

__all__ = ["REQUIRED", "DistributionKind", "TraceReader"]

#: The default of an option a kind requires (a field without a default).
REQUIRED = object()


@dataclass(frozen=True)
class DistributionKind:
    """A kind of service-time distribution a workload config names (``workload.kind``).

    ``options`` is a dataclass whose fields are the kind's options (a field without a default
    is required; the config schema is made from it); ``build(**options)`` returns the
    :class:`~sweep.workloads.distributions.Distribution`, numbers as ``float`` and ``str`` fields
    as given. A value out of range raises :class:`~sweep.workloads.distributions.ParameterError`
    (restated as ``workload.<option> must be ...``) or ``ValueError`` with one line.
    """

    name: str
    options: type
    build: Callable[..., Distribution]

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise ValueError(f"a distribution kind needs a name, got {self.name!r}")
        if not isinstance(self.options, type) or not hasattr(self.options, "__dataclass_fields__"):
            raise TypeError(f"distribution kind {self.name!r}: options must be a dataclass, "
                            f"got {self.options!r}")

    def parameters(self) -> dict[str, Any]:
        """Each option and its default (:data:`REQUIRED`: none)."""
        return {f.name: REQUIRED if f.default is MISSING else f.default for f in fields(self.options)}

    def texts(self) -> frozenset[str]:
        """The options that are text (``str`` fields), not numbers."""
        return frozenset(f.name for f in fields(self.options) if f.type in (str, "str"))



@dataclass(frozen=True)
class TraceReader:
    """A trace format: ``read(path) -> SWFTrace`` for the files whose names end in one of ``suffixes``.

    ``read`` gets the absolute path of an existing file and raises ``ValueError`` (one line,
    naming what is wrong and where) for a file it cannot read; :func:`read_trace` caches what it
    returns by (path, modification time, size).
    """

    name: str
    suffixes: tuple[str, ...]
    read: Callable[[str], SWFTrace]

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise ValueError(f"a trace reader needs a name, got {self.name!r}")
        if isinstance(self.suffixes, str) or not self.suffixes or not all(
                isinstance(suffix, str) and suffix.startswith(".") for suffix in self.suffixes):
            raise ValueError(f"trace reader {self.name!r}: suffixes must be a tuple of file name endings "
                             f"starting with '.', got {self.suffixes!r}")
