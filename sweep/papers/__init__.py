"""The classic studies, one package per paper (docs/design.md §2; issue 28).

A paper's package ``sweep/papers/<key>/`` holds everything of that study and
nothing else:

- ``claims.yaml``: its claim records, presets' replication budgets and
  calibration targets (:mod:`sweep.reproduce.claims` reads it);
- ``conf/``: its presets (``conf/experiment/<key>_*.yaml``) and any
  paper-specific option of another group (CV96's ``conf/workload/cv96_*.yaml``),
  searched after sweep's own ``conf`` (:func:`sweep.config.files.config_dirs`);
- Python modules: its figures, registered with
  :func:`sweep.analysis.figures.figure`, and the quantities its claims compute,
  registered with :func:`sweep.reproduce.quantities.quantity`.

Nothing lists the papers: a folder here holding ``claims.yaml`` is one
(:func:`sweep.config.files.paper_folders`), and every module of it not named with
a leading ``_`` is imported when figures or quantities are first looked up. Adding
a paper is adding its folder. Two things of a paper live elsewhere: its notebook,
in the repository's ``notebooks/`` where the tests execute it, and what
``sweep-calibrate`` fits for it (``conf/calibrated/`` and
``sweep/reproduce/calibrations/``), a tool's output kept where the tool writes it.
"""
