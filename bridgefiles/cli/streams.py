"""Standard streams the shell closed (``>&-``, ``<&-``): an ordinary error, never our bug.

Python starts with ``sys.stdout`` (or ``sys.stdin``) set to None when the descriptor is
closed. The command line puts /dev/null on the free descriptor (so the next file it
opens cannot take the stream's number and receive its bytes) and, for standard output,
a stand-in whose first write fails as a closed descriptor would: the one-line
``error: standard output is closed`` with exit status 1. Standard input stays None;
reading ``-`` then says it is closed (``bridgefiles.files.reading``).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys

CLOSED_STDOUT = "standard output is closed"


class ClosedOutput(io.RawIOBase):
    """Standard output the shell closed: flushing nothing is fine, writing is an error."""

    name = "<stdout>"
    encoding = "utf-8"

    @property
    def buffer(self) -> ClosedOutput:
        return self

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        raise OSError(errno.EBADF, CLOSED_STDOUT)

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, CLOSED_STDOUT)


def _hold(fd: int) -> None:
    """/dev/null on descriptor ``fd`` when it is closed (open gives the lowest free one)."""
    try:
        os.fstat(fd)
        return
    except OSError:
        pass
    with contextlib.suppress(OSError):
        got = os.open(os.devnull, os.O_RDWR)
        if got != fd:
            os.dup2(got, fd)
            os.close(got)


def attach() -> None:
    """Make closed standard streams behave as described above (idempotent)."""
    if sys.stdin is None:
        _hold(0)
    if sys.stdout is None:
        _hold(1)
        sys.stdout = ClosedOutput()
