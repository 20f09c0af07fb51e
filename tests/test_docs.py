"""The documentation site builds with warnings as errors (issue 16 §3): every page, link and
API reference resolves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                           str(REPOSITORY / "mkdocs.yml"), "-d", str(site)], capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for page in ("index.html", "model-notes/index.html", "reproduction/sh00/index.html",
                 "REPRODUCTION/index.html", "api/running/index.html"):
        assert (site / page).is_file(), page
    assert "Run a real sweep" in (site / "index.html").read_text()  # the README is the home page
    assert 'id="sweep.run"' in (site / "api" / "running" / "index.html").read_text()
    _check_the_api_reference(site / "api")


def _check_the_api_reference(api: Path) -> None:
    """Issue 29: the API reference showed raw Sphinx roles (":func: saturation") and no parameter
    tables. Now numpy-style sections are tables, and every role is a cross-reference (a link where
    the target is on the site, code otherwise)."""
    pages = {page.parent.name: page.read_text() for page in api.glob("*/index.html")}
    assert set(pages) == {"analysis", "families", "running", "workloads"}
    for name, html in pages.items():
        assert not re.search(r":(func|class|mod|meth|attr|data|obj|exc):", html), name
    analysis = pages["analysis"]
    for function in ("confidence_interval", "ratio", "saturation", "saturation_search", "sensitivity",
                     "sensitivity_plot"):
        section = _section(analysis, rf"sweep\.analysis\.\w+\.{function}")
        assert "Parameters:" in section and "<table" in section, function  # a table of its parameters
    assert "Parameters:" in _section(pages["running"], r"sweep\.run")
    # cross-references resolve: to another page (sweep.engine.adaptive) and within the page
    assert 'href="../running/#sweep.engine.adaptive"' in analysis
    assert 'href="#sweep.analysis.sensitivity.sensitivity_plot"' in analysis


def _section(html: str, identifier: str) -> str:
    """The part of an API page from the heading of ``identifier`` (a regular expression) to the next."""
    heading = re.search(rf'id="{identifier}"', html)
    assert heading, identifier
    return html[heading.end():].split('class="doc doc-heading"')[1]


def test_the_readme_quotes_the_published_verdict_counts():
    """README's table quotes, per paper, the counts of the committed pages (reproduction/<paper>.csv,
    written by sweep-reproduce): "<KEY> ... N claims: a reproduced, b deviate, c contradicted, d
    undecided"."""
    import csv
    import re
    from collections import Counter

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    pattern = re.compile(r"(SH00|CV96|TF99|CSSE00)\b[^|]*?\*\*(\d+) claims: (\d+) reproduced, (\d+) deviate, "
                         r"(\d+) contradicted, (\d+) undecided")
    quoted = {m[0]: tuple(int(x) for x in m[1:]) for m in pattern.findall(readme)}
    assert set(quoted) == {"SH00", "CV96", "TF99", "CSSE00"}, quoted
    for key, counts in quoted.items():
        page = root / "reproduction" / f"{'ipg00' if key == 'CSSE00' else key.lower()}.csv"
        with page.open() as rows:
            verdicts = Counter(row["verdict"] for row in csv.DictReader(rows))
        judged = sum(verdicts[v] for v in ("reproduced", "deviates", "contradicted", "undecided"))
        assert counts == (judged, verdicts["reproduced"], verdicts["deviates"], verdicts["contradicted"],
                          verdicts["undecided"]), key


def test_the_worked_paper_example_shows_the_files_of_examples_kleinrock75():
    """docs/adding-a-paper.md shows the four files of its example in full: they are the files of
    ``examples/kleinrock75/sweep_kleinrock75`` (which tests/test_plugin.py installs and judges)."""
    page = (REPOSITORY / "docs" / "adding-a-paper.md").read_text()
    blocks = [body for language, body in re.findall(r"```(\w+)\n(.*?)```", page, re.S)
              if language in ("python", "yaml")]
    package = REPOSITORY / "examples" / "kleinrock75" / "sweep_kleinrock75"
    files = ["__init__.py", "conf/experiment/kleinrock75_mm1.yaml", "figures.py", "claims.yaml"]
    assert blocks == [(package / name).read_text() for name in files]
