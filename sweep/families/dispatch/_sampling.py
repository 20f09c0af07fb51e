"""Hosts drawn at random, for the rules that sample them: Random (SH00 §1.2), power of d choices.

Every sample is drawn in advance, in numpy, from the policy's own child
generator (docs/design.md §4): ``d`` uniforms per job, in job order, each
naming host ``floor(h U)``. Uniform doubles, unlike bounded integers, give the
same hosts however the stream is chunked, and a rule drawing one sample per
job names the same hosts as Random on the same stream.

- One sample per job is the job's host: :func:`random_assigner`, run on the
  shared kernel ``run_given`` (Random), or read by a *choose* hook from its
  ``given`` column (a fallback host).
- ``d`` samples per job reach a *choose* hook packed into the ``given``
  column, as the digits ``1..h`` of one integer in base ``h + 1``, the first
  sample the lowest digit (:func:`sampling_assigner`); the hook reads them
  back in order with :func:`next_sample`. :func:`check_samples` says when
  ``d`` samples of ``h`` hosts do not fit a 64-bit integer.
"""

from __future__ import annotations

import numpy as np

from sweep._numba import jit
from sweep.families.dispatch._core import host_count
from sweep.families.dispatch._policy import Assigner


def sampled_hosts(rng: np.random.Generator, hosts: int, jobs: int, d: int = 1) -> np.ndarray:
    """``d`` hosts sampled uniformly with replacement for each of ``jobs`` jobs: (jobs, d), host
    ``floor(h U)``, the uniforms drawn in job order (module docstring)."""
    return (rng.random(jobs * d).reshape(jobs, d) * hosts).astype(np.int64)


def _generator(policy: str, rng: np.random.Generator | None) -> np.random.Generator:
    if rng is None:
        raise ValueError(f"policy {policy} draws its hosts at random: it needs a generator")
    return rng


def random_assigner(policy: str, hosts: int, rng: np.random.Generator | None) -> Assigner:
    """An assigner naming for each job one host sampled uniformly (``floor(h U)``): Random's hosts.

    ``ValueError`` naming ``policy`` when there is no generator to draw from.
    """
    rng = _generator(policy, rng)
    return lambda sizes, first: sampled_hosts(rng, hosts, len(sizes))[:, 0]


def check_samples(hosts: int, d: int, option: str = "policy.d") -> None:
    """One-line ``ValueError`` (naming ``option``) when ``d`` samples of ``hosts`` hosts packed by
    :func:`sampling_assigner` do not fit a 64-bit integer."""
    if (hosts + 1) ** d >= 2 ** 63:
        raise ValueError(f"{option} = {d} samples of {hosts} hosts do not fit one 64-bit column; "
                         f"use {option.rpartition('.')[2]} <= {int(62 / np.log2(hosts + 1))}")


def sampling_assigner(policy: str, hosts: int, d: int, rng: np.random.Generator | None) -> Assigner:
    """An assigner giving each job ``d`` hosts sampled uniformly with replacement, packed into one
    integer (module docstring) for a *choose* hook to read with :func:`next_sample`.

    ``ValueError`` naming ``policy`` when there is no generator to draw from.
    """
    rng = _generator(policy, rng)
    digits = (hosts + 1) ** np.arange(d, dtype=np.int64)  # first sample: the lowest digit

    def assign(sizes: np.ndarray, first: int) -> np.ndarray:
        return (sampled_hosts(rng, hosts, len(sizes), d) + 1) @ digits

    return assign


@jit(inline="always")
def next_sample(packed, hosts):
    """The first host of a packed sample (``given[n]``) and the samples after it (0: none left).

    A *choose* hook reads a job's samples in the order they were drawn::

        packed = given[n]
        while packed > 0:
            i, packed = next_sample(packed, hosts)
    """
    base = host_count(hosts) + 1
    return packed % base - 1, packed // base
