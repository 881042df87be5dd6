"""The progress bar of long runs: tqdm's bar, rate and ETA, with boards and files.

tqdm (not a hand-written line) draws, sizes to the terminal, throttles and clears.
The bar measures bytes, the one total known before the run; files are counted when
they are done and boards as workers report them, and the bytes of a file still being
read are estimated from the boards done so far, so the ETA moves within a large file.
Only on a terminal (never in a pipe or a log), and only for runs that last a second.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from tqdm import tqdm

_FORMAT = "{percentage:3.0f}%|{bar}| {desc} [{elapsed}<{remaining}]"  # desc: boards, files


class Bar:
    """Called with a count of boards done (from any worker); told when a file is done.

    Files finish in input order (results are yielded so), and at most ``jobs`` of them are
    read at once: the bytes of the boards still in flight are estimated, but never past
    the sizes of the files that can be in flight (``sizes``), so the bar cannot reach the
    end with files still to read (it once sat at 99% with 43 of 143 files to go). The
    description (boards, files) is redrawn on every change, and a ticker redraws the
    clock while a slow file reports nothing.
    """

    def __init__(self, total_files: int, total_bytes: int, *, enabled: bool | None = None,
                 stream: IO[str] | None = None, bytes_per_board: float | None = None,
                 delay: float = 1.0, interval: float = 0.2,
                 sizes: Sequence[int] | None = None, jobs: int = 1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        on_terminal = bool(isatty and isatty())
        self.enabled = on_terminal if enabled is None else enabled and total_files > 0
        self.total_files = total_files
        self.total_bytes = max(total_bytes, 1)
        self.sizes = list(sizes) if sizes is not None else None
        self.jobs = max(1, jobs)
        self.boards = 0
        self.files = 0
        self.bytes_done = 0
        self.boards_in_done = 0
        self.hint = bytes_per_board
        self.started = time.monotonic()
        self.interval = interval
        self._bar: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.enabled:
            self._bar = tqdm(total=self.total_bytes, file=self.stream, delay=delay,
                             bar_format=_FORMAT, dynamic_ncols=True, leave=False,
                             mininterval=interval, miniters=1)  # throttled by time only
            self._bar.set_description_str(self.postfix(), refresh=False)
            if interval > 0:
                threading.Thread(target=self._tick, name="bridgefiles-progress",
                                 daemon=True).start()

    def __call__(self, boards: int) -> None:
        with self._lock:
            self.boards += boards
            self._advance()

    def file_done(self, size: int, boards: int) -> None:
        with self._lock:
            self.files += 1
            self.bytes_done += size
            self.boards_in_done += boards
            self.boards = max(self.boards, self.boards_in_done)
            self._advance()

    def in_flight_bytes(self) -> int:
        """The most the files not done yet can add now: those that may be being read."""
        if self.sizes is None:
            return self.total_bytes - self.bytes_done
        return sum(self.sizes[self.files : self.files + self.jobs])

    def estimated_bytes(self) -> int:
        """Bytes done: the files finished, and the boards of files not finished at the
        mean size of the boards seen so far (or the hint from the first file's head),
        at most the bytes of the files that can be in flight."""
        per_board = (self.bytes_done / self.boards_in_done if self.boards_in_done
                     else self.hint)
        done = self.bytes_done
        if per_board is not None:
            flying = int((self.boards - self.boards_in_done) * per_board)
            done += max(0, min(flying, self.in_flight_bytes() - 1))
        return min(done, self.total_bytes)

    def postfix(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        return (f"{self.boards:,} boards, {self.boards / elapsed:,.0f} boards/s, "
                f"{self.files}/{self.total_files} files")

    def _advance(self) -> None:
        if self._bar is None:
            return
        self._bar.set_description_str(self.postfix(), refresh=False)
        step = self.estimated_bytes() - self._bar.n
        if step > 0:
            self._bar.update(step)  # tqdm throttles the drawing (mininterval)
        elif self._bar._time() - self._bar.last_print_t >= self.interval:
            self._bar.refresh()  # the counts changed though the bytes did not

    def _tick(self) -> None:
        """Redraw now and then, so the clock and rate move while nothing is reported."""
        while not self._stop.wait(max(self.interval, 0.5)):
            with self._lock:
                if self._bar is None:
                    return
                self._bar.set_description_str(self.postfix(), refresh=False)
                self._bar.refresh()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
