"""The two editions of the Laws a record may have been ruled under: 2017 (default) and 2007.

The WBF's 2007 Laws were in force from 2008 until each zone adopted the 2017 Laws
in 2017; the texts differ in the Laws this package applies at 27, 29-32 and 64
(the differences are cited where each is applied). A file dated before the 2017
Laws came into force where it was played gets an info finding suggesting 2007.
"""

from __future__ import annotations

from typing import Literal, get_args

from bridgefiles.errors import BridgeFileError
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic

Edition = Literal["2017", "2007"]
EDITIONS: tuple[Edition, ...] = get_args(Edition)


def check_edition(laws: str) -> Edition:
    """The edition named; BridgeFileError for any other (a caller's mistake, not a file's)."""
    if laws not in EDITIONS:
        raise BridgeFileError(f"laws must be one of {', '.join(EDITIONS)}, not {laws!r}")
    return laws


def edition_findings(board: Board, laws: Edition) -> tuple[Diagnostic, ...]:
    """An info finding when the board's date suggests the other edition (filled in below)."""
    return ()
