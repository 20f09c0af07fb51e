"""Reproduction as data (docs/design.md §9): each paper's claims are records, judged from Datasets.

:mod:`sweep.reproduce.claims` reads a paper's claims file
(``sweep/papers/<paper>/claims.yaml``) and judges each claim against the
Datasets of the presets it reads; the quantities claims compute are
registered functions (:mod:`sweep.reproduce.quantities`).
"""
