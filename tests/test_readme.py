"""README's examples run (issue 29): every ``bash`` and ``python`` block of README.md, each in a fresh
empty folder, so no snippet reads a file that nothing before it created.

The blocks run as written, at reduced size. What the test changes, and nothing else:

- ``pip install ... &&`` before a command is dropped (the package is installed);
- ``python -m pytest`` is not run (the suite would run itself);
- ``sweep-calibrate`` is not run: it writes the fitted parameters into the package's own
  ``conf/calibrated/`` (every other test reads them), not into the folder it is run in;
- every ``sweep`` command, and every ``sweep.run`` call of the Python block, gets :data:`REDUCED`
  appended (Hydra takes the last value of a key): 2,000 measured jobs after 200 of warm-up instead
  of 200,000 after 20,000, a coarser saturation search, a sample design of :data:`SAMPLES` points,
  all in this process (no Ray to start, no interpreter per command);
- every ``sweep-reproduce`` command gets :data:`REPRODUCE_REDUCED`: reduced precision in this process,
  and ``--paper tf99`` (the shortest paper) where it names neither a paper nor a claim.

``sweep``, ``sweep-reproduce`` and the Python block run in this process (their ``main`` and ``exec``);
any other command (``mkdir``, a here-document) runs in ``bash``. The README's paper-reproduction
block takes minutes even so: it is marked ``slow``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
README = (REPOSITORY / "README.md").read_text()

#: Sample points of a sample design (``design.samples``) in the reduced runs.
SAMPLES = 4
#: Appended to every ``sweep`` command and ``sweep.run`` call (module docstring).
REDUCED = ["stop.jobs=2000", "stop.warmup=200", "saturation.tol=0.1", "engine.backend=serial",
           "progress=false"]
#: Appended to every ``sweep-reproduce`` command (module docstring).
REPRODUCE_REDUCED = ["--quick", "--workers", "1", "--no-progress"]
#: Commands the test does not run (module docstring): a command holding one of these.
NOT_RUN = ("python -m pytest", "sweep-calibrate")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def _commands(block: str) -> Iterator[str]:
    """The block's commands: continued lines joined, a here-document kept whole with its command."""
    lines = iter(block.splitlines())
    for line in lines:
        while line.endswith("\\"):
            line = line[:-1] + next(lines).strip()
        if match := re.search(r"<<'?(\w+)'?", line):
            body = [line]
            for inner in lines:
                body.append(inner)
                if inner.strip() == match[1]:
                    break
            line = "\n".join(body)
        if line.strip() and not line.lstrip().startswith("#"):
            yield line


def _sweep_arguments(words: list[str]) -> list[str]:
    """A ``sweep`` command's arguments, reduced: a sample design gets :data:`SAMPLES` points."""
    reduced = list(REDUCED)
    if any(w.startswith("design=") and w != "design=grid" for w in words) or "experiment=tf99_sobol" in words:
        reduced.append(f"design.samples={SAMPLES}")
    return [*words, *reduced]


def _reproduce_arguments(words: list[str]) -> list[str]:
    chosen = any(w in ("--paper", "--claim") or w.startswith(("--paper=", "--claim=")) for w in words)
    return [*words, *REPRODUCE_REDUCED, *([] if chosen else ["--paper", "tf99"])]


def run_block(block: str, folder: Path) -> list[str]:
    """Run a bash block in ``folder`` (the current directory), reduced; the commands it ran."""
    from sweep.cli import main as sweep
    from sweep.reproduce.cli import main as reproduce

    ran = []
    for command in _commands(block):
        command = re.sub(r"^pip install [^&]*&&\s*", "", command.strip())
        if any(word in command for word in NOT_RUN):
            continue
        words = shlex.split(command, comments=True) if "\n" not in command else []
        if words[:1] == ["sweep"]:
            assert sweep(_sweep_arguments(words[1:])) == 0, command
        elif words[:1] == ["sweep-reproduce"]:
            assert reproduce(_reproduce_arguments(words[1:])) == 0, command
        else:
            done = subprocess.run(["bash", "-e", "-c", command], cwd=folder, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 0, f"{command}\n{done.stderr}"
        ran.append(command)
    return ran


def _outputs(block: str) -> list[str]:
    """The files the block's commands name with ``output=`` (sweep) or ``--out`` (sweep-reproduce)."""
    return [*re.findall(r"\boutput=(\S+)", block), *re.findall(r"--out (\S+)", block)]


def _block_id(block: str) -> str:
    first = next(_commands(block))
    return re.sub(r"\W+", "_", first.split("#")[0].strip())[:40]


BASH = _blocks("bash")
SLOW = [block for block in BASH if "sweep-reproduce" in block]


def test_the_readme_has_the_blocks_this_test_runs():
    """A block in another language, or none of a kind, would go untested here."""
    opened = re.findall(r"```(\w+)\n", README)  # a fence with a language opens a block of code
    assert set(opened) == {"bash", "python"} and len(BASH) >= 5 and len(_blocks("python")) == 1


@pytest.mark.parametrize("block", [b if b not in SLOW else pytest.param(b, marks=pytest.mark.slow)
                                   for b in BASH], ids=[_block_id(b) for b in BASH])
def test_a_shell_block_runs_in_a_fresh_folder(block, tmp_path, monkeypatch, capsys):
    """Each command of the block exits 0, in a folder that holds only what the block made; every file it
    names as an output is there afterwards."""
    monkeypatch.chdir(tmp_path)
    ran = run_block(block, tmp_path)
    if not ran:
        pytest.skip("every command of the block is one the test does not run (module docstring)")
    for output in _outputs("\n".join(ran)):
        assert (tmp_path / output).exists(), output


def test_the_python_block_runs_in_a_fresh_folder(tmp_path, monkeypatch, capsys):
    """Issue 29: the Python example reads only files it writes itself (it read c90.nc and sobol.nc,
    which no command before it created); run as written, reduced, in an empty folder."""
    import sweep

    (block,) = _blocks("python")
    run = sweep.run

    def reduced(overrides, **options):
        return run(_sweep_arguments(list(overrides)), **options)

    monkeypatch.setattr(sweep, "run", reduced)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md (python block)", "exec"), {"__name__": "readme"})  # noqa: S102
    assert {path.name for path in tmp_path.glob("*.nc")} == {"c90.nc", "sobol.nc"}
    assert not (tmp_path / "outputs").exists()  # sweep.run without output= leaves nothing on disk
