"""Writing USEBIO 1.2 from a scored event.

The travellers come from each board's ScoreTable (as ``bf.score`` writes it, or as
the file carried it), else from the games' own Contract, Declarer, Result, Score
and ScoreMP/ScoreIMP tags, one game a table; the standings from the last
TotalScoreTable. USEBIO lists the participants, with their places, before the
boards, and the standings close a PBN event, so the writer keeps each traveller
line (a few short strings) until the file ends; no board is kept whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import metadata

from bridgefiles.errors import BridgeFileError
from bridgefiles.exchange.usebio import (
    DOCTYPE,
    PERCENT_OF_MARK,
    PROLOG,
    SUITS,
    VERSION,
    VULNERABILITY,
    is_imps,
    scoring_method,
)
from bridgefiles.exchange.xmlstream import escape
from bridgefiles.formats.registry import FileInfo, WriteOptions
from bridgefiles.model.board import Board
from bridgefiles.model.deal import Hand
from bridgefiles.model.seats import ROTATION, Seat, Side
from bridgefiles.scoring.board import board_vulnerability, parse_board_number
from bridgefiles.scoring.tables import traveller_of
from bridgefiles.scoring.values import SidedValue, format_number

Row = dict[str, str]
_PAIR_ID = re.compile(r"(?P<section>.*?)(?P<number>\d+)(?:-(?P<direction>NS|EW))?")
_EMPTY = ("", "-", "?")


@dataclass
class _Deal:
    number: str
    hands: dict[Seat, tuple[str, ...]] | None = None
    vulnerable: str | None = None
    rows: list[Row] = field(default_factory=list)
    from_table: bool = False


@dataclass
class _Event:
    head: dict[str, str] = field(default_factory=dict)
    deals: dict[str, _Deal] = field(default_factory=dict)
    standings: list[Row] = field(default_factory=list)
    teams: bool = False
    players: dict[str, dict[str, None]] = field(default_factory=dict)  # team: its players

    def add(self, board: Board) -> None:
        if not self.head:
            for tag in ("Event", "Site", "Date", "Scoring", "HomeTeam", "VisitTeam"):
                value = board.tag(tag)
                if value is not None and value.strip() not in _EMPTY:
                    self.head[tag] = value.strip()
        number = board.board_number or str(len(self.deals) + 1)
        deal = self.deals.setdefault(number, _Deal(number))
        if board.deal is not None and board.deal.is_complete:
            hands = {s: _suits(board.deal.hands[s]) for s in ROTATION}
            if deal.hands is None:
                deal.hands = hands
            elif hands != deal.hands:  # two events in one file: USEBIO holds one deal a number
                raise BridgeFileError(f"board {number} is dealt twice with different hands "
                                      f"(line {board.line or '?'}); USEBIO holds one deal a "
                                      "board number: nothing written")
        if deal.vulnerable is None and board.vulnerable is not None:
            deal.vulnerable = VULNERABILITY[board.vulnerable]
        home, visit = board.tag("HomeTeam"), board.tag("VisitTeam")
        if board.room is not None and home and visit:
            self.teams = True
            if (home, visit) != (self.head.get("HomeTeam"), self.head.get("VisitTeam")):
                raise BridgeFileError(f"board {number} is of another match ({home} v {visit}, "
                                      f"line {board.line or '?'}); USEBIO is written for one "
                                      "match a file here: nothing written")
            self._players(board, home, visit)
        table = traveller_of(board)  # the scorer's own test of a traveller
        if table is not None and not deal.from_table:  # the traveller covers the games
            deal.rows = table.records()
            deal.from_table = True
        elif table is not None:  # another traveller of the number (a section's): its new rows
            deal.rows.extend(r for r in table.records() if r not in deal.rows)
        elif not deal.from_table:
            deal.rows.append(_game_row(board))
        totals = board.table("TotalScoreTable")
        if totals is not None and totals.rows:
            self.standings = totals.records()

    def render(self, nl: str) -> Iterator[str]:
        head = self.head
        imps = is_imps(head.get("Scoring")) or self.teams
        kind = "TEAMS" if self.teams else "PAIRS"
        yield f"{PROLOG}{nl}{DOCTYPE}{nl}"
        yield f'<USEBIO Version="{VERSION}">{nl}'
        yield f"  <CLUB>{nl}{_el('CLUB_NAME', head.get('Site', ''), 4, nl)}  </CLUB>{nl}"
        yield f'  <EVENT EVENT_TYPE="{kind}">{nl}'
        for tag, value in (
            ("PROGRAM_NAME", "bridgefiles"),
            ("PROGRAM_VERSION", _program_version()),
            ("EVENT_DESCRIPTION", head.get("Event")),
            ("DATE", _date(head.get("Date"))),
            ("BOARD_SCORING_METHOD", scoring_method(head.get("Scoring"), self.teams)),
            ("WINNER_TYPE", "1"),
            ("BOARDS_PLAYED", str(len(self.deals))),
        ):
            if value is not None:
                yield _el(tag, value, 4, nl)
        yield f'    <SESSION SESSION_ID="1">{nl}'
        if self.teams:
            yield from self._teams(nl)
        else:
            for section in self._sections():
                yield from self._section(section, imps, nl)
        yield f"    </SESSION>{nl}  </EVENT>{nl}</USEBIO>{nl}"

    # -- pairs ---------------------------------------------------------------
    def _sections(self) -> list[str | None]:
        found: dict[str | None, None] = {}
        for deal in self.deals.values():
            for row in deal.rows:
                found.setdefault(_cell(row, "Section"))
        return list(found) or [None]

    def _section(self, section: str | None, imps: bool, nl: str) -> Iterator[str]:
        yield f'      <SECTION SECTION_ID="{escape(section or "A")}">{nl}'
        yield f"        <PARTICIPANTS>{nl}"
        for pair in self._pairs(section, nl):
            yield from pair
        yield f"        </PARTICIPANTS>{nl}"
        for deal in self.deals.values():
            rows = [r for r in deal.rows if _cell(r, "Section") == section]
            if rows or section is None:
                yield from _board(deal, rows, imps, "        ", nl)
        yield f"      </SECTION>{nl}"

    def _pairs(self, section: str | None, nl: str) -> Iterator[list[str]]:
        """Each pair of ``section``: number, direction, totals, place, players."""
        places = _places([r.get("Rank", "") for r in self.standings])
        listed: set[str] = set()
        for row, place in zip(self.standings, places, strict=True):
            pair_id = _cell(row, "PairId")
            m = _PAIR_ID.fullmatch(pair_id or "")
            if m is None or (m["section"] or None) != section:
                continue
            listed.add(m["number"] + (m["direction"] or ""))
            parts = [_el("PAIR_NUMBER", m["number"], 12, nl)]
            if m["direction"]:
                parts.append(_el("DIRECTION", m["direction"], 12, nl))
            percent = _cell(row, "TotalPercentage")
            if percent is not None:
                parts.append(_el("PERCENTAGE", percent, 12, nl))
            total = _cell(row, "TotalMP") or _cell(row, "TotalIMP")
            if total is not None:
                parts.append(_el("TOTAL_SCORE", total, 12, nl))
            parts.append(_el("PLACE", place, 12, nl))
            parts.extend(_players(_cell(row, "Names"), 12, nl))
            yield [f"          <PAIR>{nl}", *parts, f"          </PAIR>{nl}"]
        for number, names in self._unranked(section, listed):
            yield [f"          <PAIR>{nl}", _el("PAIR_NUMBER", number, 12, nl),
                   *_players(names, 12, nl), f"          </PAIR>{nl}"]

    def _unranked(self, section: str | None, listed: set[str]) -> list[tuple[str, str | None]]:
        """Pairs of the travellers that no standings name (an unscored event)."""
        seen: dict[str, str | None] = {}
        for deal in self.deals.values():
            for row in deal.rows:
                if _cell(row, "Section") != section:
                    continue
                for side in ("NS", "EW"):
                    number = _cell(row, f"PairId_{side}")
                    if number is None or number in listed or number + side in listed:
                        continue
                    seen.setdefault(number, _cell(row, f"Names_{side}"))
        return list(seen.items())

    # -- teams ---------------------------------------------------------------
    def _players(self, board: Board, home: str, visit: str) -> None:
        """The players of each team: the home team sits N-S in the Open room."""
        closed = (board.room or "").strip().lower() == "closed"
        for seats, team in (((Seat.N, Seat.S), visit if closed else home),
                            ((Seat.E, Seat.W), home if closed else visit)):
            for seat in seats:
                name = (board.player(seat) or "").strip()
                if name not in _EMPTY:
                    self.players.setdefault(team, {})[name] = None

    def _teams(self, nl: str) -> Iterator[str]:
        home = self.head.get("HomeTeam", "Home")
        visit = self.head.get("VisitTeam", "Visitors")
        yield f'      <SECTION SECTION_ID="A">{nl}        <PARTICIPANTS>{nl}'
        places = _places([r.get("Rank", "") for r in self.standings])
        ranked = {_cell(r, "Names"): (r, p) for r, p in zip(self.standings, places, strict=True)}
        totals: dict[str, str] = {}
        for number, name in enumerate((home, visit), start=1):
            yield f'          <TEAM TEAM_ID="{number}" TEAM_NAME="{escape(name)}">{nl}'
            if name in ranked:
                row, place = ranked[name]
                totals[name] = _cell(row, "TotalIMP") or "0"
                total = _cell(row, "VP") or totals[name]
                yield _el("TOTAL_SCORE", total, 12, nl) + _el("PLACE", place, 12, nl)
            yield "".join(_players(";".join(self.players.get(name, {})), 12, nl))
            yield f"          </TEAM>{nl}"
        yield f"        </PARTICIPANTS>{nl}        <MATCH>{nl}"
        yield _el("TEAM", "1", 10, nl) + _el("OPPOSING_TEAM", "2", 10, nl)  # the TEAM_IDs
        if totals:
            yield _el("TEAM_SCORE", totals.get(home, "0"), 10, nl)
            yield _el("OPPOSING_TEAM_SCORE", totals.get(visit, "0"), 10, nl)
        for deal in self.deals.values():
            yield from _board(deal, deal.rows, True, "          ", nl, teams=True)
        yield f"        </MATCH>{nl}      </SECTION>{nl}"


def _game_row(board: Board) -> Row:
    """A game's own result as a traveller row (the ScoreTable's column names)."""
    row: Row = {}
    declarer = board.declarer

    def put(column: str, value: str | None) -> None:
        if value is not None and value.strip() not in _EMPTY:
            row[column] = value.strip()

    put("Room", board.room)
    put("PairId_NS", board.tag("PairNS"))
    put("PairId_EW", board.tag("PairEW"))
    for side, (a, b) in (("NS", (Seat.N, Seat.S)), ("EW", (Seat.E, Seat.W))):
        x, y = board.player(a), board.player(b)
        if (x or "").strip() not in _EMPTY or (y or "").strip() not in _EMPTY:
            row[f"Names_{side}"] = f"{(x or '?').strip()};{(y or '?').strip()}"
    outcome = board.outcome  # the auction's contract where the tags do not say it
    contract = board.contract or (outcome.contract if outcome is not None else None)
    if declarer is None and outcome is not None:
        declarer = outcome.declarer
    put("Contract", contract.text if contract is not None else None)
    put("Declarer", declarer.value if declarer is not None else None)
    tricks = board.result.declarer_tricks(declarer) if board.result is not None else None
    if tricks is not None:
        row["Result"] = str(tricks)
    lead = _lead(board)
    if lead is not None:
        row["Lead"] = lead
    for tag, columns in (("Score", ("Score_NS", "Score_EW")), ("ScoreMP", ("MP_NS", "MP_EW")),
                         ("ScoreIMP", ("IMP_NS", "IMP_EW"))):
        text = board.tag(tag)
        if text is None or text.strip() in _EMPTY:
            continue
        if tag == "Score" and text.strip().startswith("^"):
            row["Score_NS"] = text.strip()
            continue
        try:
            value = SidedValue.parse(text)
        except ValueError:
            continue
        for side, column in zip((Side.NS, Side.EW), columns, strict=True):
            got = (value.points_for(side, declarer) if tag == "Score"
                   else value.given_for(side, declarer))
            if got is not None:
                row[column] = format_number(got)
    return row


def _lead(board: Board) -> str | None:
    """The opening lead, the first card of the play (``SA``), when it was recorded."""
    play = board.play
    if play is None or not play.slots or play.slots[0].card is None:
        return None
    card = play.slots[0].card
    return f"{card.suit.value}{card.rank.char}"


def _board(deal: _Deal, rows: list[Row], imps: bool, pad: str, nl: str, *,
           teams: bool = False) -> Iterator[str]:
    inner = len(pad) + 2
    yield f"{pad}<BOARD>{nl}"
    yield _el("BOARD_NUMBER", deal.number, inner, nl)
    vul = deal.vulnerable
    number = parse_board_number(deal.number)
    if vul is None and number is not None:
        vul = VULNERABILITY[board_vulnerability(number)]
    if vul is not None:
        yield _el("VULNERABILITY", vul, inner, nl)
    if deal.hands is not None:
        for seat in ROTATION:
            yield f"{' ' * inner}<HAND>{nl}" + _el("DIRECTION", seat.value, inner + 2, nl)
            for name, ranks in zip(SUITS, deal.hands[seat], strict=True):
                yield _el(name, ranks, inner + 2, nl)
            yield f"{' ' * inner}</HAND>{nl}"
    for row in rows:
        yield f"{' ' * inner}<TRAVELLER_LINE>{nl}"
        yield "".join(_line(row, imps, teams, inner + 2, nl))
        yield f"{' ' * inner}</TRAVELLER_LINE>{nl}"
    yield f"{pad}</BOARD>{nl}"


def _line(row: Row, imps: bool, teams: bool, pad: int, nl: str) -> Iterator[str]:
    if teams:
        room = (_cell(row, "Room") or "").lower()
        yield _el("DIRECTION", "EW" if room == "closed" else "NS", pad, nl)
    else:
        yield _el("NS_PAIR_NUMBER", _cell(row, "PairId_NS") or "", pad, nl)
        yield _el("EW_PAIR_NUMBER", _cell(row, "PairId_EW") or "", pad, nl)
    score = _score(row)
    adjusted = score is not None and score.startswith("A")
    yield _el("CONTRACT", "" if adjusted else _cell(row, "Contract") or "", pad, nl)
    yield _el("PLAYED_BY", "" if adjusted else _cell(row, "Declarer") or "", pad, nl)
    yield _el("LEAD", _cell(row, "Lead") or "", pad, nl)
    yield _el("TRICKS", "" if adjusted else _cell(row, "Result") or "", pad, nl)
    yield _el("SCORE", score or "", pad, nl)
    pairs = (("IMP_NS", "NS_IMPS"), ("IMP_EW", "EW_IMPS")) if imps else (
        ("MP_NS", "NS_MATCH_POINTS"), ("MP_EW", "EW_MATCH_POINTS"))
    for column, tag in pairs:
        value = _cell(row, column)
        if value is not None:
            yield _el(tag, value, pad, nl)


def _score(row: Row) -> str | None:
    """SCORE: the N-S score, or ``A6040`` for an artificial adjusted score."""
    ns, ew = row.get("Score_NS", "").strip(), row.get("Score_EW", "").strip()
    if ns.startswith("^") or ew.startswith("^"):
        return "A" + "".join(f"{_percent(t, o):02d}" for t, o in ((ns, ew), (ew, ns)))
    try:
        if ns not in _EMPTY:
            return str(int(Decimal(ns)))
        if ew not in _EMPTY:
            return str(-int(Decimal(ew)))
    except ArithmeticError:
        return None
    return None


def _percent(mark: str, other: str) -> int:
    """The percentage an artificial mark stands for (60/50/40), the other side's rest."""
    if mark.startswith("^"):
        return PERCENT_OF_MARK.get(mark.lstrip("^").upper().removeprefix("AVE")
                                   .removeprefix("A"), 50)
    return 100 - _percent(other, "^A=") if other.startswith("^") else 50


def _suits(hand: Hand | None) -> tuple[str, ...]:
    """A hand's spades, hearts, diamonds and clubs as rank letters."""
    return tuple(hand.pbn.split(".")) if hand is not None else ("", "", "", "")


def _places(ranks: list[str]) -> list[str]:
    """PLACE values: the rank, with ``=`` where pairs tie (USEBIO's own spelling)."""
    counts: dict[str, int] = {}
    for r in ranks:
        counts[r.strip()] = counts.get(r.strip(), 0) + 1
    return [f"{r.strip()}=" if counts[r.strip()] > 1 else r.strip() for r in ranks]


def _players(names: str | None, pad: int, nl: str) -> list[str]:
    out = []
    for name in (names or "").split(";"):
        if name.strip() not in _EMPTY:
            inner = _el("PLAYER_NAME", name.strip(), pad + 2, nl)
            out.append(f"{' ' * pad}<PLAYER>{nl}{inner}{' ' * pad}</PLAYER>{nl}")
    return out


def _cell(row: Row, column: str) -> str | None:
    value = row.get(column)
    if value is None:
        return None
    t = value.strip()
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"':
        t = t[1:-1].replace('\\"', '"').replace("\\\\", "\\").strip()
    return None if t in _EMPTY else t


def _date(text: str | None) -> str | None:
    """PBN's ``yyyy.mm.dd`` as USEBIO's ``dd/mm/yyyy``; a date with ``?`` is left out."""
    if text is None:
        return None
    m = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})", text.strip())
    return f"{m[3]}/{m[2]}/{m[1]}" if m else None


def _el(tag: str, value: str, pad: int, nl: str) -> str:
    return f"{' ' * pad}<{tag}>{escape(value)}</{tag}>{nl}"


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """The event as one USEBIO document (its lines end in ``\\n`` unless told otherwise)."""
    event = _Event()
    for board in boards:
        event.add(board)
    yield from event.render(options.newline or "\n")


def _program_version() -> str:
    """The installed bridgefiles' version (from its metadata: the package root sits above
    this layer)."""
    try:
        return metadata.version("bridgefiles")
    except metadata.PackageNotFoundError:  # run from a bare source tree
        return "unknown"
