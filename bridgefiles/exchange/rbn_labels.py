"""RBN's label vocabulary and the PBN words it stands for, both ways (reader and writer).

Richard Pavlicek's Bridge Notation (rpbridge.net, article 7A12, version 3.2): each line a
one-character label, a space, then the data; a blank line ends a record. The labels
this module knows (anything else is kept as it stood and written back):

``D`` date ``yyyymmdd`` (truncated or ``?`` where unknown) and ``:hhmmss`` time; ``L``
location, ``E`` event, ``S`` session or stage; ``F`` form of scoring (a letter, or words);
``K`` team names ``home:visitors`` (``:carry-over`` fields after them); ``N`` players
``North+South:West+East`` then ``:room`` (``O`` open, ``C`` closed, or a table number);
``B`` board (``:section``); ``H`` hands from a seat, ``:`` before each, a last empty hand
"the rest"; ``A`` auction ``DV:`` (dealer and vulnerability ``Z`` none, ``N``, ``E``,
``B`` both) then calls (``1N`` for notrump, ``P``, ``X``, ``R``, ``A`` all pass) in rounds
between colons, a digit after a call its note, ``*`` an alert; ``C`` contract and
declarer ``4SX:W``; ``P`` play, a trick between colons, the suit given when it is not
the suit led; ``R`` result, declarer's tricks first. Digit labels are the notes. The
labels ``TDLESFKNBH`` repeat into the next records until restated.
"""

from __future__ import annotations

import re

from bridgefiles.model.seats import Seat

REPEATING = "TDLESFKNBH"
ORDER = "DTLESFKNBHACPRMI"  # the order RBN 3.1 writes the labels in
# RBN form-of-scoring letters and the PBN Scoring values they are
SCORING = {"I": "IMP", "M": "MP", "B": "BAM", "R": "Rubber", "C": "Chicago", "T": "TotalPoints"}
SCORING_BACK = {v.lower(): k for k, v in SCORING.items()} | {"matchpoints": "M"}
VUL = {"Z": "None", "N": "NS", "E": "EW", "B": "All"}
VUL_BACK = {"None": "Z", "NS": "N", "EW": "E", "All": "B"}
ROOMS = {"O": "Open", "C": "Closed"}
ROOMS_BACK = {v: k for k, v in ROOMS.items()}

_DATE = re.compile(r"^([0-9?]{4})([0-9?]{2})?([0-9?]{2})?(?::(\d{2})(\d{2})?(\d{2})?)?$")
CALL = re.compile(r"([1-7])([CDHSN])|([PXRAY])", re.IGNORECASE)
CARD = re.compile(r"([SHDC])?([AKQJT2-9])([!?]*)", re.IGNORECASE)


def pbn_date(value: str) -> tuple[str, str | None] | None:
    """``D`` as PBN Date (``yyyy.mm.dd``, ``??`` where unknown) and Time; None when the
    value says more than they can (a span, "circa", GMT)."""
    m = _DATE.match(value)
    if m is None:
        return None
    year, month, day = m.group(1), m.group(2) or "??", m.group(3) or "??"
    date = f"{year}.{month}.{day}"
    if m.group(4) is None:
        return date, None
    clock = [p or "00" for p in m.group(4, 5, 6)]  # PBN's Time is HH:MM:SS
    return date, ":".join(clock)


def rbn_date(date: str, time: str | None) -> str | None:
    """PBN Date (and Time) as ``D``, unknown trailing parts left off; None if not a date."""
    parts = date.split(".")
    if len(parts) != 3 or [len(p) for p in parts] != [4, 2, 2]:
        return None
    while len(parts) > 1 and parts[-1] == "??":
        parts.pop()
    text = "".join(parts)
    if time:
        clock = time.replace(":", "")
        if not clock.isdigit() or len(clock) not in (2, 4, 6):
            return None
        while clock.endswith("00") and len(clock) > 2:
            clock = clock[:-2]  # as RBN truncates it
        text += ":" + clock
    return text


def pbn_call(level: str | None, strain: str | None, other: str | None) -> str:
    """An RBN call as PBN writes it (``1N`` -> ``1NT``, ``R`` -> ``XX``, ``A`` -> ``AP``)."""
    if level is not None and strain is not None:
        s = strain.upper()
        return level + ("NT" if s == "N" else s)
    return {"P": "Pass", "X": "X", "R": "XX", "A": "AP", "Y": "*"}[(other or "").upper()]


def rbn_call(text: str) -> str:
    """A PBN call (``Pass``, ``XX``, ``3NT``) as RBN writes it."""
    up = text.upper()
    if up in ("PASS", "P"):
        return "P"
    if up == "XX":
        return "R"
    if up == "X":
        return "X"
    return up.replace("NT", "N")


def seat(letter: str) -> Seat | None:
    try:
        return Seat.parse(letter)
    except ValueError:
        return None
