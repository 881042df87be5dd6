"""The progress bar's arithmetic and drawing: it never reaches the end with files still to
read, and the boards and files it shows are redrawn even when the bytes do not move."""

from __future__ import annotations

import io

from bridgefiles.cli.progress import Bar


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_boards_in_flight_never_count_past_the_files_that_can_be_in_flight() -> None:
    """A first file of big boards, then files of small ones: the small boards, counted at
    the big boards' size, once put the bar at 99% with a third of the files to go."""
    bar = Bar(4, 40_000, stream=io.StringIO(), enabled=False, sizes=[10_000] * 4, jobs=2)
    bar(10)
    bar.file_done(10_000, 10)  # 1,000 bytes a board
    bar(5_000)  # small boards in files 2 and 3: 5,000,000 bytes at that size
    assert bar.estimated_bytes() == 10_000 + 20_000 - 1  # files 2 and 3 at most, not done
    bar.file_done(10_000, 2_500)
    bar.file_done(10_000, 2_500)
    assert bar.estimated_bytes() == 30_000  # exactly the files done: file 4 not begun
    bar.file_done(10_000, 100)
    assert bar.estimated_bytes() == 40_000


def test_without_sizes_the_estimate_stays_below_the_total() -> None:
    bar = Bar(2, 2_000, stream=io.StringIO(), enabled=False)
    bar(10)
    bar.file_done(1_000, 10)
    bar(1_000)
    assert bar.estimated_bytes() == 1_999


def test_counts_are_redrawn_when_the_bytes_do_not_move() -> None:
    tty = _Tty()
    bar = Bar(2, 2_000, stream=tty, delay=0, interval=0, sizes=[1_000, 1_000], jobs=1)
    bar(10)
    bar.file_done(1_000, 10)
    bar(200)  # the estimate is at its cap: no byte to add
    before = tty.getvalue()
    bar(300)
    drawn = tty.getvalue()[len(before):]
    assert "510 boards" in drawn and "1/2 files" in drawn
    bar.close()
