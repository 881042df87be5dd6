"""The progress bar of long runs: tqdm's bar, rate and ETA, with boards and files.

tqdm (not a hand-written line) draws, sizes to the terminal, throttles and clears.
The bar measures bytes, the one total known before the run; files are counted when
they are done and boards as workers report them, and the bytes of a file still being
read are estimated from the boards done so far, so the ETA moves within a large file.
Only on a terminal (never in a pipe or a log), and only for runs that last a second.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

from tqdm import tqdm

_FORMAT = "{percentage:3.0f}%|{bar}| {desc} [{elapsed}<{remaining}]"  # desc: boards, files


class Bar:
    """Called with a count of boards done (from any worker); told when a file is done."""

    def __init__(self, total_files: int, total_bytes: int, *, enabled: bool | None = None,
                 stream: IO[str] | None = None, bytes_per_board: float | None = None,
                 delay: float = 1.0, interval: float = 0.2) -> None:
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        on_terminal = bool(isatty and isatty())
        self.enabled = on_terminal if enabled is None else enabled and total_files > 0
        self.total_files = total_files
        self.total_bytes = max(total_bytes, 1)
        self.boards = 0
        self.files = 0
        self.bytes_done = 0
        self.boards_in_done = 0
        self.hint = bytes_per_board
        self.started = time.monotonic()
        self._bar: Any = None
        if self.enabled:
            self._bar = tqdm(total=self.total_bytes, file=self.stream, delay=delay,
                             bar_format=_FORMAT, dynamic_ncols=True, leave=False,
                             mininterval=interval)
            self._bar.set_description_str(self.postfix(), refresh=False)

    def __call__(self, boards: int) -> None:
        self.boards += boards
        self._advance()

    def file_done(self, size: int, boards: int) -> None:
        self.files += 1
        self.bytes_done += size
        self.boards_in_done += boards
        self.boards = max(self.boards, self.boards_in_done)
        self._advance()

    def estimated_bytes(self) -> int:
        """Bytes done: the files finished, and the boards of files not finished at the
        mean size of the boards seen so far (or the hint from the first file's head)."""
        per_board = (self.bytes_done / self.boards_in_done if self.boards_in_done
                     else self.hint)
        done = self.bytes_done
        if per_board is not None:
            done += int((self.boards - self.boards_in_done) * per_board)
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

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
