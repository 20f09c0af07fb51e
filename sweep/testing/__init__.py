"""The generic tests of sweep's policies, for a plugin's policies as for sweep's own (docs/plugins.md).

Run them on an installed plugin's policies with pytest (``pip install sweep[test]`` brings it)::

    pytest --pyargs sweep.testing                                 # every installed plugin's policy
    SWEEP_TESTING_POLICIES=jiq,saf_easy pytest --pyargs sweep.testing   # these policies
    SWEEP_TESTING_POLICIES=all pytest --pyargs sweep.testing      # every policy, sweep's own too

Which policies: :data:`POLICIES_VARIABLE` names them, comma-separated (``all``: every registered
policy); unset or empty, every policy an installed package adds (``sweep.policies`` and
``sweep.families`` entry points). A name no package adds fails the run, as does an empty choice.

What runs, for each chosen policy and each of its ``examples``:

- every family: its parameters are a frozen dataclass whose defaults build, every example is a
  valid parameter set, an unknown option is refused in one line; and the chosen policies of a
  family in one grid on its default workload and system give identical results serially and on
  a local Ray of two workers (docs/design.md §4);
- dispatch (:mod:`sweep.testing.dispatch`): every declared variable is returned, every job is
  served once, FCFS on one host, starting when both it and its host are there
  (``start = max(arrival, the host's previous end)``) and running its size;
- rigid (:mod:`sweep.testing.rigid`): on small random workloads and on the whole KTH trace
  every job starts exactly once, never before its submission, never with more than P
  processors busy;
- every policy that has a plain-Python reference (:mod:`sweep.testing.naive`: registered under
  its name with ``@sweep.testing.naive.reference(name)``, or for a rigid policy the pass its
  ``RigidHooks.reference`` names, the default of ``rigid_policy``): its family's compiled run
  matches the reference on small random cases (``compare_with_reference`` of
  ``sweep.testing.<family>``: dispatch job by job and in the summary statistics, rigid start for
  start, gang tick by tick, mapping task by task, malleable departure by departure, balancing
  task by task), failing
  with the policy and the first difference; a policy without one is skipped with a line saying
  how to add it.

The same checks run over sweep's own policies in its test suite (``tests/test_policies.py``,
``tests/dispatch``, ``tests/rigid``), from these modules. A test module of one's own can use
them directly, and the fixture :func:`sweep.testing.fixtures.ray_session`.
"""

from __future__ import annotations

import os

from sweep.families import Policy, all_policies, plugin_of

__all__ = ["POLICIES_VARIABLE", "chosen_policies", "unknown_policies"]

#: The environment variable naming the policies to test: comma-separated names, or ``all``.
POLICIES_VARIABLE = "SWEEP_TESTING_POLICIES"


def _names() -> list[str]:
    return [name.strip() for name in os.environ.get(POLICIES_VARIABLE, "").split(",") if name.strip()]


def chosen_policies() -> dict[str, Policy]:
    """The policies to test, by name (module docstring): those :data:`POLICIES_VARIABLE` names that
    exist, every registered one for ``all``, every plugin's policy when it is unset."""
    known = all_policies()
    names = _names()
    if names == ["all"]:
        return dict(known)
    if not names:
        return {name: policy for name, policy in known.items() if plugin_of(name)}
    return {name: known[name] for name in names if name in known}


def unknown_policies() -> list[str]:
    """The names :data:`POLICIES_VARIABLE` gives that no installed package registers."""
    known = all_policies()
    return [name for name in _names() if name != "all" and name not in known]
