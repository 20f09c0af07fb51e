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
#: A claim that reads numbers a calibration was fitted to: used, not judged.
CALIBRATION = "used to calibrate"
#: What a claim can come out as besides a verdict, said beside the claim count.
NOT_VERDICTS = (FULL_ONLY, CALIBRATION, ERROR)

#: What the four verdicts mean (claims.py's rule), under every summary.
VERDICT_TEXT = ("Verdicts, on each claim's 90% intervals: **reproduced**, every interval lies within the "
                "paper's printed precision of its value (or wholly on the claimed side of its inequality); "
                "**deviates**, every interval lies on the claimed side of the qualitative claim and outside "
                "the paper's number; **contradicted**, an interval lies wholly on the other side; "
                "**undecided**, an interval straddles a boundary, so the run cannot tell (an interval that "
                "merely touches the paper's value is undecided). Undecided claims get more replications, "
                "in rounds, at the points they read, up to each preset's budget; *replications* is the "
                "fewest a claim's points were judged on. A verdict marked *marginal* would not be "
                "decided on intervals twice as wide: its value lies within about one interval's width of a "
                "boundary, and another seed may leave it undecided. A *deviation* note gives the measured "
                "values and their cause, or says the cause is unknown; one marked *full precision only* "
                "cannot be judged on a quick run.")

CSV_COLUMNS = ("paper", "id", "section", "words", "presets", "paper_value", "measured", "replications",
               "verdict", "marginal", "expected", "sensitivity", "deviation", "full_only")


@dataclass
class PresetRun:
    """One preset of the run: its overrides, where its Dataset is, its figures, what it cost."""

    name: str
    overrides: list[str]
    compute_seconds: float
    figures: list[Path] = field(default_factory=list)
    reused: bool = False
    rounds: int = 1


@dataclass
class ClaimResult:
    """A claim with its verdict and measured text (or the error that kept it from one)."""

    claim: Claim
    verdict: str
    measured: str
    replications: str = ""
    quick: bool = False
    sensitivity: str = ""
    marginal: bool = False  # decided, but within about one interval's width of a boundary

    @classmethod
    def of(cls, claim: Claim, judge: Callable[[Claim], Judgement], quick: bool = False,
           replications: str = "", calibrated_by: str | None = None) -> ClaimResult:
        if quick and claim.full_only:
            return cls(claim, FULL_ONLY, claim.full_only, "", quick)
        if calibrated_by:
            return cls(claim, CALIBRATION, f"its numbers fitted the calibration {calibrated_by}", "", quick)
        try:
            judgement = judge(claim)
        except Exception as error:  # noqa: BLE001 - any failure of a quantity is reported, not raised
            return cls(claim, ERROR, f"{type(error).__name__}: {error}", replications, quick)
        return cls(claim, judgement.verdict, judgement.measured_text(), replications, quick,
                   marginal=judgement.marginal)

    @property
    def mark(self) -> str:
        """`` (marginal)`` after a marginal verdict, else nothing."""
        return " (marginal)" if self.marginal else ""

    @property
    def expected(self) -> str:
        """The verdict the claim's record expects at this run's precision."""
        return self.verdict if self.verdict in NOT_VERDICTS[:2] else self.claim.expected(self.quick)


@dataclass
class PaperResult:
    paper: Paper
    presets: list[PresetRun]
    claims: list[ClaimResult]
    calibrations: list[dict] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(result.verdict for result in self.claims)

    def compute_seconds(self) -> float:
        return sum(p.compute_seconds for p in self.presets)

    def count_text(self) -> str:
        counts = self.counts()
        text = ", ".join(f"{counts[v]} {v}" for v in (*VERDICTS, *NOT_VERDICTS) if v in VERDICTS or counts[v])
        marginal = self.marginal()
        return text + (f"; {marginal} of the decided marginal" if marginal else "")

    def marginal(self) -> int:
        """Decided claims whose verdict is marginal (:attr:`ClaimResult.marginal`)."""
        return sum(1 for r in self.claims if r.marginal)

    def cause_unknown(self) -> int:
        """Claims not reproduced whose deviation note says that the cause is unknown."""
        return sum(1 for r in self.claims
                   if r.verdict in ("deviates", "contradicted") and r.claim.cause_unknown)

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


#: The figure files a report shows, by suffix, with their media types (a still figure is a PNG, an
#: animated one a GIF: ``sweep.analysis.figures.write_figures``).
IMAGES = {".png": "image/png", ".gif": "image/gif"}


def write_csv(report: Report, path: Path) -> None:
    """One row per claim: the paper's words and value, the measured value with its CI, the verdict."""
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for paper in report.papers:
            for r in paper.claims:
                c = r.claim
                writer.writerow([c.paper, c.id, c.section, c.words, " ".join(c.presets), c.expect.printed,
                                 r.measured, r.replications, r.verdict, "yes" if r.marginal else "",
                                 r.expected, r.sensitivity,
                                 c.deviation or "", c.full_only or ""])


# ---------------------------------------------------------------------------------------------
# Markdown

#: The summary's columns after the verdict counts (:func:`_summary_cells`).
SUMMARY_COLUMNS = ("marginal", "cause unknown", "presets", "compute (s)")


def _summary_cells(paper: PaperResult) -> list[str]:
    """A paper's :data:`SUMMARY_COLUMNS` in the summary table (Markdown and HTML alike)."""
    return [str(paper.marginal()), str(paper.cause_unknown()), str(len(paper.presets)),
            f"{paper.compute_seconds():.0f}"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary_markdown(report: Report, page_of: Callable[[str], str] | None = None) -> str:
    """The summary table: verdicts and compute time per paper, the run's wall time and memory."""
    precision = "quick (reduced precision, `--quick`)" if report.quick else "full (the presets as they are)"
    lines = [f"Precision: {precision}. Command: `{report.command}`. Machine: {report.machine}.", "",
             "| paper | claims | " + " | ".join((*VERDICTS, *SUMMARY_COLUMNS)) + " |",
             "|---|---|" + "---|" * (len(VERDICTS) + len(SUMMARY_COLUMNS))]
    for paper in report.papers:
        counts = paper.counts()
        name = f"{paper.paper.key.upper()}: {paper.paper.title}"
        if page_of:
            name = f"[{name}]({page_of(paper.paper.key)})"
        lines.append(f"| {_cell(name)} | {len(paper.claims)}{paper.others_text()} | "
                     + " | ".join([*(str(counts[v]) for v in VERDICTS), *_summary_cells(paper)]) + " |")
    lines += ["", f"Wall time of the whole run: {report.wall_seconds:.0f} s. {report.memory}",
              "Compute is the time the presets' tasks took in the workers (summed over workers, every "
              "round of replications included; a preset reused from an earlier run keeps the time it "
              "took then). *Marginal* counts the decided claims marked so below. *Cause unknown* counts "
              "the claims deviating or contradicted whose note says the cause is not known.", "",
              VERDICT_TEXT]
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
    lines += calibration_markdown(result.calibrations, level + 1)
    by_preset = {p.name: [] for p in result.presets}
    for r in result.claims:
        by_preset.setdefault(r.claim.presets[0] if r.claim.presets else "", []).append(r)
    for run in result.presets:
        command = " ".join(["sweep", f"experiment={run.name}", *run.overrides])
        lines += [f"{head}# {run.name}", "",
                  f"`{command}`: {run.compute_seconds:.1f} s of compute"
                  + (f" in {run.rounds} rounds of replications" if run.rounds > 1 else "")
                  + (" (reused from an earlier run)" if run.reused else "") + ".", ""]
        lines += [f"![{f.stem}]({figure_link(f)})" for f in run.figures if f.suffix in IMAGES]
        if run.figures:
            lines.append("")
        lines += claims_table(by_preset.pop(run.name, []))
    for rest in by_preset.values():
        lines += claims_table(rest)
    return "\n".join(lines)


def calibration_markdown(records: Sequence[dict], level: int) -> list[str]:
    """Each calibration: the fitted parameters with their intervals and ranges, the targets beside the
    fitted model, the design it ran (``sweep-calibrate``'s records)."""
    lines = []
    for record in records:
        if record.get("kind") == "sensitivity":
            lines += sensitivity_markdown(record, level)
            continue
        lines += [f"{'#' * level} Calibration {record['name']} (reconstruction)", "",
                  f"Fitted by `sweep-calibrate --paper {record['paper']}`: {record['words']}.", "",
                  "| parameter | plausible range | fitted (90% bootstrap interval) | in the presets |",
                  "|---|---|---|---|"]
        for key, p in record["parameters"].items():
            lines.append(f"| `{key}` | {p['range'][0]:g}–{p['range'][1]:g} | {p['fitted']:.4g} "
                         f"[{p['interval'][0]:.4g}, {p['interval'][1]:.4g}] | {p['written']} |")
        lines += ["", "| target (used to calibrate, not judged) | printed | fitted model | "
                  "relative residuals |", "|---|---|---|---|"]
        for t in record["targets"]:
            residuals = ", ".join("–" if r is None else f"{r:+.0%}" for r in t["relative_residuals"])
            lines.append(f"| {_cell(t['words'])} | {', '.join(f'{v:g}' for v in t['printed'])} | "
                         f"{', '.join(f'{v:.3g}' for v in t['fitted'])} | {residuals} |")
        design = record["design"]
        lines += ["", f"Design: {design['points']} points × {design['replications']} replications of "
                  f"each preset, {design['compute_seconds']:.0f} s of compute; sum of squared relative "
                  f"residuals {record['objective']:.3g}. Each verdict's *sensitivity* below is its "
                  "verdict at every design point.", ""]
    return lines


def sensitivity_markdown(record: dict, level: int) -> list[str]:
    """A ``sensitivity:`` block's record: the parameters, their plausible ranges with the source,
    the design points, and how many claims hold their verdict across them."""
    lines = [f"{'#' * level} Sensitivity {record['name']} (reconstruction, not fitted)", "",
             f"Varied by `sweep-calibrate --paper {record['paper']}`: {record['words']}. Plausible range: "
             f"{record['source']}.", "",
             "| parameter | plausible range | design points |", "|---|---|---|"]
    for key, p in record["parameters"].items():
        plausible = ", ".join(p["values"]) if "values" in p else f"{p['range'][0]:g}–{p['range'][1]:g}"
        lines.append(f"| `{key}` | {plausible} | "
                     f"{', '.join(v if isinstance(v, str) else f'{v:g}' for v in p['design'])} |")
    design = record["design"]
    overrides = f" (with `{' '.join(design['overrides'])}`)" if design.get("overrides") else ""
    count = len(record["sensitivity"])
    replications = (f"{design['replications']} replications of each preset" if design["replications"] != "own"
                    else "each preset's own replications (as the run's first round)")
    lines += ["", f"Design: {design['points']} points × {replications}"
              f"{overrides}, {design['compute_seconds']:.0f} s of compute; "
              f"{count} {'claim reads' if count == 1 else 'claims read'} the parameters. Each verdict's "
              "*sensitivity* below is its verdict at every design point.", ""]
    return lines


def claims_table(results: Sequence[ClaimResult]) -> list[str]:
    if not results:
        return []
    lines = ["| claim | paper | measured (90% CI) | replications | verdict |", "|---|---|---|---|---|"]
    for r in results:
        c = r.claim
        note = ""
        if c.deviation:
            note += f"<br>*Deviation:* {c.deviation}"
        if c.full_only:
            note += f"<br>*Full precision only:* {c.full_only}"
        if r.sensitivity:
            note += f"<br>*Sensitivity:* {r.sensitivity}"
        lines.append(f"| **{c.id}** ({c.section}): {_cell(c.words)}{_cell(note)} | {_cell(c.expect.printed)} "
                     f"| {_cell(r.measured)} | {_cell(r.replications)} | **{r.verdict}**{r.mark} |")
    return [*lines, ""]


def report_markdown(report: Report, folder: Path) -> str:
    """``report.md``: the summary, then every paper; figures linked relative to ``folder``."""
    parts = ["# Reproduction report", "", summary_markdown(report), ""]
    for paper in report.papers:
        parts += [paper_markdown(paper, lambda f: f.relative_to(folder).as_posix()), ""]
    return "\n".join(parts)


def write_pages(report: Report, root: Path) -> list[Path]:
    """``REPRODUCTION.md`` (the summary), ``reproduction/<paper>.md`` with the figures copied to
    ``reproduction/figures/<paper>/``, and ``reproduction/<paper>.csv`` (its verdicts, which the
    tests compare with the records), under the repository ``root``."""
    written = []
    pages = root / "reproduction"
    for paper in report.papers:
        figures = pages / "figures" / paper.paper.key
        figures.mkdir(parents=True, exist_ok=True)
        for run in paper.presets:
            for figure in run.figures:
                if figure.suffix in IMAGES:
                    shutil.copyfile(figure, figures / figure.name)
        page = pages / f"{paper.paper.key}.md"
        page.write_text("<!-- Written by sweep-reproduce; do not edit by hand. -->\n"
                        + paper_markdown(paper, lambda f, k=paper.paper.key: f"figures/{k}/{f.name}", level=1)
                        + "\n")
        written.append(page)
        write_csv(Report([paper], report.quick, 0.0, "", "", ""), pages / f"{paper.paper.key}.csv")
        written.append(pages / f"{paper.paper.key}.csv")
    summary = root / "REPRODUCTION.md"
    summary.write_text("<!-- Written by sweep-reproduce; do not edit by hand. -->\n"
                       "# Reproduction of the classic studies\n\n"
                       "Every claim of each paper is a record (`sweep/papers/<paper>/claims.yaml`) "
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
    return f'<img alt="{html.escape(path.stem)}" src="data:{IMAGES[path.suffix]};base64,{data}">'


_STYLE = """body{font-family:system-ui,sans-serif;max-width:80rem;margin:2rem auto;padding:0 1rem;
line-height:1.4}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top}
img{max-width:100%;display:block;margin:.5rem 0}code{background:#f3f3f3;padding:0 .2rem}
.reproduced{background:#e6f4e6}.deviates{background:#fff4d6}.contradicted{background:#fbe3e3}
.undecided{background:#e3ecfb}
img{cursor:zoom-in}
.error{background:#ddd}
.note{font-size:.9em;color:#444}"""


def report_html(report: Report) -> str:
    """``report.html``: the same content as ``report.md``, figures embedded as base64 PNG."""
    precision = "quick (reduced precision, --quick)" if report.quick else "full (the presets as they are)"
    body = ["<h1>Reproduction report</h1>",
            f"<p>Precision: {precision}. Command: <code>{html.escape(report.command)}</code>. "
            f"Machine: {html.escape(report.machine)}.</p>",
            "<table><tr><th>paper</th><th>claims</th>"
            + "".join(f"<th>{v}</th>" for v in (*VERDICTS, *SUMMARY_COLUMNS)) + "</tr>"]
    for paper in report.papers:
        counts = paper.counts()
        body.append(f'<tr><td><a href="#{paper.paper.key}">{paper.paper.key.upper()}</a>: '
                    f"{html.escape(paper.paper.title)}</td><td>{len(paper.claims)}{paper.others_text()}</td>"
                    + "".join(f'<td class="{v}">{counts[v]}</td>' for v in VERDICTS)
                    + "".join(f"<td>{cell}</td>" for cell in _summary_cells(paper)) + "</tr>")
    body += ["</table>", f"<p>Wall time of the whole run: {report.wall_seconds:.0f} s. "
             f"{html.escape(report.memory)}</p>", _paragraphs(VERDICT_TEXT)]
    for paper in report.papers:
        body += _paper_html(paper)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reproduction report"
            f"</title><style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _paper_html(result: PaperResult) -> list[str]:
    paper = result.paper
    out = [f'<h2 id="{paper.key}">{paper.key.upper()}: {html.escape(paper.title)}</h2>',
           f"<p>Claims: {len(result.claims)} ({result.count_text()}); compute "
           f"{result.compute_seconds():.0f} s over {len(result.presets)} presets.</p>",
           _paragraphs(paper.notes), _markdown_tables_html(calibration_markdown(result.calibrations, 3))]
    by_preset = {p.name: [] for p in result.presets}
    for r in result.claims:
        by_preset.setdefault(r.claim.presets[0] if r.claim.presets else "", []).append(r)
    for run in result.presets:
        command = " ".join(["sweep", f"experiment={run.name}", *run.overrides])
        out += [f"<h3>{run.name}</h3>",
                f"<p><code>{html.escape(command)}</code>: {run.compute_seconds:.1f} s of compute"
                + (" (reused from an earlier run)" if run.reused else "") + ".</p>",
                "<div>" + "".join(_embedded(f) for f in run.figures if f.suffix in IMAGES) + "</div>"]
        out += _claims_html(by_preset.pop(run.name, []))
    for rest in by_preset.values():
        out += _claims_html(rest)
    return out


def _markdown_tables_html(lines: Sequence[str]) -> str:
    """The calibration section's Markdown (headings, paragraphs, pipe tables) as HTML."""
    out, table = [], []
    for line in [*lines, ""]:
        if line.startswith("|"):
            if not set(line) <= set("|-"):
                cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))]
                tag = "th" if not table else "td"
                table.append("<tr>" + "".join(f"<{tag}>{_inline(c)}</{tag}>" for c in cells) + "</tr>")
            continue
        if table:
            out.append("<table>" + "".join(table) + "</table>")
            table = []
        if line.startswith("#"):
            out.append(f"<h3>{_inline(line.lstrip('#').strip())}</h3>")
        elif line.strip():
            out.append(f"<p>{_inline(line)}</p>")
    return "\n".join(out)


def _claims_html(results: Sequence[ClaimResult]) -> list[str]:
    if not results:
        return []
    rows = ["<table><tr><th>claim</th><th>paper</th><th>measured (90% CI)</th><th>replications</th>"
            "<th>verdict</th></tr>"]
    for r in results:
        c = r.claim
        notes = "".join(f'<div class="note"><em>{label}:</em> {html.escape(text)}</div>'
                        for label, text in (("Deviation", c.deviation), ("Full precision only", c.full_only),
                                            ("Sensitivity", r.sensitivity))
                        if text)
        rows.append(f"<tr><td><strong>{html.escape(c.id)}</strong> ({html.escape(c.section)}): "
                    f"{html.escape(c.words)}{notes}</td><td>{html.escape(c.expect.printed)}</td>"
                    f"<td>{html.escape(r.measured)}</td><td>{html.escape(r.replications)}</td>"
                    f"<td class=\"{r.verdict}\">{r.verdict}{r.mark}</td></tr>")
    return [*rows, "</table>"]
