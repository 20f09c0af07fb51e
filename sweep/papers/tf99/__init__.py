"""TF99: Talby & Feitelson (1999), *Supporting priorities and improving utilization of the IBM SP
scheduler using slack-based backfilling*.

The rigid family (:mod:`sweep.families.rigid`): FCFS, EASY, conservative and
slack-based priority backfilling on the KTH log. Tables as figures in
:mod:`.figures`, claims' quantities in :mod:`.quantities`, presets in ``conf/``.
"""
