"""``pytest --pyargs sweep.testing``: the generic tests a plugin author runs on their policies (issue 31).

Run here on two of sweep's own policies, named in ``SWEEP_TESTING_POLICIES`` (the Ray test left
out: ``tests/test_policies.py`` runs the same check); the example plugin's run in a fresh venv
is ``tests/test_example_plugin.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _pytest_sweep_testing(tmp_path, chosen: str | None, *options: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "SWEEP_TESTING_POLICIES"}
    if chosen is not None:
        env["SWEEP_TESTING_POLICIES"] = chosen
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
               "--pyargs", "sweep.testing", *options]
    return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_the_generic_tests_run_on_the_named_policies(tmp_path):
    done = _pytest_sweep_testing(tmp_path, "sjf_easy,lwl", "-k", "not serial_and_ray", "-v")
    assert done.returncode == 0, done.stdout[-3000:]
    ran = sorted(line.split("::")[1].split(" ")[0] for line in done.stdout.splitlines() if " PASSED" in line)
    assert ran == ["test_dispatch_simulation[lwl]", "test_parameters_and_examples[lwl]",
                   "test_parameters_and_examples[sjf_easy]", "test_rigid_matches_its_reference[sjf_easy]",
                   "test_rigid_small_random_workloads[sjf_easy]", "test_rigid_whole_kth_trace[sjf_easy]",
                   "test_the_chosen_policies_exist"]


@pytest.mark.parametrize(("chosen", "said"), [
    (None, "AssertionError: no policy to test: no installed package adds one; name them in "
           "SWEEP_TESTING_POLICIES (comma-separated, or all)"),
    ("lwl,no_such_policy", "AssertionError: SWEEP_TESTING_POLICIES names policies no installed package "
                           "adds: no_such_policy"),
])
def test_an_empty_or_unknown_choice_fails_rather_than_passing_on_nothing(tmp_path, chosen, said):
    done = _pytest_sweep_testing(tmp_path, chosen, "-q", "-k", "chosen_policies_exist")
    assert done.returncode == 1, done.stdout[-3000:]
    assert f"E       {said}" in done.stdout.splitlines()
