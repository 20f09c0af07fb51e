"""Every registered malleable policy with each of its examples, and a way to run one on given jobs."""

from __future__ import annotations

from sweep.families import load_families
from sweep.families.malleable._core import Outcome, Stop
from sweep.families.malleable._workload import MalleableJobs

POLICIES = load_families()["malleable"].policies
#: (policy, options): every registered policy with each of its examples (``Policy.examples``)
EXAMPLES = [(name, dict(options)) for name, policy in POLICIES.items() for options in policy.examples]
IDS = ["-".join([name, *(f"{key}={value}" for key, value in options.items())]) for name, options in EXAMPLES]


def run(name: str, options: dict, jobs: MalleableJobs, processors: int, target: int | None = None,
        cap: int | None = None) -> Outcome:
    """Policy ``name`` with ``options`` on ``jobs`` until ``target`` departures (all by default)."""
    policy = POLICIES[name]
    target = len(jobs) if target is None else target
    stop = Stop(warmup=0, target=target, cap=len(jobs) + 1 if cap is None else cap, blen=target)
    return policy.hooks.run(jobs, processors, policy.make_params(options), stop)
