"""An example of everything a package outside sweep can add (docs/plugins.md).

- :mod:`.jiq`: a dispatch policy, Join-Idle-Queue (``sweep.policies``);
- :mod:`.saf_easy`: a rigid backfilling variant, EASY with the smallest job area first
  (``sweep.policies``);
- :mod:`.lognormal`: a service-time distribution kind, lognormal sizes of a given mean and
  squared coefficient of variation (``sweep.workloads``);
- this package is also a paper (``sweep.papers``, key ``pollaczek30``): ``claims.yaml``, the
  preset in ``conf/experiment/`` and the figure in :mod:`.figures`, the Pollaczek–Khinchine
  mean response time of the M/G/1 queue checked on lognormal sizes, with JIQ beside it.

Nothing here is imported by sweep until one of the entry points is used.
"""
