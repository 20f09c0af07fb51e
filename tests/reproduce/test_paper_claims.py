"""Every claim of every paper, judged on `sweep-reproduce --quick` (docs/design.md §9).

The session runs the console script once (``sweep-reproduce --out <tmp> --quick``,
in this process's environment, in one process: ``--workers 1``, the cheapest on the suite's two
cores, whose other test process has the second; the same verdicts as on Ray's pool, by the
seeding contract); the tests read its
report and Datasets. One test per claim (``<paper>:<claim id>``) asserts the
verdict its record expects at quick precision, exactly (``quick_verdict``, else
``verdict``): a claim sliding from deviates to contradicted fails as surely as a
reproduced one that stops reproducing. A claim the quick run cannot judge
(``full_only``) is skipped here. The full-precision verdicts are asserted by
``sweep-reproduce --check`` in CI (``.ci/run``) and by the ``slow`` tests.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import xarray as xr

from sweep.reproduce.claims import VERDICTS, Claim, load_paper, papers
from sweep.reproduce.report import CALIBRATION, FULL_ONLY

_ENV = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
#: Every test here reads the one quick run: with pytest-xdist they share one worker (one run).
pytestmark = pytest.mark.xdist_group("reproduce")


def reproduce(*args: str, timeout: float = 3600) -> subprocess.CompletedProcess:
    """``sweep-reproduce ARGS`` as a subprocess: the console script (``python -m`` its module where
    the script is not installed, e.g. a checkout on PYTHONPATH)."""
    script = shutil.which("sweep-reproduce")
    command = [script] if script else [sys.executable, "-m", "sweep.reproduce.cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, env=_ENV, timeout=timeout)


@pytest.fixture(scope="session")
def quick(tmp_path_factory) -> Path:
    """The folder of one ``sweep-reproduce --quick`` run over every paper."""
    out = tmp_path_factory.mktemp("reproduce")
    done = reproduce("--out", str(out), "--quick", "--workers", "1", "--no-progress")
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _datasets(folder: Path, claim: Claim) -> dict[str, xr.Dataset]:
    return {name: xr.load_dataset(folder / "data" / f"{name}.nc") for name in claim.presets}


def _claim_params() -> list:
    params = []
    for key in papers():
        for claim in load_paper(key).claims:
            skip = pytest.mark.skip(reason=f"full precision only: {claim.full_only}")
            marks = [skip] if claim.full_only else []
            params.append(pytest.param(claim, id=f"{key}:{claim.id}", marks=marks))
    return params


@pytest.mark.parametrize("claim", _claim_params())
def test_claim(claim: Claim, quick: Path):
    with (quick / "claims.csv").open() as rows:
        row = next(r for r in csv.DictReader(rows) if (r["paper"], r["id"]) == (claim.paper, claim.id))
    expected = CALIBRATION if load_paper(claim.paper).calibrated_by(claim.id) else claim.expected(quick=True)
    assert row["verdict"] == expected, f"{row['verdict']}, expected {expected}: {row['measured']}"


def test_report_files_exist_and_the_html_is_self_contained(quick: Path):
    for name in ("report.md", "report.html", "claims.csv"):
        assert (quick / name).stat().st_size > 0, name
    page = (quick / "report.html").read_text()
    sources = re.findall(r'(?:src|href)="([^"#]*)"', page)
    embedded = ("data:image/png;base64,", "data:image/gif;base64,")  # still and animated figures
    assert sources and all(s.startswith(embedded) for s in sources if s), set(sources)
    figures = [*(quick / "figures").glob("*.png"), *(quick / "figures").glob("*.gif")]
    assert sum(page.count(kind) for kind in embedded) == len(figures)
    assert page.count("data:image/gif;base64,") == len(list((quick / "figures").glob("*.gif"))) >= 1


def test_every_claim_of_every_paper_has_a_verdict(quick: Path):
    with (quick / "claims.csv").open() as rows:
        verdicts = {(row["paper"], row["id"]): row["verdict"] for row in csv.DictReader(rows)}
    claims = {(key, claim.id): claim for key in papers() for claim in load_paper(key).claims}
    assert set(verdicts) == set(claims)
    for (key, claim_id), verdict in verdicts.items():
        if load_paper(key).calibrated_by(claim_id):
            expected = {CALIBRATION}
        else:
            expected = {FULL_ONLY} if claims[key, claim_id].full_only else set(VERDICTS)
        assert verdict in expected, (key, claim_id, verdict)


def test_the_run_keeps_its_five_longest_tasks_with_preset_and_point(quick: Path):
    runs = json.loads((quick / "data" / "runs.json").read_text())
    longest = runs["_run"][-1]["longest_tasks"]
    seconds = [entry[0] for entry in longest]
    assert len(longest) == 5 and seconds == sorted(seconds, reverse=True) and seconds[-1] > 0
    presets = {name for name in runs if not name.startswith("_")}
    for _, task in longest:
        preset, point = task.split(" (", 1)
        assert preset in presets and "policy=" in point and "replication=" in point, task


def test_check_fails_on_a_verdict_its_record_does_not_expect(quick: Path, tmp_path, monkeypatch, capsys):
    """``--check`` with every record's expectation changed names the claims and exits 1 (on one
    paper's Datasets, copied from the quick run and reused; that it passes on the records as
    they are is :func:`test_a_rerun_reuses_the_finished_datasets_and_writes_the_pages`'s)."""
    from sweep.reproduce import cli

    def never(self, quick):  # every record now expects a verdict no claim has
        return "deviates" if self.verdict != "deviates" else "contradicted"

    monkeypatch.setattr(Claim, "expected", never)
    copy = tmp_path / "copy"
    shutil.copytree(quick, copy)
    assert cli.main(["--out", str(copy), "--quick", "--paper", "tf99", "--workers", "2", "--no-progress",
                     "--check"]) == 1
    assert "--check: tf99:" in capsys.readouterr().err


def test_a_rerun_reuses_the_finished_datasets_and_writes_the_pages(quick: Path, tmp_path):
    """Resumable: a second run on the same folder recomputes nothing (each Dataset's stored config
    is the one it would compute), writes the same verdicts and passes ``--check`` (every verdict the
    one its record expects); ``--pages`` writes REPRODUCTION.md and a page per paper whose figures
    are beside it."""
    before = (quick / "claims.csv").read_text()
    stamps = {p.name: p.stat().st_mtime_ns for p in (quick / "data").glob("*.nc")}
    started = time.perf_counter()
    done = reproduce("--out", str(quick), "--quick", "--workers", "1", "--no-progress", "--check",
                     "--pages", str(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    assert {p.name: p.stat().st_mtime_ns for p in (quick / "data").glob("*.nc")} == stamps
    assert (quick / "claims.csv").read_text() == before
    assert "reused from an earlier run" in (quick / "report.md").read_text()
    assert time.perf_counter() - started < 120
    summary = (tmp_path / "REPRODUCTION.md").read_text()
    for key in papers():
        page = tmp_path / "reproduction" / f"{key}.md"
        assert f"(reproduction/{key}.md)" in summary
        for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text()):
            assert (page.parent / link).is_file(), link


@pytest.mark.parametrize(("args", "message"), [
    (["--paper", "xx99"], "--paper 'xx99' is not a paper"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--seed", "-1"], "--seed must be at least 0"),
    (["--claim", "sh00:no_such_claim"], "--claim 'sh00:no_such_claim' is not a claim"),
    (["--quick"], "the following arguments are required: --out"),
    (["--no-figures", "--pages", "."], "--pages needs the figures the pages show"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    out = [] if "--out" in message else ["--out", str(tmp_path / "out")]
    done = reproduce(*out, *args)
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.strip().count("\n") == 0, done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("key", papers())
def test_full_precision_claims(key: str, tmp_path_factory):
    """The paper's full presets (``sweep-reproduce --paper KEY --check``): every claim's verdict is
    the one its record expects at full precision."""
    out = tmp_path_factory.mktemp(f"full_{key}")
    done = reproduce("--out", str(out), "--paper", key, "--no-progress", "--check", timeout=6 * 3600)
    assert done.returncode == 0, done.stderr[-3000:]


def _one_claim_per_quantity(quick: Path) -> list[str]:
    """For each kind of quantity a quick run can judge, its claim (not a calibration target) whose
    presets took the least compute in the quick run (``data/runs.json``); then, for a paper none of
    those is from, that paper's cheapest claim: every paper and every kind of quantity, cheaply."""
    runs = json.loads((quick / "data" / "runs.json").read_text())
    by_kind: dict[str, tuple[float, str]] = {}
    by_paper: dict[str, tuple[float, str]] = {}
    for key in papers():
        paper = load_paper(key)
        for claim in paper.claims:
            if not claim.full_only and not paper.calibrated_by(claim.id):
                cost = sum(runs.get(preset, {}).get("compute_seconds", 0.0) for preset in claim.presets)
                for chosen, group in ((by_kind, claim.quantity), (by_paper, key)):
                    if group not in chosen or cost < chosen[group][0]:
                        chosen[group] = (cost, f"{key}:{claim.id}")
    subset = {name for _, name in by_kind.values()}
    covered = {name.split(":")[0] for name in subset}
    subset |= {name for key, (_, name) in by_paper.items() if key not in covered}
    return sorted(subset)


def _verdicts(run: Path, marginal: bool = True) -> dict[str, str]:
    """Each claim's verdict in the run in folder ``run`` (or in the csv file ``run``: a published
    page's); a marginal one left out unless ``marginal``."""
    with (run if run.suffix == ".csv" else run / "claims.csv").open() as rows:
        return {f"{row['paper']}:{row['id']}": row["verdict"] for row in csv.DictReader(rows)
                if marginal or not row["marginal"]}


def test_decided_verdicts_are_the_same_under_another_seed(quick: Path, tmp_path):
    """``--seed``: claims covering every paper and every kind of quantity, judged again on streams of
    another root seed (verdicts only: ``--no-figures``): each claim decided under both seeds has the
    same verdict, and each decided under one and not marginal there is decided the same under the
    other (docs/design.md §9)."""
    subset = _one_claim_per_quantity(quick)
    out = tmp_path / "seed"
    done = reproduce("--out", str(out), "--quick", "--workers", "1", "--no-progress", "--no-figures",
                     "--seed", "7", *(f"--claim={name}" for name in subset))
    assert done.returncode == 0, done.stderr[-3000:]
    first, second = _verdicts(quick), _verdicts(out)
    assert set(second) == set(subset)
    decided = [name for name in subset if "undecided" not in (first[name], second[name])]
    assert len(decided) >= len(subset) // 2, (first, second)
    assert {n: second[n] for n in decided} == {n: first[n] for n in decided}
    for folder, other in ((quick, second), (out, first)):
        firm = {n: v for n, v in _verdicts(folder, marginal=False).items()
                if n in subset and v != "undecided"}
        assert {n: other[n] for n in firm} == firm, folder


@pytest.mark.slow
def test_full_precision_verdicts_hold_under_another_seed(tmp_path_factory):
    """The full reproduction under root seed 7: every claim decided there and under the presets' own
    seeds (its record's expected verdict) has the same verdict, and every firm one of the published
    pages (decided, not marginal) is decided the same there."""
    out = tmp_path_factory.mktemp("full_seed")
    done = reproduce("--out", str(out), "--seed", "7", "--no-progress", "--no-figures", timeout=6 * 3600)
    assert done.returncode == 0, done.stderr[-3000:]
    claims = {f"{key}:{claim.id}": claim for key in papers() for claim in load_paper(key).claims}
    seven = _verdicts(out)
    differing = {name: verdict for name, verdict in seven.items()
                 if verdict in VERDICTS[:3] and claims[name].verdict in VERDICTS[:3]
                 and claims[name].verdict != verdict and not claims[name].reads_wall_clock}
    assert not differing, differing
    pages = Path(__file__).resolve().parents[2] / "reproduction"
    published: dict[str, str] = {}
    for key in papers():
        published.update(_verdicts(pages / f"{key}.csv", marginal=False))
    firm = {name: verdict for name, verdict in published.items()
            if verdict in VERDICTS[:3] and not claims[name].reads_wall_clock}
    assert {name: seven[name] for name in firm} == firm


def test_a_failed_run_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    """A run that fails (here the pool raises, as a lost cluster would) ends ``sweep-reproduce`` with
    one line and exit 1, after saving what finished (``runs.json``)."""
    from sweep.engine import runner
    from sweep.reproduce import cli

    def broken(pending, **options):
        raise RuntimeError("the pool is gone")

    monkeypatch.setattr(runner, "run_many", broken)
    status = cli.main(["--out", str(tmp_path), "--paper", "tf99", "--quick", "--workers", "1",
                       "--no-progress"])
    assert status == 1
    assert capsys.readouterr().err.strip() == "sweep-reproduce: a run failed: RuntimeError: the pool is gone"
    assert (tmp_path / "data" / "runs.json").is_file()


def test_the_seconds_of_composing_are_said_before_they_pass(tmp_path, monkeypatch, capsys):
    """Issue 29: composing the presets takes seconds before the pool starts; with the progress display
    on, one line says so first (here composing fails at once, so nothing else runs)."""
    from sweep.errors import ConfigError
    from sweep.reproduce import cli

    def fail(self, parts, quick):
        raise ConfigError("stop here")

    monkeypatch.setattr(cli._Parts, "compose", fail)
    assert cli.main(["--out", str(tmp_path), "--paper", "tf99", "--quick", "--workers", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"sweep-reproduce: composing {len(load_paper('tf99').presets)} presets of 1 paper...",
        "sweep-reproduce: stop here"]
