"""The reproduction report: ``claims.csv``, ``report.md``, ``report.html`` and the repository's pages.

One structure (:class:`Report`: per paper its claims file, each preset's figures and
compute time, each claim's :class:`~sweep.reproduce.claims.Judgement`) is written
four ways: a CSV row per claim; Markdown with the figures linked; self-contained
HTML with the figures embedded as base64 PNG (plain string templates, no renderer
needed); and the repository's pages, ``REPRODUCTION.md`` (the summary) and
``reproduction/<paper>.md`` (one page per paper, figures under ``reproduction/figures/``).
"""

from __future__ import annotations

import base64
import csv
import html
import re
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sweep.reproduce.claims import VERDICTS, Claim, Judgement, Paper

#: A claim whose quantity could not be computed (a bug, not a verdict).
ERROR = "error"
#: A ``full_only`` claim in a quick run: its presets' quick overrides do not hold what it reads.
FULL_ONLY = "full precision only"
#: What a claim can come out as besides a verdict, said beside the claim count.
NOT_VERDICTS = (FULL_ONLY, ERROR)

CSV_COLUMNS = ("paper", "id", "section", "words", "presets", "paper_value", "measured", "verdict",
               "deviation", "full_only")


@dataclass
class PresetRun:
    """One preset of the run: its overrides, where its Dataset is, its figures, what it cost."""

    name: str
    overrides: list[str]
    compute_seconds: float
    figures: list[Path] = field(default_factory=list)
    reused: bool = False


@dataclass
class ClaimResult:
    """A claim with its verdict and measured text (or the error that kept it from one)."""

    claim: Claim
    verdict: str
    measured: str

    @classmethod
    def of(cls, claim: Claim, judge: Callable[[Claim], Judgement], quick: bool = False) -> ClaimResult:
        if quick and claim.full_only:
            return cls(claim, FULL_ONLY, claim.full_only)
        try:
            judgement = judge(claim)
        except Exception as error:  # noqa: BLE001 - any failure of a quantity is reported, not raised
            return cls(claim, ERROR, f"{type(error).__name__}: {error}")
        return cls(claim, judgement.verdict, judgement.measured_text())


@dataclass
class PaperResult:
    paper: Paper
    presets: list[PresetRun]
    claims: list[ClaimResult]

    def counts(self) -> Counter:
        return Counter(result.verdict for result in self.claims)

    def compute_seconds(self) -> float:
        return sum(p.compute_seconds for p in self.presets)

    def count_text(self) -> str:
        counts = self.counts()
        return ", ".join(f"{counts[v]} {v}" for v in (*VERDICTS, *NOT_VERDICTS) if v in VERDICTS or counts[v])

    def others_text(self) -> str:
        """`` (11 full precision only)`` beside the claim count when some claims got no verdict."""
        counts = self.counts()
        others = ", ".join(f"{counts[v]} {v}" for v in NOT_VERDICTS if counts[v])
        return f" ({others})" if others else ""


@dataclass
class Report:
    papers: list[PaperResult]
    quick: bool
    wall_seconds: float
    memory: str
    command: str
    machine: str


def write_csv(report: Report, path: Path) -> None:
    """One row per claim: the paper's words and value, the measured value with its CI, the verdict."""
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for paper in report.papers:
            for r in paper.claims:
                c = r.claim
                writer.writerow([c.paper, c.id, c.section, c.words, " ".join(c.presets), c.expect.printed,
                                 r.measured, r.verdict, c.deviation or "", c.full_only or ""])


# ---------------------------------------------------------------------------------------------
# Markdown


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary_markdown(report: Report, page_of: Callable[[str], str] | None = None) -> str:
    """The summary table: verdicts and compute time per paper, the run's wall time and memory."""
    precision = "quick (reduced precision, `--quick`)" if report.quick else "full (the presets as they are)"
    lines = [f"Precision: {precision}. Command: `{report.command}`. Machine: {report.machine}.", "",
             "| paper | claims | " + " | ".join(VERDICTS) + " | presets | compute (s) |",
             "|---|---|" + "---|" * len(VERDICTS) + "---|---|"]
    for paper in report.papers:
        counts = paper.counts()
        name = f"{paper.paper.key.upper()}: {paper.paper.title}"
        if page_of:
            name = f"[{name}]({page_of(paper.paper.key)})"
        lines.append(f"| {_cell(name)} | {len(paper.claims)}{paper.others_text()} | "
                     + " | ".join(str(counts[v]) for v in VERDICTS)
                     + f" | {len(paper.presets)} | {paper.compute_seconds():.0f} |")
    lines += ["", f"Wall time of the whole run: {report.wall_seconds:.0f} s. {report.memory}",
              "Compute is the time the presets' tasks took in the workers (summed over workers; a "
              "preset reused from an earlier run keeps the time it took then).", "",
              "Verdicts: **reproduced**, every 90% interval meets the paper's value or range; "
              "**deviates**, the paper's qualitative claim holds but not its number; "
              "**contradicted**, the model says the opposite. A claim with a *deviation* note is one "
              "the model is known not to reproduce at full precision, with the measured values and "
              "the cause; one marked *full precision only* cannot be judged on a quick run."]
    return "\n".join(lines)


def paper_markdown(result: PaperResult, figure_link: Callable[[Path], str], level: int = 2) -> str:
    """A paper's section: its notes, then per preset its command, figures and the claims it reads."""
    head = "#" * level
    paper = result.paper
    lines = [f"{head} {paper.key.upper()}: {paper.title}", "",
             f"Claims: {len(result.claims)} ({result.count_text()}); compute "
             f"{result.compute_seconds():.0f} s over {len(result.presets)} presets.", ""]
    if paper.notes:
        lines += [paper.notes, ""]
    by_preset = {p.name: [] for p in result.presets}
    for r in result.claims:
        by_preset.setdefault(r.claim.presets[0] if r.claim.presets else "", []).append(r)
    for run in result.presets:
        command = " ".join(["sweep", f"experiment={run.name}", *run.overrides])
        lines += [f"{head}# {run.name}", "",
                  f"`{command}`: {run.compute_seconds:.1f} s of compute"
                  + (" (reused from an earlier run)" if run.reused else "") + ".", ""]
        lines += [f"![{f.stem}]({figure_link(f)})" for f in run.figures if f.suffix == ".png"]
        if run.figures:
            lines.append("")
        lines += claims_table(by_preset.pop(run.name, []))
    for rest in by_preset.values():
        lines += claims_table(rest)
    return "\n".join(lines)


def claims_table(results: Sequence[ClaimResult]) -> list[str]:
    if not results:
        return []
    lines = ["| claim | paper | measured (90% CI) | verdict |", "|---|---|---|---|"]
    for r in results:
        c = r.claim
        note = ""
        if c.deviation:
            note += f"<br>*Deviation:* {c.deviation}"
        if c.full_only:
            note += f"<br>*Full precision only:* {c.full_only}"
        lines.append(f"| **{c.id}** ({c.section}): {_cell(c.words)}{_cell(note)} | {_cell(c.expect.printed)} "
                     f"| {_cell(r.measured)} | **{r.verdict}** |")
    return [*lines, ""]


def report_markdown(report: Report, folder: Path) -> str:
    """``report.md``: the summary, then every paper; figures linked relative to ``folder``."""
    parts = ["# Reproduction report", "", summary_markdown(report), ""]
    for paper in report.papers:
        parts += [paper_markdown(paper, lambda f: f.relative_to(folder).as_posix()), ""]
    return "\n".join(parts)


def write_pages(report: Report, root: Path) -> list[Path]:
    """``REPRODUCTION.md`` (the summary) and ``reproduction/<paper>.md`` with the figures copied to
    ``reproduction/figures/<paper>/``, under the repository ``root``."""
    written = []
    pages = root / "reproduction"
    for paper in report.papers:
        figures = pages / "figures" / paper.paper.key
        figures.mkdir(parents=True, exist_ok=True)
        for run in paper.presets:
            for figure in run.figures:
                if figure.suffix == ".png":
                    shutil.copyfile(figure, figures / figure.name)
        page = pages / f"{paper.paper.key}.md"
        page.write_text("<!-- Written by sweep-reproduce; do not edit by hand. -->\n"
                        + paper_markdown(paper, lambda f, k=paper.paper.key: f"figures/{k}/{f.name}", level=1)
                        + "\n")
        written.append(page)
    summary = root / "REPRODUCTION.md"
    summary.write_text("<!-- Written by sweep-reproduce; do not edit by hand. -->\n"
                       "# Reproduction of the classic studies\n\n"
                       "Every claim of each paper is a record (`sweep/reproduce/papers/<paper>.yaml`) "
                       "judged on the Datasets of the paper's presets by `sweep-reproduce`, which wrote "
                       "this page and the pages it links to.\n\n"
                       + summary_markdown(report, lambda key: f"reproduction/{key}.md") + "\n")
    return [summary, *written]


# ---------------------------------------------------------------------------------------------
# HTML (self-contained: figures embedded)

_INLINE = [(re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
           (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
           (re.compile(r"\*([^*\s][^*]*)\*"), r"<em>\1</em>"),
           (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>')]


def _inline(text: str) -> str:
    """Markdown's inline marks (code, bold, italic, links) on escaped text."""
    out = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _paragraphs(markdown: str) -> str:
    return "\n".join(f"<p>{_inline(' '.join(block.split()))}</p>" for block in re.split(r"\n\s*\n", markdown)
                     if block.strip())


def _embedded(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


_STYLE = """body{font-family:system-ui,sans-serif;max-width:80rem;margin:2rem auto;padding:0 1rem;
line-height:1.4}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top}
img{max-width:48%;margin:.2rem}code{background:#f3f3f3;padding:0 .2rem}
.reproduced{background:#e6f4e6}.deviates{background:#fff4d6}.contradicted{background:#fbe3e3}
.error{background:#ddd}
.note{font-size:.9em;color:#444}"""


def report_html(report: Report) -> str:
    """``report.html``: the same content as ``report.md``, figures embedded as base64 PNG."""
    precision = "quick (reduced precision, --quick)" if report.quick else "full (the presets as they are)"
    body = ["<h1>Reproduction report</h1>",
            f"<p>Precision: {precision}. Command: <code>{html.escape(report.command)}</code>. "
            f"Machine: {html.escape(report.machine)}.</p>",
            "<table><tr><th>paper</th><th>claims</th>" + "".join(f"<th>{v}</th>" for v in VERDICTS)
            + "<th>presets</th><th>compute (s)</th></tr>"]
    for paper in report.papers:
        counts = paper.counts()
        body.append(f'<tr><td><a href="#{paper.paper.key}">{paper.paper.key.upper()}</a>: '
                    f"{html.escape(paper.paper.title)}</td><td>{len(paper.claims)}{paper.others_text()}</td>"
                    + "".join(f'<td class="{v}">{counts[v]}</td>' for v in VERDICTS)
                    + f"<td>{len(paper.presets)}</td><td>{paper.compute_seconds():.0f}</td></tr>")
    body += ["</table>", f"<p>Wall time of the whole run: {report.wall_seconds:.0f} s. "
             f"{html.escape(report.memory)}</p>"]
    for paper in report.papers:
        body += _paper_html(paper)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reproduction report"
            f"</title><style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _paper_html(result: PaperResult) -> list[str]:
    paper = result.paper
    out = [f'<h2 id="{paper.key}">{paper.key.upper()}: {html.escape(paper.title)}</h2>',
           f"<p>Claims: {len(result.claims)} ({result.count_text()}); compute "
           f"{result.compute_seconds():.0f} s over {len(result.presets)} presets.</p>",
           _paragraphs(paper.notes)]
    by_preset = {p.name: [] for p in result.presets}
    for r in result.claims:
        by_preset.setdefault(r.claim.presets[0] if r.claim.presets else "", []).append(r)
    for run in result.presets:
        command = " ".join(["sweep", f"experiment={run.name}", *run.overrides])
        out += [f"<h3>{run.name}</h3>",
                f"<p><code>{html.escape(command)}</code>: {run.compute_seconds:.1f} s of compute"
                + (" (reused from an earlier run)" if run.reused else "") + ".</p>",
                "<div>" + "".join(_embedded(f) for f in run.figures if f.suffix == ".png") + "</div>"]
        out += _claims_html(by_preset.pop(run.name, []))
    for rest in by_preset.values():
        out += _claims_html(rest)
    return out


def _claims_html(results: Sequence[ClaimResult]) -> list[str]:
    if not results:
        return []
    rows = ["<table><tr><th>claim</th><th>paper</th><th>measured (90% CI)</th><th>verdict</th></tr>"]
    for r in results:
        c = r.claim
        notes = "".join(f'<div class="note"><em>{label}:</em> {html.escape(text)}</div>'
                        for label, text in (("Deviation", c.deviation), ("Full precision only", c.full_only))
                        if text)
        rows.append(f"<tr><td><strong>{html.escape(c.id)}</strong> ({html.escape(c.section)}): "
                    f"{html.escape(c.words)}{notes}</td><td>{html.escape(c.expect.printed)}</td>"
                    f"<td>{html.escape(r.measured)}</td><td class=\"{r.verdict}\">{r.verdict}</td></tr>")
    return [*rows, "</table>"]
