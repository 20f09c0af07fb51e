"""Every registered malleable policy with each of its examples, and a way to run one on given jobs
(``run``: :mod:`sweep.testing.malleable`, which a plugin's tests share)."""

from __future__ import annotations

from sweep.families import load_families
from sweep.testing.malleable import run

POLICIES = load_families()["malleable"].policies
#: (policy, options): every registered policy with each of its examples (``Policy.examples``)
EXAMPLES = [(name, dict(options)) for name, policy in POLICIES.items() for options in policy.examples]
IDS = ["-".join([name, *(f"{key}={value}" for key, value in options.items())]) for name, options in EXAMPLES]

__all__ = ["EXAMPLES", "IDS", "POLICIES", "run"]
