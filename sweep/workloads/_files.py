"""What every input file read whole shares: it must be a regular file of a bounded size."""

from __future__ import annotations

import os
import stat


def cannot_read_whole(status: os.stat_result, limit: int, kind: str) -> str | None:
    """Why a file of this ``status`` cannot be read whole as a ``kind`` (a device or a pipe would be read
    without end; more than ``limit`` bytes is no ``kind`` sweep reads), or None when it can."""
    if not stat.S_ISREG(status.st_mode):
        return f"not a regular file (a {kind} is read whole; a device or pipe is not)"
    if status.st_size > limit:
        return f"{status.st_size / 2**20:.0f} MiB, over the {limit >> 20} MiB a {kind} may have"
    return None
