"""The progress bar: tqdm's, with boards, files, rate and ETA, on a terminal only."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from shared import FIXTURES, ROOT

from bridgefiles import batch
from bridgefiles.batch import Input
from bridgefiles.cli.progress import Bar

SAMPLE = FIXTURES / "sample-event.pbn"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_boards_files_rate_and_eta_on_a_terminal() -> None:
    tty = _Tty()
    bar = Bar(2, 2000, stream=tty, delay=0, interval=0)
    bar(100)
    bar.file_done(1000, 100)
    bar(50)
    drawn = tty.getvalue()
    assert "100 boards" in drawn and "boards/s" in drawn and "1/2 files" in drawn
    assert "%|" in drawn and "<" in drawn  # tqdm's bar, elapsed<remaining
    bar.close()


def test_no_bar_in_a_pipe_or_when_asked_not_to() -> None:
    plain = io.StringIO()
    quiet = Bar(2, 2000, stream=plain, delay=0)
    quiet(100)
    quiet.file_done(1000, 100)
    quiet.close()
    assert plain.getvalue() == ""
    tty = _Tty()
    off = Bar(2, 2000, stream=tty, delay=0, enabled=False)
    off(100)
    off.close()
    assert tty.getvalue() == ""


def test_bytes_done_are_estimated_within_a_file() -> None:
    bar = Bar(4, 4000, stream=io.StringIO(), enabled=False)
    bar(100)
    bar.file_done(1000, 100)
    assert bar.estimated_bytes() == 1000
    bar(50)  # half a file more, at 10 bytes a board
    assert bar.estimated_bytes() == 1500


def test_the_hint_gives_bytes_before_any_file_is_done(tmp_path: Path) -> None:
    source = tmp_path / "e.pbn"
    source.write_bytes(SAMPLE.read_bytes())
    hint = batch.bytes_per_board([Input("-"), Input(str(source))])
    assert hint is not None and hint == pytest.approx(len(SAMPLE.read_bytes()) / 12, rel=0.2)
    bar = Bar(1, int(hint * 100), stream=io.StringIO(), enabled=False, bytes_per_board=hint)
    assert bar.estimated_bytes() == 0
    bar(25)
    assert bar.estimated_bytes() == pytest.approx(25 * hint, rel=0.01)


def test_a_pipeline_never_sees_the_bar() -> None:
    """Standard error is a pipe here: not a byte of the bar, even when the run is long."""
    proc = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "validate", str(SAMPLE)],
        capture_output=True, cwd=ROOT,
    )
    assert b"\r" not in proc.stderr and b"%|" not in proc.stderr
    assert proc.stderr.decode().startswith("validated 1 file(s)")
