"""The ipg00_table1 figure and the Gantt diagram are drawn from real (tiny) result files."""

from __future__ import annotations

import matplotlib
import pytest

import sweep
from sweep.analysis.figures import FIGURES, write_figures
from sweep.papers.ipg00.mapping import PAPER, gantt, paper_column

matplotlib.use("Agg")

TINY = ["engine.backend=serial", "replications=2", "progress=false", "plots=false"]


def test_the_paper_table_is_transcribed_whole():
    assert sorted(PAPER) == list(range(100, 1001, 100))
    sizes, cm = paper_column("cluster_m")
    assert cm["speedup"][0] == 3.22 and cm["mapping_seconds"][-1] == pytest.approx(0.0047)
    assert paper_column("mh")[1]["mapping_seconds"][-1] == pytest.approx(613.1182)


def test_table1_figure_from_a_reduced_preset(tmp_path):
    ds = sweep.run(["experiment=ipg00_table1", "grid.policy=[cluster_m,heft]", "grid.workload.size=[20,40]",
                    "system.processors=6", *TINY, f"output={tmp_path / 'r.nc'}"])
    written = write_figures(ds, "ipg00_table1", tmp_path)
    assert "ipg00_table1" in FIGURES and {p.suffix for p in written} == {".png", ".pdf"}


def test_gantt_of_a_recorded_schedule(tmp_path):
    ds = sweep.run(["grid.policy=[heft,cpop]", "workload=topcuoglu2002", "system=full3", "record_jobs=true",
                    *TINY, f"output={tmp_path / 'g.nc'}"])
    fig = gantt(ds, policy="cpop", replication=0)
    bars = fig.axes[0].patches
    assert len(bars) == 10 and max(b.get_x() + b.get_width() for b in bars) == 86
    with pytest.raises(ValueError, match="select one schedule"):
        gantt(ds)
