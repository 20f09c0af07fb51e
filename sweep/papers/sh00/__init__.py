"""SH00: Schroeder & Harchol-Balter (2000), *Evaluation of task assignment policies for supercomputing
servers*.

The dispatch family (:mod:`sweep.families.dispatch`): Random, Round-Robin,
Shortest-Queue, Least-Work-Left, Central-Queue and the SITA variants. Figures in
:mod:`.figures`, claims' quantities in :mod:`.quantities`, presets in ``conf/``.
"""
