"""One output, one sweep (docs/design.md §3 step 4): what a sweep checks and holds before it computes.

Before any computing, :func:`claim_output` makes sure the result file can be
written where ``output`` points (not a folder, not under a file, a folder that
can be written), that an existing file there is this sweep's own result or
``overwrite=true`` was given, and takes the output's lock: a second sweep on
the same output, in this or another process, is refused with one line naming
the holder until the first is done. The lock is an ``flock`` on
``<output>.lock``, so a sweep killed with ``kill -9`` holds nothing (the kernel
releases it); the file says who holds it.
"""

from __future__ import annotations

import datetime
import fcntl
import os
import socket
import sys
from pathlib import Path

from sweep.errors import ConfigError

#: Locks this process holds, by output: a sweep resumed in the same process takes its own lock again.
_HELD: dict[Path, OutputLock] = {}


class OutputLock:
    """An exclusive lock on ``<output>.lock`` for as long as this object is open."""

    def __init__(self, output: Path, handle: int) -> None:
        self.output, self.path, self._handle = output, lock_path(output), handle

    def release(self) -> None:
        """Drop the lock and its file (the sweep is written or gave up)."""
        if self._handle < 0:
            return
        _HELD.pop(self.output, None)
        self.path.unlink(missing_ok=True)
        os.close(self._handle)
        self._handle = -1


def lock_path(output: Path) -> Path:
    return output.with_name(output.name + ".lock")


def claim_output(output: Path, config_yaml: str, overwrite: bool) -> OutputLock:
    """Check that ``output`` may be written by the sweep of ``config_yaml`` and lock it (module docstring).

    Raises :class:`ConfigError` (one line) for a path that cannot be written, an existing
    result of a different sweep without ``overwrite``, or an output another sweep holds.
    """
    _check_writable(output)
    lock = _lock(output)
    try:
        if not overwrite:
            _check_not_another_sweeps(output, config_yaml)
    except ConfigError:
        lock.release()
        raise
    return lock


def _check_writable(output: Path) -> None:
    if output.is_dir():
        raise ConfigError(f"output={output} is a folder; name a file (e.g. {output / 'results.nc'})")
    folder = next((p for p in output.parents if p.exists()), Path("/"))
    if not folder.is_dir():
        raise ConfigError(f"output={output}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"output={output}: the folder {folder} cannot be written")
    output.parent.mkdir(parents=True, exist_ok=True)


def _lock(output: Path) -> OutputLock:
    if output in _HELD:
        return _HELD[output]
    path = lock_path(output)
    while True:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 512, 0).decode(errors="replace").strip() or "another process"
            os.close(handle)
            raise ConfigError(f"output={output} is being written by another sweep ({holder}); wait for it "
                              "to finish or choose another output") from None
        if _same_file(handle, path):  # not a lock file its holder removed just before we locked it
            break
        os.close(handle)
    os.ftruncate(handle, 0)
    started = datetime.datetime.now().isoformat(timespec="seconds")
    os.pwrite(handle, f"pid {os.getpid()} on {socket.gethostname()} since {started}: "
                      f"{' '.join(sys.argv)[:200]}\n".encode(), 0)
    _HELD[output] = lock = OutputLock(output, handle)
    return lock


def _same_file(handle: int, path: Path) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(handle).st_ino
    except FileNotFoundError:
        return False


def _check_not_another_sweeps(output: Path, config_yaml: str) -> None:
    """An existing file at ``output`` must be a result of this same config."""
    if not output.exists():
        return
    import netCDF4

    try:
        with netCDF4.Dataset(output) as existing:
            config = existing.getncattr("config") if "config" in existing.ncattrs() else None
            seed = existing.getncattr("seed") if "seed" in existing.ncattrs() else "?"
    except OSError:
        raise ConfigError(f"output={output} exists and is not a sweep result; choose another output or "
                          "add overwrite=true") from None
    if config != config_yaml:
        raise ConfigError(f"output={output} holds the results of a different sweep (seed {seed}); "
                          "choose another output or add overwrite=true to replace it")
