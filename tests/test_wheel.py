"""A wheel works anywhere (issue 16 §1, docs/design.md §8): built, installed in a venv, run elsewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]


def run_checked(command: list[str], cwd: Path,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``command`` run to its end in ``cwd``; its exit status must be 0 (else its output's tail is shown)."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def copy_sources(folder: Path, under: str = ".") -> Path:
    """The checkout's files under ``under`` that git does not ignore, copied into ``folder`` (at their
    paths relative to ``under``): a build writes its ``build/`` there, so neither a stale
    ``build/lib`` (a module deleted since the last build stays in it, and setuptools packs it) nor
    another test process's build reaches the wheel."""
    listed = run_checked(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", under],
                         cwd=REPOSITORY).stdout.split("\0")
    for name in filter(None, listed):
        source = REPOSITORY / name
        if source.is_file():
            target = folder / Path(name).relative_to(under)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return folder


def wheel_in_venv(folder: Path, sources: Path) -> Path:
    """Sweep's wheel built from a copy of the checkout (``sources``, an empty folder) into
    ``folder/dist``, and installed alone into a new venv ``folder/venv`` whose other packages come
    from this interpreter's site-packages (no network); the venv's python."""
    run_checked([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder / "dist"),
                 str(copy_sources(sources))], cwd=folder)
    (wheel,) = (folder / "dist").glob("sweep-*.whl")
    venv.create(folder / "venv", system_site_packages=True, with_pip=False)
    python = folder / "venv" / "bin" / "python"
    run_checked([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                 str(wheel)], cwd=folder)
    return python


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv holding only the wheel (its dependencies come from this interpreter's site-packages)."""
    folder = tmp_path_factory.mktemp("wheel")
    wheel_in_venv(folder, tmp_path_factory.mktemp("sources"))
    return folder


def test_the_wheel_holds_the_configs_and_the_data(installed):
    python = installed / "venv" / "bin" / "python"
    shown = "import sweep, pathlib; print(pathlib.Path(sweep.__file__).parent)"
    where = run_checked([str(python), "-c", shown], cwd=installed).stdout.strip()
    package = Path(where)
    assert package.is_relative_to(installed / "venv"), f"imported the source checkout: {package}"
    for shipped in ("conf/config.yaml", "conf/experiment/quickstart.yaml", "conf/workload/kth.yaml",
                    "data/traces/KTH-SP2-1996-2.1-cln.swf.gz", "data/traces/CTC-SP2-1996-3.1-cln.swf.gz",
                    "data/task_graphs/robot.stg", "papers/cv96/claims.yaml",
                    "papers/cv96/conf/experiment/cv96_fig5.yaml", "papers/cv96/conf/workload/cv96_fig5.yaml",
                    "testing/test_generic.py", "testing/naive/rigid.py"):
        assert (package / shipped).is_file(), shipped


@pytest.mark.parametrize("args", [
    ["experiment=quickstart", "grid.load=[0.5]", "replications=1", "stop.jobs=2000", "stop.warmup=0"],
    ["policy=easy", "workload=kth", "replications=1"],
])
def test_the_installed_command_runs_a_sweep_from_another_folder(installed, tmp_path, args):
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    command = installed / "venv" / "bin" / "sweep"
    done = run_checked([str(command), *args, "engine.backend=serial", "progress=false", "plots=false",
                 "output=out.nc"], cwd=tmp_path, env=env)
    assert (tmp_path / "out.nc").is_file(), done.stderr
    assert "1 point" in done.stderr or "points" in done.stderr
