"""MkDocs hooks of the documentation site (mkdocs.yml).

Pages written for the repository stay where they are and are taken as they are:
``README.md`` is the home page, ``BENCHMARKS.md``, ``REPRODUCTION.md`` and
``reproduction/`` (with its figures) sit beside the pages of ``docs/``. Their links are
the repository's (``docs/model-notes.md`` from the README, ``../reproduction/sh00.md``
from a page of ``docs/``); on the site every page is at the top, so those prefixes go.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File, Files

REPOSITORY = Path(__file__).resolve().parents[1]
#: Repository files that are pages of the site: {path in the repository: path on the site}.
TOP_LEVEL = {"README.md": "index.md", "BENCHMARKS.md": "BENCHMARKS.md", "REPRODUCTION.md": "REPRODUCTION.md"}
#: Link prefixes that are right on the repository and wrong on the site.
_REPOSITORY_LINK = re.compile(
    r"\]\((?:\.\./(?=reproduction/|REPRODUCTION\.md|README\.md|BENCHMARKS\.md)|docs/)")


def on_files(files: Files, config) -> Files:
    """Add the top-level pages and everything under ``reproduction/`` to the site."""
    for source, page in TOP_LEVEL.items():
        files.append(File.generated(config, page, abs_src_path=str(REPOSITORY / source)))
    for source in (REPOSITORY / "reproduction").rglob("*"):
        if source.is_file():
            page = str(source.relative_to(REPOSITORY))
            files.append(File.generated(config, page, abs_src_path=str(source)))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Links written for the repository (``docs/x.md``, ``../reproduction/x.md``) as the site's."""
    return _REPOSITORY_LINK.sub("](", markdown)
