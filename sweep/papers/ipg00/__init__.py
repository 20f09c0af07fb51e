"""CSSE00 (key ``ipg00``): Campos, Silva, Scherson & Eshaghian (2000), *An Information Power Grid
resource management tool* (IPG-SaLaD).

Three families: mapping (Table 1, :mod:`.mapping`), balancing (Tables 2–4,
:mod:`.balancing`) and gang (Tables 5–7, :mod:`.gang`); the claims' quantities
in :mod:`.quantities`, presets in ``conf/``.
"""
