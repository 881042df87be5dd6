"""Law 2: dealer and vulnerability from the board number.

Boards above 16 repeat the 16-board cycle. A board marked otherwise keeps its
marked conditions (Law 2), so callers only compare and warn.
"""

from __future__ import annotations

from bridgefiles.model.seats import ROTATION, Seat, Vulnerability

_VULS = (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.ALL)


def board_dealer(number: int) -> Seat:
    """The dealer of board ``number`` (1-based): N, E, S, W in turn."""
    if number < 1:
        raise ValueError(f"board numbers start at 1, not {number}")
    return ROTATION[(number - 1) % 4]


def board_vulnerability(number: int) -> Vulnerability:
    """The vulnerability of board ``number``: the Law 2 table, repeating every 16."""
    if number < 1:
        raise ValueError(f"board numbers start at 1, not {number}")
    i = number - 1
    return _VULS[(i + i // 4) % 4]


def parse_board_number(text: str | None) -> int | None:
    """The number of a ``Board`` tag value, or None when it is not a plain positive integer."""
    if text is None:
        return None
    t = text.strip()
    if not t.isdecimal():
        return None
    n = int(t)
    return n if n >= 1 else None
