"""What a gang-family policy supplies: :class:`GangHooks` (the policy contract of the project).

A policy is one module-level :class:`~sweep.families.Policy` of family
``gang`` in one file of this package, plus ``conf/policy/<name>.yaml``. Its
hook is the compiled kernel of the family's one loop
(:func:`~sweep.families.gang._loop.simulate_core`) with the policy's *local*
scheduler inlined as a compile-time constant::

    local(p, t, row, rows, mat, tasks, jobs, mach, pool, par) -> task or -1

called when PE ``p`` has no ready task of its own slot at tick ``t`` (and no
locally picked task still ready): the task to run in the rest of the slot, or
−1 to leave it idle. A hook that answers −1 sets ``mach.skip[p]`` to the
first tick at which it might answer otherwise (``_core.NEVER``: not in this
slice; the loop resets it at each slice, and a barrier opening elsewhere
voids it): the loop leaves the PE idle until then or until the slot's own
task wakes. ``mach.rr`` is each PE's round-robin pointer (a row);
``mach.order``/``key``/``at``/``size`` each PE's column in priority order
(``_column``), kept by the loop when the kernel asks for it (``indexed``).
``local_scheduling`` says whether the policy has a local scheduler at all: the
invariants test holds a policy without one to its slots, and the salad family's
scheduler slot fills a slot its job leaves empty only under a policy with one.
The parameters (``packing``; ``alpha``, ``beta``, ``smoothing``,
``classifier``) reach the kernel, with the workload's and the machine's, as
one ``_core.SETTINGS`` record (``par``: ``par.alpha``, ``par.ticks``, ...),
filled by ``_simulate.kernel_settings``.
The kernel is compiled with ``sweep._numba.jit``, its disk cache
(renewed when any file of this package changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sweep.families._params import param

PACKINGS = ("first_fit", "best_fit")
CLASSIFIERS = ("fuzzy", "ispan")


@dataclass(frozen=True)
class GangHooks:
    """The gang family's hooks (module docstring)."""

    kernel: Callable[..., int]
    local_scheduling: bool


@dataclass(frozen=True)
class GangParams:
    """Parameters of Gang: only the spatial packing of jobs into the matrix."""

    packing: str = param("first_fit", choices=PACKINGS,
                         doc="how jobs are packed into the matrix rows (CSSE00 §3.3.3: first fit; "
                             "best fit differed by at most 3%, Silva & Scherson 1999)")


@dataclass(frozen=True)
class ConcurrentGangParams:
    """Parameters of Concurrent Gang (CSSE00 §3.3.3, eq. 1); α, β, γ are reconstructions."""

    packing: str = param("first_fit", choices=PACKINGS,
                         doc="how jobs are packed into the matrix rows (as Gang)")
    alpha: float = param(2.0, gt=1, doc="weight of the I/O grade in Pr(T) = max(α λ_IO, λ_COMP); "
                                        "α > 1 (CSSE00 eq. 1); the value 2 is a reconstruction")
    beta: float = param(0.5, ge=0, le=1, doc="priority floor: no task at or below it runs "
                                             "uncoordinated (CSSE00 §3.3.3); 0.5 reconstructed")
    smoothing: float = param(0.5, gt=0, le=1, doc="weight of the last slot in the membership grades "
                                                  "(exponential average; reconstructed)")
    classifier: str = param("fuzzy", choices=CLASSIFIERS,
                            doc="fuzzy: Pr(T) of CSSE00 eq. 1; ispan: run locally the tasks whose "
                                "slot utilisation averaged over 5 slots is below 0.5 (Silva & "
                                "Scherson 1999), round robin among them")
