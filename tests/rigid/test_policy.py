"""The rigid policy contract (sweep/families/rigid/_policy.py): hooks, configs, queue order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from omegaconf import OmegaConf

from sweep.config.compose import compose
from sweep.families import load_families
from sweep.families.rigid import _core, _passes, _slack, easy
from sweep.families.rigid._policy import rigid_policy

POLICIES = load_families()["rigid"].policies
CONF = Path(__file__).resolve().parents[2] / "conf" / "policy"


@pytest.mark.parametrize("name", list(POLICIES))
def test_every_policy_has_its_config(name):
    """``policy=<name>`` composes from ``conf/policy/<name>.yaml``: the policy's own name and
    options, at their defaults."""
    assert (CONF / f"{name}.yaml").is_file()
    config = OmegaConf.to_container(compose([f"policy={name}"]).policy)
    assert config["name"] == name
    assert POLICIES[name].make_params(config) == POLICIES[name].make_params({})


@pytest.mark.parametrize("discipline", [_passes.CONSERVATIVE, _slack.SLACK])
def test_passes_in_submit_order_take_no_order_hook(discipline):
    with pytest.raises(ValueError, match="takes no order hook"):
        rigid_policy("x", kernel=easy._run, discipline=discipline, order=POLICIES["sjf_easy"].hooks.order)


def test_sort_queue_is_by_key_then_job():
    """Against Python's sort of ``(key, job)`` pairs: many equal keys, jobs in any order."""
    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 3, 7, 64, 257):
        key = rng.integers(0, 5, n).astype(float)
        queue = rng.permutation(3 * n)[:n].astype(np.int64)
        want = [j for _, j in sorted(zip(key.tolist(), queue.tolist(), strict=True))]
        got_key, got = np.append(key, np.nan), np.append(queue, -1)  # past n: left alone
        _core.sort_queue(got_key, got, n)
        assert got[:n].tolist() == want and got[n] == -1 and np.isnan(got_key[n])
        assert (np.diff(got_key[:n]) >= 0).all()


def test_submit_order_costs_nothing():
    """FCFS order compiles to no sort at all: the queue keeps arrivals in submit order, even
    when the keys left in ``state.key`` would say otherwise."""
    submit = np.array([0.0, 1.0, 1.0])
    requested = np.array([10.0, 5.0, 1.0])
    jobs = _core.columns(submit, requested, requested, np.array([2, 2, 2]), np.zeros(3))
    state = _core.new_state(3, 2)
    state.key[:] = [3.0, 2.0, 1.0]
    easy._run(jobs, state, ())
    assert state.start.tolist() == [0.0, 10.0, 15.0]
    assert state.key.tolist() == [3.0, 2.0, 1.0]
