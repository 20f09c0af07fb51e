"""The report marks a marginal verdict wherever it shows the verdict: claims.csv, the claim tables,
the summary's count (sweep/reproduce/report.py)."""

from __future__ import annotations

import csv

import numpy as np
import xarray as xr

from sweep.reproduce.claims import Claim, Expectation, Paper, judge
from sweep.reproduce.report import (
    ClaimResult,
    PaperResult,
    Report,
    claims_table,
    report_html,
    summary_markdown,
    write_csv,
)


def _result(claim_id: str, value: float, halfwidth: float) -> ClaimResult:
    """A claim "at most 1.02" judged on ``value ± halfwidth``."""
    claim = Claim("test", claim_id, "§1", "words", "mean", {}, Expectation.parse({"at_most": 1.02}, "test"))
    measured = xr.DataArray(np.array([value])).squeeze()
    measured = measured.assign_coords(low=value - halfwidth, high=value + halfwidth)
    return ClaimResult.of(claim, lambda c: judge(c, measured))


def _report() -> Report:
    results = [_result("close", 1.04, 0.01),   # contradicted, [1.02, 1.06] doubled: marginal
               _result("clear", 1.10, 0.01),   # contradicted beyond doubt
               _result("open", 1.02, 0.01)]    # undecided: not marginal
    paper = Paper("test", "A test paper", {}, tuple(r.claim for r in results))
    return Report([PaperResult(paper, [], results)], False, 1.0, "", "sweep-reproduce", "here")


def test_a_marginal_verdict_is_marked_in_the_csv_the_tables_and_the_summary(tmp_path):
    report = _report()
    assert [(r.verdict, r.marginal) for r in report.papers[0].claims] == [
        ("contradicted", True), ("contradicted", False), ("undecided", False)]
    write_csv(report, tmp_path / "claims.csv")
    with (tmp_path / "claims.csv").open() as rows:
        assert {row["id"]: row["marginal"] for row in csv.DictReader(rows)} == {
            "close": "yes", "clear": "", "open": ""}
    table = "\n".join(claims_table(report.papers[0].claims))
    assert table.count("(marginal)") == 1 and "**contradicted** (marginal) |" in table
    header, _, row = summary_markdown(report).splitlines()[2:5]
    assert dict(zip(header.split("|"), row.split("|"), strict=True))[" marginal "].strip() == "1"
    page = report_html(report)
    summary = page.split("</table>")[0]
    assert "<th>marginal</th>" in summary and "<td>1</td>" in summary
    assert page.count("contradicted (marginal)") == 1
    assert report.papers[0].count_text().endswith("; 1 of the decided marginal")
