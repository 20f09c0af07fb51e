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
The kernel's *priority* hook ``priority(x, tasks, par) -> float`` orders each
PE's column for ``local`` (when ``indexed``; ``no_priority`` otherwise).

The parameters are the policy's own dataclass (its ``Policy.params``): every
field reaches the kernel by its name in one record, ``par`` (``par.alpha``,
``par.ticks``, ...), with the workload's and the machine's fields
(``_core.SETTINGS``), filled by ``_simulate.kernel_settings``: a number or a
bool as itself, a string of ``choices`` as its index there. So a policy with
a parameter of a new name is its file and its YAML; the family reads two of a
policy's parameters itself, by name: ``packing`` (:class:`GangParams`;
first fit without it) and ``smoothing`` (the grades' γ, 0.5 without it).
The kernel is compiled with ``sweep._numba.jit``, its disk cache
(renewed when any file of this package changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sweep.families._params import param

PACKINGS = ("first_fit", "best_fit")


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
