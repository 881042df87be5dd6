"""USEBIO 1.2 (the EBU's XML results format, also taken by the ACBL for club results):
the vocabulary both directions share, the content sniffer, and the registration.

A USEBIO file is one EVENT: the club, the event's description, date and scoring
method, then SESSION/SECTION elements holding the PARTICIPANTS (pairs or teams, with
their places and totals) and the BOARDs (hands and the traveller: one line a table).
Teams events hold their boards inside MATCH elements. Writing (``usebio_write``)
takes a scored event, reading (``usebio_read``) gives back boards that carry their
travellers, which ``bf.score`` ranks again to the same standings.
"""

from __future__ import annotations

import re

from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic, warning
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring.method import parse_scoring

NAME = "usebio"
VERSION = "1.2"
DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">'
PROLOG = '<?xml version="1.0" encoding="ISO-8859-1"?>'
LOST = "lost-in-conversion"

VULNERABILITY = {
    Vulnerability.NONE: "Love",
    Vulnerability.NS: "North-South",
    Vulnerability.EW: "East-West",
    Vulnerability.ALL: "All",
}
VULNERABILITY_READ = {v.lower(): k for k, v in VULNERABILITY.items()} | {
    "none": Vulnerability.NONE, "ns": Vulnerability.NS, "ew": Vulnerability.EW,
    "both": Vulnerability.ALL, "n-s": Vulnerability.NS, "e-w": Vulnerability.EW,
}  # fmt: skip

# BOARD_SCORING_METHOD and the Scoring tag that says the same (PBN 10).
SCORING_WRITE = {"MP": "MATCH_POINTS", "Butler": "BUTLER", "Cross": "CROSS_IMPS",
                 "IMP": "IMPS"}  # fmt: skip
SCORING_READ = {"MATCH_POINTS": "MP", "BUTLER": "IMP;Butler", "CROSS_IMPS": "IMP;Cross",
                "IMPS": "IMP", "IMP": "IMP"}  # fmt: skip

SUITS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
SEATS = {"N": "N", "E": "E", "S": "S", "W": "W",
         "NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}  # fmt: skip

# An artificial adjusted score (Law 12C2) as USEBIO writes it, ``A6040``: each side's
# percentage; PBN's marks for the three that Law 12C2 names.
ADJUSTED_RE = re.compile(r"A(\d{2})(\d{2})")
MARK_OF_PERCENT = {60: "^A+", 50: "^A=", 40: "^A-"}
PERCENT_OF_MARK = {"+": 60, "=": 50, "": 50, "-": 40}


def scoring_method(scoring: str | None, teams: bool) -> str:
    """BOARD_SCORING_METHOD for a board's Scoring tag."""
    method = parse_scoring(scoring)
    if method.has("Butler") or method.has("Butler-2"):
        return SCORING_WRITE["Butler"]
    if any(method.has(m) for m in ("Cross", "Cross1", "Cross2")):
        return SCORING_WRITE["Cross"]
    if method.base == "IMP" or teams:
        return SCORING_WRITE["IMP"]
    return SCORING_WRITE["MP"]


def is_imps(scoring: str | None) -> bool:
    return parse_scoring(scoring).is_imps


def lost(board: Board, what: list[str]) -> Diagnostic:
    """The ``lost-in-conversion`` warning of a board: what USEBIO has no place for."""
    return warning(LOST, "USEBIO has no place for " + ", ".join(what), line=board.line,
                   board=board.board_number)


def sniff(head: str) -> int:
    """Confidence that a text head is USEBIO: its root element, not the file name."""
    text = head.lstrip("\ufeff").lstrip()
    if not text.startswith("<"):
        return 0
    if re.search(r"<USEBIO[\s>]", text[:4096]) or "usebio_v1" in text[:4096].lower():
        return 95
    return 0


# Tags USEBIO carries: as elements, through the pairs and teams, or derived again
# (Dealer from the board number, the scores from the traveller) when it is read back.
CARRIED_TAGS = frozenset({
    "Event", "Site", "Date", "Board", "Dealer", "Vulnerable", "Deal", "Scoring",
    "Contract", "Declarer", "Result", "Score", "ScoreMP", "ScoreIMP", "ScorePercentage",
    "PairNS", "PairEW", "North", "East", "South", "West", "HomeTeam", "VisitTeam", "Room",
})  # fmt: skip
CARRIED_TABLES = frozenset({"ScoreTable", "TotalScoreTable"})


def adapt(board: Board) -> Board:
    """``board`` with a ``lost-in-conversion`` warning naming what USEBIO cannot carry."""
    what: list[str] = []
    if board.board_number is None:
        what.append("a board without a board number (numbered in sequence)")
    if board.auction is not None and board.auction.entries:
        what.append("the auction")
    if board.play is not None and len(board.play.slots) > 1:
        what.append("the play (only the opening lead)")
    if board.comments or (board.auction is not None and board.auction.comments):
        what.append("commentary")
    tags = sorted({t.name for t in board.tags if t.name not in CARRIED_TAGS and not t.implied
                   and t.value.strip() not in ("", "?")})
    if tags:
        what.append("the tags " + ", ".join(tags))
    tables = sorted({t.name for t in board.tables if t.name not in CARRIED_TABLES})
    if tables:
        what.append("the tables " + ", ".join(tables))
    room = (board.room or "").strip().lower()
    if board.room is not None and any(board.player(s) for s in Seat):
        what.append("the seat each player sat in (USEBIO lists a team's players)")
    if room not in ("", "open", "closed"):
        what.append(f"the room name {board.room!r} (USEBIO says only which way the home "
                    "team sat)")
    method = parse_scoring(board.tag("Scoring"))
    if [m for m in method.modifiers if m not in ("Butler", "Cross")] or method.unknown:
        what.append(f"the Scoring {board.tag('Scoring')!r} beyond its BOARD_SCORING_METHOD")
    if not what:
        return board
    return board.replace(diagnostics=(*board.diagnostics, lost(board, what)), source=None)
