"""The ``malleable`` family: P processors, jobs whose allocations change at run time.

Seed 000 (Chiang & Vernon 1996) and MODEL_NOTES §1. Job streams:
:mod:`~sweep.families.malleable.workload`; speedup models:
:mod:`sweep.workloads.speedup`.
"""
