"""``pytest --pyargs sweep.testing``: the generic tests a plugin author runs on their policies (issue 31).

Run here on two of sweep's own policies, named in ``SWEEP_TESTING_POLICIES`` (the Ray test left
out: ``tests/test_policies.py`` runs the same check), and on a plugin's policy with no reference,
a wrong one and the right one; the example plugin's run in a fresh venv is
``tests/test_example_plugin.py``. The comparisons with the plain-Python references are not
vacuous: a deliberately wrong reference fails them, with the policy and the first difference.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sweep.families import all_policies
from sweep.testing import balancing as balancing_checks
from sweep.testing import dispatch as dispatch_checks
from sweep.testing import gang as gang_checks
from sweep.testing import malleable as malleable_checks
from sweep.testing import mapping as mapping_checks
from sweep.testing import rigid as rigid_checks
from sweep.testing.naive import REFERENCES
from sweep.testing.naive import dispatch as naive_dispatch
from sweep.testing.naive import malleable as naive_malleable
from sweep.testing.naive import rigid as naive_rigid

#: The folder holding the package of the plugin policy ``idle_first`` (tests/plugin).
IDLE_FIRST = Path(__file__).parent / "plugin"


def _pytest_sweep_testing(tmp_path, chosen: str | None, *options: str,
                          path: tuple[Path, ...] = ()) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "SWEEP_TESTING_POLICIES"}
    if chosen is not None:
        env["SWEEP_TESTING_POLICIES"] = chosen
    if path:
        env["PYTHONPATH"] = os.pathsep.join([*map(str, path), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
               "--pyargs", "sweep.testing", *options]
    return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_the_generic_tests_run_on_the_named_policies(tmp_path):
    done = _pytest_sweep_testing(tmp_path, "sjf_easy,lwl", "-k", "not serial_and_ray", "-v")
    assert done.returncode == 0, done.stdout[-3000:]
    ran = sorted(line.split("::")[1].split(" ")[0] for line in done.stdout.splitlines() if " PASSED" in line)
    assert ran == ["test_dispatch_simulation[lwl]", "test_matches_its_reference[lwl]",
                   "test_matches_its_reference[sjf_easy]", "test_parameters_and_examples[lwl]",
                   "test_parameters_and_examples[sjf_easy]", "test_rigid_small_random_workloads[sjf_easy]",
                   "test_rigid_whole_kth_trace[sjf_easy]", "test_the_chosen_policies_exist"]


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


def _idle_first_site(site: Path, reference: str | None) -> Path:
    """An installed package adding the plugin policy ``idle_first`` (an idle host, the lowest
    first, else round robin), with ``reference`` (Python source of a host rule) registered as its
    plain-Python reference in the module its entry point names, as docs/plugins.md says."""
    info = site / "idle_first_here-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: idle_first_here\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[sweep.policies]\nidle_first = idle_first_here:POLICY\n")
    module = "from sweep_idle_first import POLICY\nfrom sweep.testing.naive import reference\n"
    if reference is not None:
        module += f"\n\n@reference('idle_first')\n{reference}"
    (site / "idle_first_here.py").write_text(module)
    return site


#: The rule of idle_first, read off the reference's hosts.
IDLE_FIRST_RULE = """def rule(view, job, now):
    idle = [h for h in range(view.hosts) if view.idle_since(h) is not None]
    return idle[0] if idle else job % view.hosts
"""


@pytest.mark.parametrize(("reference", "outcome", "said"), [
    (None, "1 skipped", "policy 'idle_first' has no plain-Python reference: register its host rule, "
                        "rule(view, job, now) -> host (sweep.testing.naive.dispatch), with "
                        "@sweep.testing.naive.reference('idle_first'), in the module that defines the "
                        "policy (a plugin's) or in a new module of sweep/testing/naive/policies/ "
                        "(sweep's own; docs/plugins.md)\n"),
    (IDLE_FIRST_RULE.replace("idle[0]", "idle[-1]"), "1 failed",
     "E               AssertionError: policy 'idle_first' differs from its plain-Python reference "
     "({}, continuous case 0: "),
    (IDLE_FIRST_RULE, "1 passed", "test_matches_its_reference[idle_first] PASSED"),
], ids=["none", "wrong", "right"])
def test_a_plugin_policy_against_its_own_reference(tmp_path, reference, outcome, said):
    """The plugin policy found without naming it: with no reference the comparison is skipped with
    a line saying how to add one; with one registered in its module it runs, and a wrong one (the
    highest idle host, not the lowest) fails naming the policy and the case."""
    site = _idle_first_site(tmp_path / "site", reference)
    done = _pytest_sweep_testing(tmp_path, None, "-rsf", "-v", "-k", "matches_its_reference",
                                 path=(site, IDLE_FIRST))
    assert done.returncode == (outcome == "1 failed"), done.stdout[-3000:]
    assert f"= {outcome}, 6 deselected in " in done.stdout.splitlines()[-1], done.stdout[-3000:]
    assert said in done.stdout, done.stdout[-3000:]


def test_a_wrong_dispatch_reference_fails_naming_the_policy_and_the_first_difference(monkeypatch):
    """LWL's reference swapped for Shortest-Queue's rule: equal queue lengths are not equal work."""
    monkeypatch.setitem(REFERENCES, "lwl", REFERENCES["shortest_queue"])
    with pytest.raises(AssertionError, match=r"^policy 'lwl' differs from its plain-Python reference "
                                             r"\(\{\}, continuous case \d+: .*\): job_host\[\d+\] is "):
        dispatch_checks.compare_with_reference("lwl", {})


def test_a_wrong_rigid_reference_fails(monkeypatch):
    """SJF-EASY against the FCFS pass with its own key (no backfilling), then EASY's pass itself
    replaced by FCFS's: both found by name, both caught."""
    declared = all_policies()["sjf_easy"].hooks.reference
    monkeypatch.setitem(REFERENCES, "sjf_easy", declared._replace(discipline="fcfs"))
    wrong = r"^policy 'sjf_easy' differs from its plain-Python reference \(\{\}, case \d+: \d+ jobs on \d "
    with pytest.raises(AssertionError, match=wrong + r"processors\): start\[\d+\] is "):
        rigid_checks.compare_with_reference("sjf_easy", {})
    monkeypatch.delitem(REFERENCES, "sjf_easy")
    rigid_checks.compare_with_reference("sjf_easy", {}, cases=50)  # its own reference again
    monkeypatch.setitem(naive_rigid.PASSES, "easy", naive_rigid.pass_named("fcfs"))
    with pytest.raises(AssertionError, match=r"^policy 'easy' differs from its plain-Python reference"):
        rigid_checks.compare_with_reference("easy", {})


def test_a_wrong_gang_reference_fails(monkeypatch):
    """Concurrent Gang against Gang's local scheduler (an idle slot stays idle)."""
    monkeypatch.setitem(REFERENCES, "concurrent_gang", REFERENCES["gang"])
    wrong = r"^policy 'concurrent_gang' differs from its plain-Python reference \(\{\}, case \d+: P=\d K=\d, "
    with pytest.raises(AssertionError, match=wrong + r".*\): trace\[\d+, \d\] is "):
        gang_checks.compare_with_reference("concurrent_gang", {})


def test_a_wrong_mapping_reference_fails(monkeypatch):
    """HEFT against CPOP's reference (both by upward rank, CPOP keeps the critical path on one
    processor)."""
    monkeypatch.setitem(REFERENCES, "heft", REFERENCES["cpop"])
    with pytest.raises(AssertionError, match=r"^policy 'heft' differs from its plain-Python reference "
                                             r"\(\{\}, seed \d instance \d: \d+ tasks on \d processors, "):
        mapping_checks.compare_with_reference("heft", {})


def test_a_wrong_malleable_reference_fails(monkeypatch):
    """EQS against EQS-PWS's rule (phase one capped at the working set, not at N_j): the same
    schedule where the working set never binds, caught where it does (the peaked speedup)."""
    monkeypatch.setitem(REFERENCES, "eqs", naive_malleable.RULES["eqs_pws"])
    malleable_checks.compare_on_workload("eqs", {}, malleable_checks.REFERENCE_WORKLOAD)
    wrong = r"^policy 'eqs' differs from its plain-Python reference \(\{\}: 400 jobs at load 0.8 on 16 "
    with pytest.raises(AssertionError, match=wrong + r"processors, speedup .*'max'\}, until 300 "
                                                     r"departures\): depart\[\d+\] is "):
        malleable_checks.compare_with_reference("eqs", {})


def test_a_wrong_balancing_reference_fails(monkeypatch):
    """The gradient model against sender-initiated diffusion's reference (no low threshold, no
    pressure surface)."""
    monkeypatch.setitem(REFERENCES, "gradient", REFERENCES["sender_diffusion"])
    with pytest.raises(AssertionError, match=r"^policy 'gradient' differs from its plain-Python reference "
                                             r"\(\{\}, \w+ tasks on mesh of 6 PEs, medium exact\): "):
        balancing_checks.compare_with_reference("gradient", {})


def test_a_policy_or_pass_without_a_reference_is_one_line_saying_where_to_add_it():
    with pytest.raises(LookupError, match=r"^no naive reference for policy 'no_such_policy': register one "
                                          r"with @sweep.testing.naive.reference\('no_such_policy'\), in the "
                                          r"module that defines the policy \(a plugin's\) or in a new "
                                          r"module of sweep/testing/naive/policies/ \(sweep's own; "
                                          r"docs/plugins.md\) \(known: "):
        naive_dispatch.simulate("no_such_policy", [0.0], [1.0], 1)
    with pytest.raises(LookupError, match=r"^no naive reference for rigid pass 'greedy': register one "
                                          r"with @sweep.testing.naive.rigid.rigid_pass\('greedy'\) in a new "
                                          r"module of sweep/testing/naive/rigid_passes/, or in a plugin's "
                                          r"policy module \(docs/plugins.md\) \(known: conservative, easy, "
                                          r"fcfs\)"):
        naive_rigid.simulate("greedy", [0.0], [1.0], [1.0], [1], 1)


def test_sweeps_own_reference_in_a_file_of_its_own_is_found_without_a_list():
    """Issue 28: a new policy of sweep adds its reference as a new module of
    sweep/testing/naive/policies/ and edits no existing file: importing the package registers every
    module there (power_of_d's is one), before any family module is asked for."""
    code = ("import sys, sweep.testing.naive as naive; print('power_of_d' in naive.REFERENCES, "
            "'sweep.testing.naive.policies.power_of_d' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=True)
    assert done.stdout.split() == ["True", "True"]
