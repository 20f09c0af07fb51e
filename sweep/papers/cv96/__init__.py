"""CV96: Chiang & Vernon (1996), *Dynamic vs. static quantum-based parallel processor allocation*.

The malleable family (:mod:`sweep.families.malleable`): EQS, EQS-PWS, EQS-AVG,
FB-PWS and FB-ASP on 128 processors. Figures in :mod:`.figures`, claims'
quantities in :mod:`.quantities`, presets and the paper's workloads in ``conf/``.
"""
