"""The dispatch family's public sampling (``random_assigner``, ``sampling_assigner``, ``next_sample``)."""

from __future__ import annotations

import numpy as np
import pytest

from sweep.families.dispatch import (
    check_samples,
    next_sample,
    random_assigner,
    sampled_hosts,
    sampling_assigner,
)
from sweep.families.dispatch._core import Hosts


def _hosts(h: int) -> Hosts:
    return Hosts(np.zeros(h), np.zeros((h, 1)), np.zeros(h, np.int64), np.zeros(h, np.int64))


def test_random_hosts_are_floor_h_u_of_the_stream_in_job_order():
    u = np.random.default_rng(3).random(7)
    hosts = random_assigner("random", 5, np.random.default_rng(3))(np.ones(7), 0)
    assert hosts.tolist() == np.floor(5 * u).astype(int).tolist()


@pytest.mark.parametrize(("h", "d"), [(1, 1), (3, 2), (7, 4), (100, 9)])
def test_packed_samples_read_back_in_the_order_drawn(h, d):
    want = sampled_hosts(np.random.default_rng(8), h, 50, d)
    packed = sampling_assigner("p", h, d, np.random.default_rng(8))(np.ones(50), 0)
    read = next_sample.py_func if hasattr(next_sample, "py_func") else next_sample
    for row, value in zip(want, packed, strict=True):
        got = []
        while value > 0:
            host, value = read(value, _hosts(h))
            got.append(int(host))
        assert got == row.tolist()


def test_one_sample_per_job_names_random_s_hosts():
    """A rule sampling one host per job sees the hosts Random names on the same stream (SH00 §1.2)."""
    packed = sampling_assigner("p", 6, 1, np.random.default_rng(4))(np.ones(20), 0)
    hosts = random_assigner("random", 6, np.random.default_rng(4))(np.ones(20), 0)
    assert (packed - 1).tolist() == hosts.tolist()


def test_samples_that_do_not_fit_64_bits_and_a_missing_generator_are_one_line():
    check_samples(100, 9)  # 101**9 < 2**63
    with pytest.raises(ValueError, match=r"^policy.d = 10 samples of 100 hosts do not fit one 64-bit "
                                         r"column; use d <= 9$"):
        check_samples(100, 10)
    with pytest.raises(ValueError, match=r"^policy mine draws its hosts at random: it needs a generator$"):
        sampling_assigner("mine", 4, 2, None)
