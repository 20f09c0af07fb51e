"""The import graph of ``sweep`` (issue 28): no circle, no arrow from a lower layer to a higher one.

The layers and the check are those of ``benchmarks/import_graph.py``, which prints the graph.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "import_graph.py"


def test_no_circle_and_no_upward_import(capsys):
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    status = graph.main()
    printed = capsys.readouterr().out
    assert "circles: 0" in printed, printed
    assert "UPWARD" not in printed, printed
    assert status == 0
