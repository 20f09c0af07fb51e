"""Figures drawn while other presets run (issue 27 item 3): drawn once per set of parts, again only
when a later round adds a part, and the same files as drawing at the end."""

from __future__ import annotations

import sweep
from sweep.reproduce.drawing import Drawings, draw_preset

SMALL = ["experiment=sh00_fig5", "grid.load=[0.5,0.7]", "stop.jobs=3000", "stop.warmup=300",
         "engine.backend=serial", "progress=false", "plots=false"]


def test_a_preset_is_drawn_once_per_set_of_parts(tmp_path):
    first, later = tmp_path / "first.nc", tmp_path / "later.nc"
    sweep.run([*SMALL, "replications=2", f"output={first}"])
    sweep.run([*SMALL, "replications=2", "first_replication=2", f"output={later}"])
    figures = tmp_path / "figures"
    figures.mkdir()
    drawings = Drawings(figures, 2)
    try:
        drawings.submit("sh00_fig5", [first])
        (future_one,) = [future for _, future in drawings._drawing.values()]
        drawings.submit("sh00_fig5", [first])  # the same parts: not drawn again
        assert drawings._drawing["sh00_fig5"][1] is future_one
        names = drawings.results({"sh00_fig5": [first, later]})  # a later round's part: drawn again
        assert drawings._drawing["sh00_fig5"][1] is not future_one
    finally:
        drawings.close()
    assert names["sh00_fig5"] and all((figures / name).stat().st_size > 10_000 for name in names["sh00_fig5"])
    again = tmp_path / "again"
    again.mkdir()
    assert draw_preset("sh00_fig5", [first, later], again) == names["sh00_fig5"]
