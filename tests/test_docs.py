"""The documentation site builds with warnings as errors (issue 16 §3): every page, link and
API reference resolves."""

from __future__ import annotations

import os
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
