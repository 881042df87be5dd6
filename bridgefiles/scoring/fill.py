"""Filling in: contracts, results and scores written into a file's boards.

This is the layer above the Laws (it asks the validator for contract, declarer
and the tricks after Law 64), and the one place where boards change. Per record:
Contract and Declarer when missing, Result (declarer's tricks after transfers),
Score (``NS 620`` / ``EW 100``: the side that scored, or always ``NS`` with
``score_form="ns"``). Where a file holds several results of one deal:

* teams (two records of a board with the same two teams in HomeTeam/VisitTeam,
  or an Open and a Closed room): ScoreIMP per record, a ScoreTable on the
  board's first record, and the running IMP and VP totals of each match in a
  TotalScoreTable on the board's last record of that match;
* pairs (more records of a deal, or one record with a ScoreTable traveller):
  ScoreMP and ScorePercentage (or ScoreIMP for Butler and cross-IMPs) per
  record, the table's MP/Percentage/IMP columns, a ScoreTable per deal, and a
  TotalScoreTable for the event on its last record.

A value already in the file that disagrees with ours is reported on its board
(``score-mismatch``; ``contract-mismatch``, ``declarer-mismatch``,
``result-mismatch`` for those tags) and replaced only with ``replace=True``.
Conventions chosen here (documented settings): the team sitting N-S in a record
is its HomeTeam; a pair id met as both PairId_NS and PairId_EW in one row means
ids are per direction (a Mitchell), so pairs are then told apart by direction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bridgefiles.errors import BridgeFileError
from bridgefiles.model.board import Board, Table
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, error
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring.butler import Average, CrossDivide, Discard, Half, butler, cross_imps
from bridgefiles.scoring.imps import ImpRounding, imps
from bridgefiles.scoring.matchpoints import (
    Adjusted,
    AdjustedPercentages,
    Units,
    percentage,
    score_board,
)
from bridgefiles.scoring.method import ScoringMethod, parse_scoring
from bridgefiles.scoring.rubber import DealScore, RubberState, parse_score_rubber, score_deal
from bridgefiles.scoring.traveller import (
    MISSING,
    Entry,
    cell_number,
    element,
    entries_from_table,
    make_table,
    ns_points,
    set_cells,
)
from bridgefiles.scoring.values import SidedValue, format_number
from bridgefiles.scoring.vp import victory_points


class ScoreSettings(BaseModel):
    """How to score where organisers differ; the defaults are the common practice."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: str | None = None  # a Scoring value used instead of each board's own tag
    units: Units = "2"  # matchpoints per result beaten (ScoreMP holds 2-per-beat, MP1)
    expected_results: int | None = None  # Neuberg field size; default the event's largest
    adjusted: AdjustedPercentages = AdjustedPercentages()
    discard: Discard = 1  # Butler: results left out at each end (Butler-2; "Butler" alone: 0)
    average: Average = "mean"
    round_datum: int = 10
    half: Half = "away"
    cross_divide: CrossDivide = "comparisons"
    imp_rounding: ImpRounding = "lower"
    pairs_imps: str = "Butler-2"  # the IMP-pairs method when the Scoring tag names none
    score_form: Literal["positive", "ns"] = "positive"
    places: int = 2
    by_section: bool = False  # matchpoint each ScoreTable Section apart (default: across)
    tables: bool = True  # write ScoreTable and TotalScoreTable
    vp: bool = True  # VP column in team-match totals (WBF 20-VP scale)


@dataclass
class _Work:
    """A board being filled in, and what was learnt about it."""

    board: Board
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    auction_contract: Contract | None = None  # set when the tags disagree with the auction
    auction_declarer: Seat | None = None
    computed: int | None = None  # Law 77 from contract, declarer and tricks
    ns: int | None = None  # the N-S score used for the tournament (else the Score tag's)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    changed: bool = False
    ours: set[str] = field(default_factory=set)  # tables written by this run

    def set_tag(self, name: str, value: str) -> None:
        self.board = self.board.with_tag(name, value)
        self.changed = True

    def set_table(self, table: Table) -> None:
        tables = [t for t in self.board.tables if t.name != table.name]
        tables.append(table)
        self.board = self.board.replace(tables=tuple(tables))
        self.changed = True
        self.ours.add(table.name)

    def finish(self) -> Board:
        if not self.diagnostics:
            return self.board
        diagnostics = (*self.board.diagnostics, *self.diagnostics)
        if self.changed:
            return self.board.replace(diagnostics=diagnostics)
        return self.board.model_copy(update={"diagnostics": diagnostics})


def score_file(bridge_file: BridgeFile, *, replace: bool = False, **settings: Any) -> BridgeFile:
    """A new BridgeFile with contracts, results and scores filled in (see the module doc)."""
    try:
        options = ScoreSettings(**settings)
    except ValidationError as exc:
        raise BridgeFileError(f"bad scoring settings: {exc}") from exc
    work = [_deal_facts(b, options, replace) for b in bridge_file.boards]
    for w in work:
        _fill_record(w, replace, options)
    _Tournament(work, replace, options).run()
    return bridge_file.model_copy(update={"boards": tuple(w.finish() for w in work)})


# -- one record ---------------------------------------------------------------------


def _method(board: Board, options: ScoreSettings) -> ScoringMethod:
    return parse_scoring(options.method if options.method is not None else board.tag("Scoring"))


def _report(board: Board) -> Any:
    """The validator's report, or None when it cannot give one."""
    try:
        from bridgefiles.validate import validate_board

        return validate_board(board)
    except Exception:  # the validator is a lower layer; its failure must not stop scoring
        return None


def _deal_facts(board: Board, options: ScoreSettings, replace: bool) -> _Work:
    """Contract, declarer and final tricks from the validator, else from the tags.

    The validator scores the Contract and Declarer tags when they disagree with the
    auction; the auction's own values are looked up too, to report the tags (and, with
    ``replace``, to replace them and score the auction's contract).
    """
    w = _Work(board=board)
    report = _report(board)
    if report is not None and any(
        d.code in ("contract-mismatch", "declarer-mismatch") for d in report.diagnostics
    ):
        bare = board.replace(
            tags=tuple(t for t in board.tags if t.name not in ("Contract", "Declarer"))
        )
        auction = _report(bare)
        if auction is not None and auction.contract is not None:
            w.auction_contract = auction.contract
            w.auction_declarer = auction.declarer
            if replace:
                report = auction
    contract = report.contract if report is not None else None
    w.contract = contract if contract is not None else board.contract
    if w.contract is not None and not w.contract.passed_out:
        declarer = report.declarer if report is not None else None
        w.declarer = declarer if declarer is not None else board.declarer
        final = report.tricks.final if report is not None and report.tricks else None
        if (
            report is not None
            and report.tricks
            and report.tricks.law64
            and any(d.code == "card-not-held" for d in report.diagnostics)
        ):
            # A revoke found in a play that has cards the player never held is an
            # artefact of a broken record (a wrong deal): no Law 64 transfer then.
            final = report.tricks.won
        w.tricks = final if final is not None else board.declarer_tricks
        if w.tricks is not None and not 0 <= w.tricks <= 13:
            w.tricks = None
    old_mp = _method(board, options).has("OldMP")
    w.computed = ns_points(w.contract, w.declarer, w.tricks, board.vulnerable, old_mp=old_mp)
    w.ns = w.computed
    if w.ns is None:  # no deal to score: keep the score the file gives, if any
        given = _score_tag(board)
        if given is not None:
            points = given.points_for(Side.NS, board.declarer)
            w.ns = int(points) if points is not None else None
    return w


def _score_tag(board: Board) -> SidedValue | None:
    v = board.tag("Score")
    if v is None or v.strip() in MISSING:
        return None
    try:
        return SidedValue.parse(v)
    except ValueError:
        return None


def _where(board: Board, tag: str) -> dict[str, Any]:
    pair = board.tag_pair(tag)
    return {
        "line": pair.line if pair else board.line,
        "column": pair.column if pair else None,
        "board": board.board_number,
    }


def _disagree(w: _Work, code: str, tag: str, written: str, ours: str, replace: bool) -> None:
    action = "replaced" if replace else "kept (score with replace=True to replace it)"
    w.diagnostics.append(
        error(
            code,
            f'{tag} "{written}" disagrees with the computed {ours}; {action}',
            law="77" if code == "score-mismatch" else None,
            **_where(w.board, tag),
        )
    )


def _fill_record(w: _Work, replace: bool, options: ScoreSettings) -> None:
    b = w.board
    if w.auction_contract is not None and b.contract != w.auction_contract:
        shown = b.tag("Contract") or ""
        _disagree(w, "contract-mismatch", "Contract", shown, w.auction_contract.text, replace)
        if replace:
            w.set_tag("Contract", w.auction_contract.text)
    elif w.contract is not None:
        written = b.tag("Contract")
        if written is None or written.strip() in MISSING:
            w.set_tag("Contract", w.contract.text)
    declarer = w.auction_declarer if w.auction_contract is not None else None
    if declarer is not None and not _same_declarer(b, declarer):
        shown = b.tag("Declarer") or ""
        _disagree(w, "declarer-mismatch", "Declarer", shown, declarer.value, replace)
        if replace:
            w.set_tag("Declarer", declarer.value)
    elif w.declarer is not None:
        written = b.tag("Declarer")
        if written is None or written.strip() in MISSING:
            w.set_tag("Declarer", w.declarer.value)
    if w.tricks is not None:
        written = b.tag("Result")
        if written is None or written.strip() in MISSING:
            w.set_tag("Result", str(w.tricks))
        elif w.board.declarer_tricks != w.tricks:
            _disagree(w, "result-mismatch", "Result", written, f"{w.tricks} tricks", replace)
            if replace:
                w.set_tag("Result", str(w.tricks))
    if _method(b, options).is_rubber:
        _fill_rubber(w, replace)
        return
    computed = w.computed
    if computed is None:
        return
    text = _score_text(computed, options)
    written = b.tag("Score")
    if written is None or written.strip() in MISSING:
        w.set_tag("Score", text)
        return
    given = _score_tag(b)
    if given is None or given.artificial:
        return
    ns = given.points_for(Side.NS, w.declarer)
    ew = given.points_for(Side.EW, w.declarer)
    if (ns is not None and ns != computed) or (ew is not None and ew != -computed):
        _disagree(w, "score-mismatch", "Score", written, text, replace)
        if replace:
            w.set_tag("Score", text)


def _fill_rubber(w: _Work, replace: bool) -> None:
    """ScoreRubber from the deal and the ScoreRubberHistory it starts from."""
    b = w.board
    history = b.tag("ScoreRubberHistory")
    if history is None or history.strip() in MISSING or w.contract is None:
        return
    try:
        state = RubberState.parse(history)
    except ValueError:
        return  # the tag's syntax is the reader's finding
    if w.contract.passed_out:
        score = DealScore()
    elif w.declarer is None or w.tricks is None:
        return
    else:
        score, _ = score_deal(w.contract, w.declarer, w.tricks, state, deal=b.deal)
    text = score.text()
    written = b.tag("ScoreRubber")
    if written is None or written.strip() in MISSING:
        w.set_tag("ScoreRubber", text)
        return
    try:
        given = parse_score_rubber(written, w.declarer)
    except ValueError:
        return
    ours = {Side.NS: (score.ns_above, score.ns_below), Side.EW: (score.ew_above, score.ew_below)}
    if any(ours[side] != value for side, value in given.items()):
        _disagree(w, "score-mismatch", "ScoreRubber", written, text, replace)
        if replace:
            w.set_tag("ScoreRubber", text)


def _same_declarer(board: Board, declarer: Seat) -> bool:
    """The Declarer tag names ``declarer`` (or, as PBN ``^S``, the partner who played)."""
    if board.declarer is declarer:
        return True
    return board.declarer_swapped and board.declarer is declarer.partner


def _score_text(ns: int, options: ScoreSettings) -> str:
    if options.score_form == "ns" or ns >= 0:
        return f"NS {ns}"
    return f"EW {-ns}"


# -- several results of a deal ----------------------------------------------------------


def _close(written: Decimal, ours: float) -> bool:
    """Equal to the precision written (78.69 stands for 78.685 .. 78.695)."""
    exponent = written.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return bool(abs(float(written) - ours) <= 0.5 * 10.0**-places + 1e-9)


def _sided_text(ns: float, ew: float, places: int) -> str:
    return f"NS {format_number(ns, places)} EW {format_number(ew, places)}"


def _rank(totals: list[tuple[str, float]]) -> list[int]:
    """Best rank when tied, for values sorted best first."""
    ranks: list[int] = []
    for i, (_, value) in enumerate(totals):
        ranks.append(ranks[-1] if i and value == totals[i - 1][1] else i + 1)
    return ranks


@dataclass
class _PairTotals:
    names: str | None = None
    boards: int = 0
    points: float = 0.0
    top: float = 0.0


class _Tournament:
    """Groups the records of a file into deals, then matches or pair events, and scores them."""

    def __init__(self, work: list[_Work], replace: bool, options: ScoreSettings) -> None:
        self.work = work
        self.replace = replace
        self.options = options

    def run(self) -> None:
        events: dict[str, list[list[int]]] = defaultdict(list)
        for key, members in self._deals().items():
            events[key[0]].append(members)
        for deals in events.values():
            self._event(deals)

    def _deals(self) -> dict[tuple[str, str, str], list[int]]:
        """Records of one deal: same Event, Board number and cards (in file order)."""
        deals: dict[tuple[str, str, str], list[int]] = {}
        for i, w in enumerate(self.work):
            b = w.board
            if _method(b, self.options).is_rubber:
                continue
            number = b.board_number
            if number is None:
                if self._traveller(i) is None:
                    continue
                number = f"#{i}"  # a traveller of a board with no number: a deal of its own
            deal = b.deal.pbn(Seat.N) if b.deal is not None else ""
            deals.setdefault((b.tag("Event") or "", number, deal), []).append(i)
        return deals

    # -- classification
    def _event(self, deals: list[list[int]]) -> None:
        matches: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
        pair_deals: list[list[int]] = []
        for members in deals:
            paired = self._team_pairs(members)
            if paired is not None:
                for key, pair in paired:
                    matches[key].append(pair)
                self._team_traveller(members, paired)
            elif len(members) > 1 or any(self._traveller(i) for i in members):
                pair_deals.append(members)
        if pair_deals:
            self._pairs_event(pair_deals)
        if matches:
            self._team_matches(matches, deals)

    def _traveller(self, index: int) -> Table | None:
        t = self.work[index].board.table("ScoreTable")
        if t is None or not t.rows:
            return None
        names = {c.name for c in t.columns}
        return t if names & {"Contract", "Score_NS", "Score_EW"} else None

    def _team_pairs(
        self, members: list[int]
    ) -> list[tuple[tuple[str, ...], tuple[int, int]]] | None:
        """Rooms of one match paired up: by team names, else by Open/Closed rooms."""
        boards = [self.work[i].board for i in members]
        teams = [(b.tag("HomeTeam") or "", b.tag("VisitTeam") or "") for b in boards]
        if all(h.strip() and v.strip() for h, v in teams) and len(members) >= 2:
            by_match: dict[tuple[str, ...], list[int]] = defaultdict(list)
            for i, (h, v) in zip(members, teams, strict=True):
                by_match[tuple(sorted((h.strip(), v.strip())))].append(i)
            # A match with one room only (a board not played at the other table) stays
            # unscored; a name met in more than two records cannot be paired.
            return [
                (key, self._open_first(rooms[0], rooms[1]))
                for key, rooms in by_match.items()
                if len(rooms) == 2
            ]
        rooms = [(b.room or "").strip().lower() for b in boards]
        if sorted(rooms) == ["closed", "open"]:
            first = members[rooms.index("open")]
            second = members[rooms.index("closed")]
            return [(("rooms",), (first, second))]
        method = _method(boards[0], self.options)
        if (
            len(members) == 2
            and method.base == "IMP"
            and not method.modifiers
            and not any(self._traveller(i) for i in members)
        ):
            return [(("rooms",), (members[0], members[1]))]
        return None

    def _open_first(self, a: int, b: int) -> tuple[int, int]:
        """The Open room first (its N-S is the home team, in LIN as in PBN), else file order."""
        room_b = (self.work[b].board.room or "").strip().lower()
        return (b, a) if room_b == "open" else (a, b)

    # -- teams
    def _team_imps(self, pair: tuple[int, int]) -> int | None:
        a, b = (self.work[i].ns for i in pair)
        if a is None or b is None:
            return None
        return imps(a - b, rounding=self.options.imp_rounding)

    def _team_traveller(
        self, members: list[int], paired: list[tuple[tuple[str, ...], tuple[int, int]]]
    ) -> None:
        rows: list[list[str]] = []
        for _, pair in paired:
            gained = self._team_imps(pair)
            for k, i in enumerate(pair):
                w = self.work[i]
                if gained is not None:
                    x = gained if k == 0 else -gained
                    self._put_sided(w, "ScoreIMP", float(x), float(-x))
                rows.append(
                    self._row(
                        w, ["Room"], None if gained is None else (gained if k == 0 else -gained)
                    )
                )
        if self.options.tables and len(members) > 1:
            first = self.work[members[0]]
            if first.board.table("ScoreTable") is None:
                columns = [
                    "Room",
                    "Contract",
                    "Declarer",
                    "Result",
                    "Score_NS",
                    "Score_EW",
                    "IMP_NS",
                    "IMP_EW",
                ]
                first.set_table(make_table("ScoreTable", columns, rows))

    def _row(self, w: _Work, extra: list[str], team_imps: int | None) -> list[str]:
        b = w.board
        row = []
        for name in extra:
            if name == "Room":
                row.append(element(b.room or b.tag("Table") or "-"))
        row.append(w.contract.text if w.contract is not None else "?")
        row.append(w.declarer.value if w.declarer is not None else "-")
        row.append(str(w.tricks) if w.tricks is not None else "-")
        row.extend(_score_cells(w.ns))
        if team_imps is not None:
            row.extend([str(team_imps), str(-team_imps)])
        elif extra == ["Room"]:
            row.extend(["?", "?"])
        return row

    def _team_matches(
        self, matches: dict[tuple[str, ...], list[tuple[int, int]]], deals: list[list[int]]
    ) -> None:
        event_totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for key, pairs in matches.items():
            first = self.work[pairs[0][0]].board
            home = (first.tag("HomeTeam") or "").strip()
            visit = (first.tag("VisitTeam") or "").strip()
            if key == ("rooms",):
                home = home or "Open N-S"
                visit = visit or "Open E-W"
            scored = [(p, self._team_imps(p)) for p in pairs]
            n_boards = sum(1 for _, x in scored if x is not None)
            total_home = total_visit = 0.0
            played = 0
            for pair, gained in scored:
                if gained is None:
                    continue
                a = self.work[pair[0]].board
                sits_ns = (a.tag("HomeTeam") or "").strip() in ("", home)
                mine = gained if sits_ns else -gained
                total_home += max(mine, 0)
                total_visit += max(-mine, 0)
                played += 1
                if self.options.tables:
                    table = self._match_table(
                        [(home, total_home), (visit, total_visit)], played, n_boards
                    )
                    self.work[pair[1]].set_table(table)
            vp_home, vp_visit = self._vps(total_home - total_visit, n_boards)
            for team, got, vp in ((home, total_home, vp_home), (visit, total_visit, vp_visit)):
                event_totals[team][0] += n_boards
                event_totals[team][1] += got
                event_totals[team][2] += vp
        if len(matches) > 1 and self.options.tables:
            last = self.work[max(i for members in deals for i in members)]
            ordered = sorted(event_totals.items(), key=lambda kv: (-kv[1][2], -kv[1][1]))
            ranks = _rank([(k, v[2]) for k, v in ordered])
            columns = ["Rank", "Names", "NrBoards", "TotalIMP"]
            if self.options.vp:
                columns.append("VP")
            rows = []
            for rank, (team, (n, got, vp)) in zip(ranks, ordered, strict=True):
                row = [str(rank), element(team), str(int(n)), format_number(got, 2)]
                if self.options.vp:
                    row.append(format_number(vp, 2))
                rows.append(row)
            self._put_total(last, make_table("TotalScoreTable", columns, rows))

    def _vps(self, margin: float, boards: int) -> tuple[float, float]:
        if boards < 1:
            return 10.0, 10.0
        winner, loser = victory_points(margin, boards)
        return (winner, loser) if margin >= 0 else (loser, winner)

    def _match_table(self, teams: list[tuple[str, float]], played: int, boards: int) -> Table:
        """Running totals after ``played`` boards; VPs as if the match ended there."""
        (home, a), (visit, b) = teams
        vp_a, vp_b = self._vps(a - b, boards)
        ordered = sorted([(home, a, vp_a), (visit, b, vp_b)], key=lambda t: -t[1])
        ranks = _rank([(t[0], float(t[1])) for t in ordered])
        columns = ["Rank", "Names", "NrBoards", "TotalIMP"]
        if self.options.vp:
            columns.append("VP")
        rows = []
        for rank, (team, got, vp) in zip(ranks, ordered, strict=True):
            row = [str(rank), element(team), str(played), format_number(got, 2)]
            if self.options.vp:
                row.append(format_number(vp, 2))
            rows.append(row)
        return make_table("TotalScoreTable", columns, rows)

    # -- pairs
    def _pairs_event(self, deals: list[list[int]]) -> None:
        """Matchpoints or IMP pairs for every deal, and the event's standings."""
        groups: list[tuple[list[int], list[Entry], int | None]] = []
        for members in deals:
            table_at = next((i for i in members if self._traveller(i)), None)
            if table_at is not None and len(members) == 1:
                entries = self._table_entries(table_at)
            else:
                table_at = None
                entries = [self._record_entry(i) for i in members]
            groups.append((members, entries, table_at))
        expected = self.options.expected_results
        if expected is None:
            expected = max(
                (self._field(es) for _, entries, _ in groups for es in self._sections(entries)),
                default=0,
            )
        mitchell = any(
            e.pair_ns is not None and e.pair_ns == e.pair_ew
            for _, entries, _ in groups
            for e in entries
        )
        totals: dict[str, _PairTotals] = {}
        method = _method(self.work[deals[0][0]].board, self.options)
        for members, entries, table_at in groups:
            for section in self._sections(entries):
                self._score_deal(section, method, expected)
            if table_at is not None:
                self._write_table(table_at, entries, method)
                own = self._own_row(table_at, entries)
                if own is not None:
                    self._write_record(own, method)
            else:
                for e in entries:
                    self._write_record(e, method)
                self._record_traveller(members, entries, method)
            for e in entries:
                self._add_totals(totals, e, method, mitchell)
        if self.options.tables and totals:
            last = max(i for members in deals for i in members)
            self._put_total(self.work[last], self._standings(totals, method))

    def _own_row(self, index: int, entries: list[Entry]) -> Entry | None:
        """The traveller row of the record carrying it, found by its PairNS and PairEW."""
        b = self.work[index].board
        ns, ew = _clean(b.tag("PairNS")), _clean(b.tag("PairEW"))
        if ns is None or ew is None:
            return None
        rows = [e for e in entries if e.pair_ns == ns and e.pair_ew == ew]
        return rows[0] if len(rows) == 1 else None

    def _sections(self, entries: list[Entry]) -> list[list[Entry]]:
        if not self.options.by_section:
            return [entries]
        by: dict[str | None, list[Entry]] = defaultdict(list)
        for e in entries:
            by[e.section].append(e)
        return list(by.values())

    @staticmethod
    def _field(entries: list[Entry]) -> int:
        return sum(e.multiplicity for e in entries if e.scored)

    def _record_entry(self, index: int) -> Entry:
        w = self.work[index]
        b = w.board
        names_ns = _names(b.tag("North"), b.tag("South"))
        names_ew = _names(b.tag("East"), b.tag("West"))
        return Entry(
            ns=w.ns,
            board=index,
            pair_ns=_clean(b.tag("PairNS")),
            pair_ew=_clean(b.tag("PairEW")),
            names_ns=names_ns,
            names_ew=names_ew,
            contract=w.contract,
            declarer=w.declarer,
            tricks=w.tricks,
        )

    def _table_entries(self, index: int) -> list[Entry]:
        w = self.work[index]
        table = w.board.table("ScoreTable")
        assert table is not None
        entries = entries_from_table(table, index, w.board.vulnerable, self.options.adjusted)
        updates: dict[tuple[int, str], str] = {}
        names = {c.name for c in table.columns}
        for e in entries:
            assert e.row is not None
            computed = ns_points(e.contract, e.declarer, e.tricks, w.board.vulnerable)
            if computed is None:
                continue
            if e.written_ns is None:
                updates.update(self._score_updates(e.row, computed, names))
            elif e.written_ns != computed:
                action = "replaced" if self.replace else "kept"
                w.diagnostics.append(
                    error(
                        "score-mismatch",
                        f"ScoreTable row {e.row + 1}: {e.contract} by "
                        f"{e.declarer.value if e.declarer else '?'} taking {e.tricks} tricks "
                        f"scores {_score_text(computed, self.options)}, not "
                        f"{_score_text(e.written_ns, self.options)}; {action}",
                        law="77",
                        line=table.line,
                        column=table.column,
                        board=w.board.board_number,
                    )
                )
                if self.replace:
                    updates.update(self._score_updates(e.row, computed, names))
        if updates:
            w.set_table(set_cells(table, updates))
        return entries

    @staticmethod
    def _score_updates(row: int, ns: int, names: set[str]) -> dict[tuple[int, str], str]:
        if "Score_NS" in names and "Score_EW" in names:
            cells = _score_cells(ns)
            return {(row, "Score_NS"): cells[0], (row, "Score_EW"): cells[1]}
        if "Score_EW" in names:
            return {(row, "Score_EW"): str(-ns)}
        return {(row, "Score_NS"): str(ns)}

    def _score_deal(self, entries: list[Entry], method: ScoringMethod, expected: int) -> None:
        """Fill ``results`` of each entry: mp_ns, mp_ew, pct_ns, pct_ew, top, or imp_ns."""
        scored = [e for e in entries if e.scored]
        if not scored:
            return
        expanded: list[float | Adjusted] = []
        owner: list[int] = []
        for k, e in enumerate(scored):
            for _ in range(e.multiplicity):
                expanded.append(e.adjusted if e.adjusted is not None else float(e.ns or 0))
                owner.append(k)
        first = {k: owner.index(k) for k in range(len(scored))}
        if self._is_imps(method):
            values = self._imp_values(expanded, method)
            for k, e in enumerate(scored):
                e.results["imp_ns"] = values[first[k]]
            return
        units: Units = "1" if method.has("MP2") else self.options.units
        field_size = max(expected, len(expanded))
        board = score_board(expanded, expected=field_size, units=units)
        for k, e in enumerate(scored):
            j = first[k]
            e.results.update(
                mp_ns=board.ns[j],
                mp_ew=board.ew[j],
                pct_ns=percentage(board.ns[j], board.top),
                pct_ew=percentage(board.ew[j], board.top),
                top=board.top,
            )

    def _is_imps(self, method: ScoringMethod) -> bool:
        return method.is_imps

    def _imp_values(self, expanded: list[float | Adjusted], method: ScoringMethod) -> list[float]:
        """Butler or cross-IMPs over the real results; artificial ones get +3/0/-3."""
        real = [x for x in expanded if not isinstance(x, Adjusted)]
        name = next(
            (
                m
                for m in method.modifiers
                if m in ("Butler", "Butler-2", "Cross", "Cross1", "Cross2")
            ),
            self.options.pairs_imps,
        )
        o = self.options
        if not real:
            got: list[float] = []
        elif name.startswith("Cross"):
            divide: CrossDivide = _CROSS.get(name, o.cross_divide)
            got = cross_imps(real, divide=divide, rounding=o.imp_rounding)
        else:
            discard = 0 if name == "Butler" else o.discard
            average: Average = "median" if method.has("Median") else o.average
            got = [
                float(x)
                for x in butler(
                    real,
                    discard=discard,
                    average=average,
                    round_datum=o.round_datum,
                    half=o.half,
                    rounding=o.imp_rounding,
                )
            ]
        out: list[float] = []
        it = iter(got)
        for x in expanded:
            if isinstance(x, Adjusted):
                out.append(
                    o.adjusted.imps_plus
                    if x.ns > 50
                    else o.adjusted.imps_minus
                    if x.ns < 50
                    else o.adjusted.imps_average
                )
            else:
                out.append(next(it, 0.0))
        return out

    def _put_sided(self, w: _Work, tag: str, ns: float, ew: float) -> None:
        """Write ``tag`` as ``NS a EW b``, or report an existing value that disagrees."""
        text = _sided_text(ns, ew, self.options.places)
        written = w.board.tag(tag)
        if written is None or written.strip() in MISSING:
            w.set_tag(tag, text)
            return
        try:
            given = SidedValue.parse(written)
        except ValueError:
            given = None
        if given is not None and given.artificial:
            return
        ok = given is not None
        if given is not None:
            for side, ours in ((Side.NS, ns), (Side.EW, ew)):
                value = given.given_for(side, w.declarer)
                if value is not None and not _close(value, ours):
                    ok = False
        if not ok:
            _disagree(w, "score-mismatch", tag, written, text, self.replace)
            if self.replace:
                w.set_tag(tag, text)

    def _write_record(self, e: Entry, method: ScoringMethod) -> None:
        w = self.work[e.board]
        r = e.results
        if "imp_ns" in r:
            self._put_sided(w, "ScoreIMP", r["imp_ns"], -r["imp_ns"])
        elif "mp_ns" in r:
            self._put_sided(w, "ScoreMP", r["mp_ns"], r["mp_ew"])
            self._put_sided(w, "ScorePercentage", r["pct_ns"], r["pct_ew"])

    def _result_columns(self, method: ScoringMethod) -> list[str]:
        if self._is_imps(method):
            return ["IMP_NS", "IMP_EW"]
        return ["MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW"]

    def _result_cells(self, e: Entry, columns: list[str]) -> dict[str, str]:
        r = e.results
        p = self.options.places
        values = {
            "IMP_NS": r.get("imp_ns"),
            "IMP_EW": -r["imp_ns"] if "imp_ns" in r else None,
            "MP_NS": r.get("mp_ns"),
            "MP_EW": r.get("mp_ew"),
            "Percentage_NS": r.get("pct_ns"),
            "Percentage_EW": r.get("pct_ew"),
        }
        return {
            c: format_number(v, p) if v is not None else "-"
            for c, v in values.items()
            if c in columns
        }

    def _record_traveller(
        self, members: list[int], entries: list[Entry], method: ScoringMethod
    ) -> None:
        if not self.options.tables or len(members) < 2:
            return
        first = self.work[members[0]]
        if first.board.table("ScoreTable") is not None:
            return
        ids = any(e.pair_ns or e.pair_ew for e in entries)
        names = any(e.names_ns or e.names_ew for e in entries)
        columns = (["PairId_NS", "PairId_EW"] if ids else []) + (
            ["Names_NS", "Names_EW"] if names else []
        )
        columns += ["Contract", "Declarer", "Result", "Score_NS", "Score_EW"]
        results = self._result_columns(method)
        rows = []
        for e in entries:
            w = self.work[e.board]
            row = []
            if ids:
                row += [element(e.pair_ns or "-"), element(e.pair_ew or "-")]
            if names:
                row += [element(e.names_ns or "-"), element(e.names_ew or "-")]
            row += self._row(w, [], None)
            cells = self._result_cells(e, results)
            row += [cells[c] for c in results]
            rows.append(row)
        first.set_table(make_table("ScoreTable", columns + results, rows))

    def _write_table(self, index: int, entries: list[Entry], method: ScoringMethod) -> None:
        """Fill the result columns of a traveller (adding them when it has none)."""
        w = self.work[index]
        table = w.board.table("ScoreTable")
        assert table is not None
        present = [c.name for c in table.columns]
        wanted: list[str] = [c for c in _RESULT_COLUMNS if c in present]
        if not wanted:
            wanted = self._result_columns(method)
        records = table.records()
        updates: dict[tuple[int, str], str] = {}
        wrong: list[str] = []
        for e in entries:
            assert e.row is not None
            cells = self._result_cells(e, wanted)
            for c in wanted:
                ours = cells.get(c, "-")
                if ours == "-":
                    continue
                written = records[e.row].get(c) if e.row < len(records) else None
                number = cell_number(written)
                if written is None or written.strip() in MISSING:
                    updates[(e.row, c)] = ours
                elif number is not None and not _close(number, float(ours)):
                    wrong.append(f"row {e.row + 1} {c} {written} (ours {ours})")
                    if self.replace:
                        updates[(e.row, c)] = ours
        if wrong:
            action = "replaced" if self.replace else "kept"
            w.diagnostics.append(
                error(
                    "score-mismatch",
                    f"ScoreTable disagrees with the computed scores: {', '.join(wrong[:5])}"
                    f"{' ...' if len(wrong) > 5 else ''}; {action}",
                    line=table.line,
                    column=table.column,
                    board=w.board.board_number,
                )
            )
        if updates:
            current = w.board.table("ScoreTable")
            assert current is not None
            w.set_table(set_cells(current, updates))

    def _add_totals(
        self, totals: dict[str, _PairTotals], e: Entry, method: ScoringMethod, mitchell: bool
    ) -> None:
        r = e.results
        if not r:
            return
        for side, pair, names in (("ns", e.pair_ns, e.names_ns), ("ew", e.pair_ew, e.names_ew)):
            key = pair if pair is not None else names
            if key is None:
                continue
            if e.section and pair is not None:
                key = f"{e.section}{pair}"
            if mitchell and pair is not None:
                key = f"{key}-{side.upper()}"
            t = totals.setdefault(key, _PairTotals(names=names))
            t.boards += 1
            if "imp_ns" in r:
                t.points += r["imp_ns"] if side == "ns" else -r["imp_ns"]
            else:
                t.points += r[f"mp_{side}"]
                t.top += r["top"]

    def _standings(self, totals: dict[str, _PairTotals], method: ScoringMethod) -> Table:
        imps_event = self._is_imps(method)
        ordered = sorted(totals.items(), key=lambda kv: -self._total_value(kv[1], imps_event))
        ranks = _rank([(k, self._total_value(v, imps_event)) for k, v in ordered])
        p = self.options.places
        if imps_event:
            columns = ["Rank", "PairId", "Names", "NrBoards", "TotalIMP", "MeanIMP"]
        else:
            columns = ["Rank", "PairId", "Names", "NrBoards", "TotalMP", "TotalPercentage"]
        rows = []
        for rank, (key, t) in zip(ranks, ordered, strict=True):
            row = [
                str(rank),
                element(key),
                element(t.names or "-"),
                str(t.boards),
                format_number(t.points, p),
            ]
            if imps_event:
                row.append(format_number(t.points / t.boards if t.boards else 0, p))
            else:
                row.append(format_number(100 * t.points / t.top if t.top else 50.0, p))
            rows.append(row)
        return make_table("TotalScoreTable", columns, rows)

    @staticmethod
    def _total_value(t: _PairTotals, imps_event: bool) -> float:
        if imps_event:
            return t.points
        return t.points / t.top if t.top else 0.5

    def _put_total(self, w: _Work, table: Table) -> None:
        """Write a TotalScoreTable unless the file gave the board one (kept unless replace).

        The event's standings take the place of a match's running total written here
        on the same board (the standings include that match)."""
        existing = w.board.table("TotalScoreTable")
        if existing is not None and "TotalScoreTable" not in w.ours:
            self._compare_totals(w, existing, table)
        if existing is None or self.replace or "TotalScoreTable" in w.ours:
            w.set_table(table)

    def _compare_totals(self, w: _Work, theirs: Table, ours: Table) -> None:
        """Report standings the file gives that disagree with ours (matched by PairId/Names)."""
        key = next((k for k in ("PairId", "Names") if theirs.column_index(k) is not None), None)
        if key is None or ours.column_index(key) is None:
            return
        mine = {r[key]: r for r in ours.records()}
        wrong: list[str] = []
        for row in theirs.records():
            other = mine.get(row.get(key, ""))
            if other is None:
                continue
            for column, value in other.items():
                if column in ("Rank", "Names", key) or column not in row:
                    continue
                written = cell_number(row[column])
                if written is not None and not _close(written, float(value)):
                    wrong.append(f"{row[key]} {column} {row[column]} (ours {value})")
        if wrong:
            action = "replaced" if self.replace else "kept"
            w.diagnostics.append(
                error(
                    "score-mismatch",
                    f"TotalScoreTable disagrees with the computed standings: "
                    f"{', '.join(wrong[:5])}{' ...' if len(wrong) > 5 else ''}; {action}",
                    line=theirs.line,
                    column=theirs.column,
                    board=w.board.board_number,
                )
            )


_CROSS: dict[str, CrossDivide] = {"Cross": "none", "Cross1": "scores", "Cross2": "comparisons"}
_RESULT_COLUMNS = ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "IMP_NS", "IMP_EW")


def _score_cells(ns: int | None) -> list[str]:
    """Score_NS and Score_EW: the side that scored gets the points, the other ``-``."""
    if ns is None:
        return ["?", "?"]
    return [str(ns), "-"] if ns >= 0 else ["-", str(-ns)]


def _clean(value: str | None) -> str | None:
    return None if value is None or value.strip() in MISSING else value.strip()


def _names(a: str | None, b: str | None) -> str | None:
    x, y = _clean(a), _clean(b)
    if x is None and y is None:
        return None
    return f"{x or '?'};{y or '?'}"
