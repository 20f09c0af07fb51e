"""Fixtures of the rigid family's tests: the KTH SP2 trace (docs/model-notes.md §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sweep.workloads.swf import SWFTrace, read_swf

KTH = Path(__file__).resolve().parents[2] / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


@pytest.fixture(scope="session")
def kth() -> SWFTrace:
    """The KTH SP2 trace as read by the SWF reader (cached)."""
    return read_swf(KTH)
