"""Reading USEBIO 1.2: boards that carry their travellers, for ``bf.score`` to rank.

A pairs event gives one board a board number: its tags (event, date, board,
dealer from the number, vulnerability, the deal from the four HANDs, the scoring
method) and a ScoreTable of its traveller lines, the sections' lines together
(with a Section column when there are several), the players' names from the
PARTICIPANTS. A teams event gives one game a table (Room, HomeTeam, VisitTeam,
Contract, Declarer, Result, Score, ScoreIMP), the form ``bf.score`` scores as a
match. Sections hold their own boards, so the boards are given once the document
has been read: a traveller line is kept as a few short strings until then.

Text that is not XML, or XML that declares entities (hostile uploads), is one
``syntax`` error and no board; a value that cannot be read is a warning on its
board and stays out of it (never a guess).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgefiles.errors import StrictModeError
from bridgefiles.exchange.usebio import (
    ADJUSTED_RE,
    MARK_OF_PERCENT,
    NAME,
    SCORING_READ,
    SEATS,
    SUITS,
    VULNERABILITY_READ,
)
from bridgefiles.exchange.xmlstream import Closed, Node, XMLProblem, stream_elements
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.model.board import Board, Column, Table, TagPair
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.diagnostic import info as note
from bridgefiles.model.seats import ROTATION, Vulnerability
from bridgefiles.scoring.board import board_dealer, parse_board_number
from bridgefiles.scoring.traveller import element

_WANTED = frozenset({"PARTICIPANTS/PAIR", "PARTICIPANTS/TEAM", "BOARD"})
_PAIR_COLUMNS = ["PairId_NS", "PairId_EW", "Names_NS", "Names_EW", "Contract", "Declarer",
                 "Lead", "Result", "Score_NS", "Score_EW"]  # fmt: skip
_MP = (("NS_MATCH_POINTS", "MP_NS"), ("EW_MATCH_POINTS", "MP_EW"))
_IMP = (("NS_IMPS", "IMP_NS"), ("EW_IMPS", "IMP_EW"))
# Elements read into the boards, and those that scoring works out again (the standings).
_READ = frozenset({
    "USEBIO", "CLUB", "CLUB_NAME", "EVENT", "EVENT_DESCRIPTION", "DATE", "BOARD_SCORING_METHOD",
    "SESSION", "SECTION", "PARTICIPANTS", "PAIR", "PAIR_NUMBER", "DIRECTION", "PLAYER",
    "PLAYER_NAME", "TEAM", "TEAM_NAME", "TEAM_ID", "MATCH", "OPPOSING_TEAM", "BOARD",
    "BOARD_NUMBER", "VULNERABILITY", "HAND", *SUITS, "TRAVELLER_LINE", "NS_PAIR_NUMBER",
    "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE", "NS_MATCH_POINTS",
    "EW_MATCH_POINTS", "NS_IMPS", "EW_IMPS",
})  # fmt: skip
_SCORED_AGAIN = frozenset({"PROGRAM_NAME", "PROGRAM_VERSION", "WINNER_TYPE", "BOARDS_PLAYED",
                           "PLACE", "PERCENTAGE", "TOTAL_SCORE", "TEAM_SCORE",
                           "OPPOSING_TEAM_SCORE"})  # fmt: skip
_LEAD = re.compile(r"([SHDC])\s*([AKQJT98765432]|10)", re.IGNORECASE)


@dataclass
class _BoardFacts:
    number: str
    line: int
    deal: str | None = None
    vulnerable: Vulnerability | None = None
    rows: list[dict[str, str]] = field(default_factory=list)
    games: list[tuple[dict[str, str], int]] = field(default_factory=list)  # teams: tags, line
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class _Reading:
    options: ReadOptions
    head: dict[str, str] = field(default_factory=dict)
    # (section, pair number, direction or ""): the players' names
    names: dict[tuple[str, str, str], str] = field(default_factory=dict)
    teams: dict[str, str] = field(default_factory=dict)  # TEAM_ID or name: name
    boards: dict[str, _BoardFacts] = field(default_factory=dict)
    sections: set[str] = field(default_factory=set)
    imps: bool = False
    dropped: dict[str, int] = field(default_factory=dict)  # element not read: first line

    def seen(self, tag: str, line: int) -> None:
        if tag not in _READ and tag not in self.dropped:
            self.dropped[tag] = line

    def say_dropped(self, info: FileInfo) -> None:
        """What the boards do not keep, said once for the file (never a silent loss)."""
        lost = [f"{t} (line {n})" for t, n in self.dropped.items() if t not in _SCORED_AGAIN]
        again = [t for t in self.dropped if t in _SCORED_AGAIN]
        path = self.options.path
        if lost:
            info.diagnostics.append(warning(
                "lost-in-conversion", "the boards have no place for USEBIO's "
                + ", ".join(lost), line=self.dropped[lost[0].split()[0]], path=path))
        if again:
            info.diagnostics.append(note(
                "lost-in-conversion", "not kept, since scoring works them out again: "
                + ", ".join(again), line=self.dropped[again[0]], path=path))

    def take(self, closed: Closed) -> None:
        around = {n.tag: n for n in closed.around}
        if not self.head:
            self._head(around)
        section = around["SECTION"].attrs.get("SECTION_ID", "") if "SECTION" in around else ""
        node = closed.node
        if node.tag == "PAIR":
            number = node.value("PAIR_NUMBER") or ""
            names = ";".join(p.value("PLAYER_NAME") or "?" for p in node.all("PLAYER"))
            direction = (node.value("DIRECTION") or "").strip().upper()
            if number and names:
                self.names[(section, number, direction)] = names
        elif node.tag == "TEAM":
            name = node.attrs.get("TEAM_NAME") or node.value("TEAM_NAME") or ""
            for key in (node.attrs.get("TEAM_ID"), node.value("TEAM_ID"), name):
                if key:
                    self.teams[key] = name
        elif node.tag == "BOARD":
            self.sections.add(section)
            self._board(node, section, around.get("MATCH"))

    def _head(self, around: dict[str, Node]) -> None:
        root = around.get("USEBIO")
        event = around.get("EVENT")
        club = root.child("CLUB") if root is not None else None
        site = club.value("CLUB_NAME") if club is not None else None
        if event is None:
            return
        date = event.value("DATE") or ""
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", date)
        method = (event.value("BOARD_SCORING_METHOD") or "").strip().upper()
        kind = event.attrs.get("EVENT_TYPE", "").upper()
        self.imps = method in ("BUTLER", "CROSS_IMPS", "IMPS", "IMP") or "TEAMS" in kind
        scoring = SCORING_READ.get(method, "IMP" if "TEAMS" in kind else "MP")
        self.head = {"Event": event.value("EVENT_DESCRIPTION") or "?", "Site": site or "?",
                     "Date": f"{m[3]}.{int(m[2]):02d}.{int(m[1]):02d}" if m else "?",
                     "Scoring": scoring}  # fmt: skip

    def _board(self, node: Node, section: str, match: Node | None) -> None:
        number = node.value("BOARD_NUMBER") or ""
        facts = self.boards.get(number)
        if facts is None:
            facts = self.boards[number] = _BoardFacts(number, node.line)
            if parse_board_number(number) is None:
                facts.diagnostics.append(self._problem(f"BOARD_NUMBER {number!r} is not a "
                                                       "board number", node.line))
        if facts.deal is None:
            facts.deal = self._deal(node, facts)
        vul = node.value("VULNERABILITY")
        if vul and facts.vulnerable is None:
            facts.vulnerable = VULNERABILITY_READ.get(vul.strip().lower())
            if facts.vulnerable is None:
                facts.diagnostics.append(self._problem(f"VULNERABILITY {vul!r} is not one of "
                                                       "Love, North-South, East-West, All",
                                                       node.line))
        for line in node.all("TRAVELLER_LINE"):
            row = self._row(line, section, facts)
            if match is None:
                facts.rows.append(row)
            else:
                facts.games.append((self._game(line, row, match), line.line))

    def _deal(self, node: Node, facts: _BoardFacts) -> str | None:
        hands: dict[str, str] = {}
        for hand in node.all("HAND"):
            seat = SEATS.get((hand.value("DIRECTION") or "").strip().upper())
            if seat is None:
                facts.diagnostics.append(self._problem("a HAND without a DIRECTION N, E, S "
                                                       "or W", hand.line))
                continue
            suits = [re.sub(r"\s|-", "", hand.value(s) or "").upper().replace("10", "T")
                     for s in SUITS]
            hands[seat] = ".".join(suits)
        if not hands:
            return None
        return "N:" + " ".join(hands.get(s.value, "-") for s in ROTATION)

    def _row(self, line: Node, section: str, facts: _BoardFacts) -> dict[str, str]:
        row: dict[str, str] = {}
        row["Section"] = section
        for side in ("NS", "EW"):
            pair = (line.value(f"{side}_PAIR_NUMBER") or "").strip()
            if pair:
                row[f"PairId_{side}"] = pair
                row[f"Names_{side}"] = self.names.get(
                    (section, pair, side), self.names.get((section, pair, ""), ""))
        score = (line.value("SCORE") or "").strip()
        adjusted = ADJUSTED_RE.fullmatch(score.upper())
        if adjusted:
            for column, percent in zip(("Score_NS", "Score_EW"), adjusted.groups(),
                                       strict=True):
                mark = MARK_OF_PERCENT.get(int(percent))
                if mark is None:
                    facts.diagnostics.append(self._problem(
                        f"adjusted score {score!r}: only 60, 50 and 40 per cent (Law 12C2) "
                        "have a PBN mark; left out", line.line))
                    break
                row[column] = mark
        else:
            self._result(line, row, facts)
            if re.fullmatch(r"[+-]?\d+", score):
                ns = int(score)
                row["Score_NS"], row["Score_EW"] = (str(ns), "-") if ns >= 0 else ("-", str(-ns))
            elif score:
                facts.diagnostics.append(self._problem(f"SCORE {score!r} is not a score",
                                                       line.line))
        for tag, column in _IMP if self.imps else _MP:
            value = (line.value(tag) or "").strip()
            if value:
                row[column] = value
        return row

    def _result(self, line: Node, row: dict[str, str], facts: _BoardFacts) -> None:
        text = (line.value("CONTRACT") or "").strip()
        if text:
            try:
                contract = Contract.parse(text.replace("*", "X").replace(" ", ""))
                row["Contract"] = contract.text
            except ValueError:
                facts.diagnostics.append(self._problem(f"CONTRACT {text!r} is not a contract",
                                                       line.line))
        seat = SEATS.get((line.value("PLAYED_BY") or "").strip().upper())
        if seat is not None:
            row["Declarer"] = seat
        tricks = (line.value("TRICKS") or "").strip()
        if tricks.isdecimal() and int(tricks) <= 13:
            row["Result"] = str(int(tricks))
        elif tricks:
            facts.diagnostics.append(self._problem(f"TRICKS {tricks!r} is not 0 to 13",
                                                   line.line))
        lead = _LEAD.fullmatch((line.value("LEAD") or "").strip())
        if lead:
            row["Lead"] = lead[1].upper() + lead[2].upper().replace("10", "T")

    def _game(self, line: Node, row: dict[str, str], match: Node) -> dict[str, str]:
        """A teams table's game tags: the home team N-S in the Open room."""
        home = self.teams.get(match.value("TEAM") or "", match.value("TEAM") or "?")
        visit = self.teams.get(match.value("OPPOSING_TEAM") or "",
                               match.value("OPPOSING_TEAM") or "?")
        direction = (line.value("DIRECTION") or "NS").strip().upper()
        tags = {"HomeTeam": home, "VisitTeam": visit,
                "Room": "Closed" if direction == "EW" else "Open"}  # fmt: skip
        for column in ("Contract", "Declarer", "Result"):
            if column in row:
                tags[column] = row[column]
        if row.get("Score_NS", "-") != "-":
            tags["Score"] = ("NS " if not row["Score_NS"].startswith("^") else "") + row[
                "Score_NS"]
        elif row.get("Score_EW", "-") != "-":
            tags["Score"] = ("EW " if not row["Score_EW"].startswith("^") else "") + row[
                "Score_EW"]
        if "IMP_NS" in row and "IMP_EW" in row:
            tags["ScoreIMP"] = f"NS {row['IMP_NS']} EW {row['IMP_EW']}"
        return tags

    def _problem(self, message: str, line: int) -> Diagnostic:
        return warning("tag-value", message, line=line, path=self.options.path)

    def made(self) -> Iterator[Board]:
        index = 0
        for facts in self.boards.values():
            base = self._tags(facts)
            if facts.games:
                for tags, line in facts.games:
                    yield _made([*base, *(TagPair(name=k, value=v) for k, v in tags.items())],
                                (), index, line, facts.diagnostics)
                    index += 1
                continue
            yield _made(base, (self._table(facts),), index, facts.line, facts.diagnostics)
            index += 1

    def _tags(self, facts: _BoardFacts) -> list[TagPair]:
        tags = [TagPair(name=k, value=v) for k, v in self.head.items() if k != "Scoring"]
        tags.append(TagPair(name="Board", value=facts.number or "?"))
        number = parse_board_number(facts.number)
        if number is not None:
            tags.append(TagPair(name="Dealer", value=board_dealer(number).value))
        if facts.vulnerable is not None:
            tags.append(TagPair(name="Vulnerable", value=facts.vulnerable.value))
        if facts.deal is not None:
            tags.append(TagPair(name="Deal", value=facts.deal))
        if "Scoring" in self.head:
            tags.append(TagPair(name="Scoring", value=self.head["Scoring"]))
        return tags

    def _table(self, facts: _BoardFacts) -> Table:
        columns = (["Section"] if len(self.sections) > 1 else []) + _PAIR_COLUMNS
        columns += [c for _, c in (_IMP if self.imps else _MP)]
        rows = tuple(tuple(_element(r.get(c, "")) for c in columns) for r in facts.rows)
        return Table(name="ScoreTable", columns=tuple(Column(name=c) for c in columns),
                     rows=rows)


def _element(text: str) -> str:
    """A cell as a PBN table element: ``-`` when empty, a quoted string when needed."""
    return element(text) if text else "-"


def _made(tags: list[TagPair], tables: tuple[Table, ...], index: int, line: int,
          diagnostics: list[Diagnostic]) -> Board:
    return Board(tags=tuple(tags), tables=tables, format=NAME, index=index, line=line,
                 diagnostics=tuple(diagnostics))


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The boards of a USEBIO document, once it has been read whole (see the module)."""
    reading = _Reading(options)
    try:
        first = True
        limits = options.limits
        for closed in stream_elements(lines, _WANTED, max_text=limits.max_value_length,
                                      max_children=limits.max_tags_per_game,
                                      seen=reading.seen):
            if first:
                first = False
                root = closed.around[0].tag if closed.around else closed.node.tag
                if root != "USEBIO":
                    raise XMLProblem(f"not a USEBIO document (its root is {root})", 1, 1)
            reading.take(closed)
    except XMLProblem as exc:
        code = "limit" if exc.limit is not None else "syntax"
        _fail(error(code, exc.message, line=exc.line, column=exc.column, path=options.path),
              options, info)
        return
    if not reading.boards:
        _fail(error("syntax", "a USEBIO document with no BOARD", path=options.path),
              options, info)
        return
    yield from reading.made()
    reading.say_dropped(info)


def _fail(diag: Diagnostic, options: ReadOptions, info: FileInfo) -> None:
    if options.strict:
        raise StrictModeError(diag.format(), diag)
    info.diagnostics.append(diag)
