"""The two editions of the Laws a record may have been ruled under: 2017 (default) and 2007.

The texts differ, in what this package applies, at Laws 27, 29-32 and 64; each
difference is cited where it is applied (``laws.calls_2007``, ``laws.revokes``).

When the 2017 Laws came into force (the dates relied on, and where they were found):

- the WBF set 30 September 2017 as the latest date for zones and national bodies to
  start using them (Welsh Bridge Union, "WBF 2017 Laws of Duplicate Bridge",
  welshbridgeunion.org);
- the EBU and the WBU applied them from 1 August 2017 (EBU Club Management Focus,
  Summer 2017, ebu.co.uk/newsletters; the same WBU page), the earliest date found;
- the Scottish Bridge Union from 1 September 2017 (berwickbridgeclub.co.uk, 19 July
  2017); the ACBL from 25 September 2017 (ACBL North American edition, "Effective
  September 25, 2017");
- the 2007 Laws themselves could be brought in from 1 January 2008 and had to be by
  30 September 2008 (preface to the 2007 Laws).

A board's ``Date`` says little of its zone, so a board dated before 1 August 2017 was
played before the 2017 Laws were in force anywhere (2007 suggested), one dated from
then to 30 September 2017 may have been played under either (said so), and one dated
after that under 2017 everywhere (the 2007 edition, if asked for, is questioned).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal, get_args

from bridgefiles.errors import UsageError
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic, info

Edition = Literal["2017", "2007"]
EDITIONS: tuple[Edition, ...] = get_args(Edition)

FIRST_2017 = date(2017, 8, 1)  # EBU and WBU: the earliest adoption found
LAST_2017 = date(2017, 9, 30)  # the WBF's deadline for every zone
FIRST_2007 = date(2008, 1, 1)  # the 2007 Laws could not be in force before this


def check_edition(laws: str) -> Edition:
    """The edition named; UsageError for any other (a caller's mistake, not a file's)."""
    if not isinstance(laws, str) or laws not in EDITIONS:
        raise UsageError(f"laws must be one of {', '.join(EDITIONS)}, not {laws!r}")
    return laws


_LAST_2017_TEXT = (f"{LAST_2017.year:04}", f"{LAST_2017.month:02}", f"{LAST_2017.day:02}")
_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{2})[.\-/](\d{2})\s*")


def board_date(board: Board) -> date | None:
    """The board's ``Date`` tag (PBN ``YYYY.MM.DD``), when it names a whole day."""
    text = board.tag("Date")
    if text is None:
        return None
    m = _DATE.fullmatch(text)
    if m is None:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def edition_findings(board: Board, laws: Edition) -> tuple[Diagnostic, ...]:
    """An info finding when the board's date suggests another edition than ``laws``."""
    text = board.tag("Date")
    m = _DATE.fullmatch(text) if text is not None and laws == "2017" and text.isascii() else None
    if m is not None and m.groups() > _LAST_2017_TEXT:
        return ()  # the common case, a board dated after 2017 (fixed-width digits compare)
    day = board_date(board)
    if day is None or (day > LAST_2017) == (laws == "2017"):
        return ()  # the edition asked for was the one in force everywhere that day
    line, column = board.tag_where("Date")
    where = {"line": line, "column": column} if board.tag_pair("Date") is not None else {}
    when = day.isoformat()
    if laws == "2017" and day < FIRST_2017:
        older = " (the 1997 Laws were still in force then)" if day < FIRST_2007 else ""
        return (
            info(
                "laws-edition",
                f"the board is dated {when}, before the 2017 Laws came into force anywhere "
                f"(1 August 2017 at the earliest): it was ruled under the 2007 Laws{older}; "
                "validate with laws='2007'",
                **where,
            ),
        )
    if laws == "2017" and day <= LAST_2017:
        return (
            info(
                "laws-edition",
                f"the board is dated {when}, while zones were moving to the 2017 Laws "
                "(1 August to 30 September 2017): it may have been ruled under the 2007 Laws",
                **where,
            ),
        )
    if laws == "2007" and day > LAST_2017:
        return (
            info(
                "laws-edition",
                f"the board is dated {when}, after the 2017 Laws were in force everywhere "
                "(30 September 2017): the 2007 edition did not apply",
                **where,
            ),
        )
    return ()
