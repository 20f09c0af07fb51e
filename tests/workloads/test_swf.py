"""The SWF reader (sweep/workloads/swf.py): a hand-written file, errors, the shipped KTH trace."""

import gzip
from pathlib import Path

import numpy as np
import pytest

from sweep.workloads.swf import SWF_FIELDS, SWFError, read_swf

REPO = Path(__file__).resolve().parents[2]

HAND_WRITTEN = """\
; Version: 2.2
; Computer: Test machine
; MaxNodes: 64 (batch partition; 80 total)
; MaxProcs: 128
; UnixStartTime: 1000000000
; TimeZoneString: Europe/Stockholm
; Note: first note
;       continued here
; Note: second note
;
 1   0  5  100   4 1.50 -1  4  200 -1 1 3 7 -1 -1 -1 -1 -1
 2  10 -1   -1  -1   -1 -1 -1   -1 -1 0 3 7  2  1  1  1 30.5

 3  20  0    0   8   -1 -1  8  600 -1 5 4 7  2  1  1  2 -1
"""


def write(tmp_path: Path, text: str, name: str = "t.swf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_round_trip_of_a_hand_written_file(tmp_path):
    trace = read_swf(write(tmp_path, HAND_WRITTEN))
    assert len(trace) == 3
    expected_rows = [
        [1, 0, 5, 100, 4, 1.5, -1, 4, 200, -1, 1, 3, 7, -1, -1, -1, -1, -1],
        [2, 10, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 7, 2, 1, 1, 1, 30.5],
        [3, 20, 0, 0, 8, -1, -1, 8, 600, -1, 5, 4, 7, 2, 1, 1, 2, -1],
    ]
    for column, (name, dtype) in enumerate(SWF_FIELDS):
        values = getattr(trace, name)
        assert values.dtype == dtype, name
        np.testing.assert_array_equal(values, [row[column] for row in expected_rows], err_msg=name)
        assert not values.flags.writeable


def test_header_fields(tmp_path):
    trace = read_swf(write(tmp_path, HAND_WRITTEN))
    assert trace.max_procs == 128
    assert trace.max_nodes == 64
    assert trace.unix_start_time == 1_000_000_000
    assert trace.time_zone_string == "Europe/Stockholm"
    assert trace.header["Computer"] == "Test machine"
    assert trace.header["Note"] == "first note\ncontinued here\nsecond note"


def test_unknown_values_stay_minus_one(tmp_path):
    trace = read_swf(write(tmp_path, HAND_WRITTEN))
    assert trace.run_time[1] == -1 and trace.allocated_procs[1] == -1
    assert trace.think_time[0] == -1


def test_gzip_gives_the_same_trace(tmp_path):
    plain = read_swf(write(tmp_path, HAND_WRITTEN))
    packed_path = tmp_path / "t.swf.gz"
    packed_path.write_bytes(gzip.compress(HAND_WRITTEN.encode()))
    packed = read_swf(packed_path)
    assert packed.header == plain.header
    for name, _ in SWF_FIELDS:
        np.testing.assert_array_equal(getattr(packed, name), getattr(plain, name))


def test_header_only_file_has_no_jobs(tmp_path):
    trace = read_swf(write(tmp_path, "; MaxProcs: -1\n"))
    assert len(trace) == 0 and trace.max_procs is None and trace.unix_start_time is None


@pytest.mark.parametrize(
    ("bad_line", "what"),
    [
        (" 4 30 0 10 8 -1 -1 8 600 -1 1 4 7 2 1 1 -1", "expected 18 fields, found 17"),
        (" 4 30 0 10 8 -1 -1 8 600 -1 1 4 7 2 1 1 -1 -1 9", "expected 18 fields, found 19"),
        (" 4 30 0 ten 8 -1 -1 8 600 -1 1 4 7 2 1 1 -1 -1", "field run_time is not a number"),
        (" 4 30 0 10 8.5 -1 -1 8 600 -1 1 4 7 2 1 1 -1 -1", "field allocated_procs must be an"),
        (" 4 30 0 inf 8 -1 -1 8 600 -1 1 4 7 2 1 1 -1 -1", "field run_time is not finite"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, bad_line, what):
    path = write(tmp_path, HAND_WRITTEN + bad_line + "\n")
    with pytest.raises(SWFError) as caught:
        read_swf(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:15: {what}")
    assert "\n" not in message


def test_missing_file_is_a_one_line_file_not_found_error(tmp_path):
    path = tmp_path / "absent.swf"
    with pytest.raises(FileNotFoundError) as caught:
        read_swf(path)
    assert isinstance(caught.value, SWFError)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_cache_returns_the_same_object_until_the_file_changes(tmp_path):
    path = write(tmp_path, HAND_WRITTEN)
    first = read_swf(path)
    assert read_swf(str(path)) is first
    write(tmp_path, HAND_WRITTEN.replace(" 3  20", " 9  20"))
    changed = read_swf(path)
    assert changed.job_number[2] == 9


def test_shipped_kth_trace():
    trace = read_swf(REPO / "data/traces/KTH-SP2-1996-2.1-cln.swf.gz")
    assert len(trace) == 28_476
    assert trace.max_procs == 100 and trace.max_nodes == 100
    assert trace.unix_start_time == 843_480_031
    assert trace.time_zone_string == "Europe/Stockholm"
    assert trace.job_number[0] == 15
    assert (np.diff(trace.submit) >= 0).all()
