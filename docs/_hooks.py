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

import griffe
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


#: A Sphinx cross-reference role in a docstring: ``:func:`name```, ``:class:`~pkg.Name```, ...
_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|attr|data|obj|exc|const):`(~?)([\w.]+)(?:\(\))?`")


class SphinxRoles(griffe.Extension):
    """The docstrings' Sphinx roles as the site's cross-references (mkdocstrings' autorefs).

    ``:func:`name``` becomes a link to ``name``'s entry in the API reference, the name resolved
    in the scope of the object whose docstring it is (``:class:`StopRule``` in a module that
    imports it is ``sweep.families.StopRule``); ``~`` shows the last component only. A name the
    reference does not show (a private helper) stays as code, not a broken link: the reference
    is optional. Without this the pages showed the roles raw (":func: saturation").
    """

    def on_package(self, *, pkg: griffe.Module, **kwargs: object) -> None:
        for obj in _documented(pkg):
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = _ROLE.sub(lambda match, obj=obj: _reference(obj, match),
                                                obj.docstring.value)


def _documented(obj: griffe.Object):
    """``obj`` and every object defined in it (not the names it imports)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _documented(member)


def _reference(obj: griffe.Object, match: re.Match) -> str:
    """An optional cross-reference (unresolved: plain code, no warning) to the role's target."""
    tilde, name = match[1], match[2]
    shown = name.rsplit(".", 1)[-1] if tilde else name
    target = name
    if not name.startswith(f"{obj.package.name}."):
        first, *rest = name.split(".")
        try:
            target = ".".join([obj.resolve(first), *rest])
        except (griffe.NameResolutionError, KeyError, ValueError):
            target = name
    return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'
