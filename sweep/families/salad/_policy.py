"""What a salad-family policy supplies: :class:`SaladHooks` (the policy contract of the project).

The family composes the other families' policies, so a policy of its own is
a way of composing them: :mod:`~sweep.families.salad.ipg_salad` is CSSE00's
tool, whose three slots name a mapping policy, a balancing policy and one of
the gang family's two schedulers. Its hook is the compiled loop for a given
balancer (``_kernels.kernel_for``: cached on disk).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SaladHooks:
    """The salad family's hooks.

    kernel(balancer) -> run(S, pst, jobs, tasks, gang)
        The loop of ``_loop`` compiled with the balancing policy's ``tick``
        and ``receive`` hooks.
    """

    kernel: Callable[..., Callable[..., None]]
