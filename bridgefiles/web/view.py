"""What the report page shows of a board: diagram, auction, play and findings, as plain values.

Built in a worker process from a board and its validation report, and sent back to the
server (so everything here pickles). Nothing here is HTML: the templates escape every text,
since names, notes and commentary come from an untrusted file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bridgefiles.model.auction import EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Call, CallKind
from bridgefiles.model.cards import Strain, Suit
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.play import PlayedCard, Slot
from bridgefiles.model.seats import Seat
from bridgefiles.web.findings import Finding, page_findings
from bridgefiles.web.results import Results, ResultTable

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)  # the play grid's columns, on every board
MAX_AUCTION_ROWS = 40  # rounds of an auction drawn (a hostile file may hold thousands)
MAX_PLAY_ROWS = 20  # tricks drawn (13, and a few a faulty file adds)
AUCTION_COLUMNS = (Seat.W, Seat.N, Seat.E, Seat.S)
SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Cell:
    """A call or a card: its text, a suit for colour, whether a finding points at it."""

    text: str
    suit: str | None = None
    marked: bool = False
    note: str | None = None  # an alert's explanation or a note's text, shown on hover and below
    led: bool = False  # the card that led its trick
    won: bool = False  # the card that won its trick


@dataclass(frozen=True)
class Hand:
    seat: str
    player: str | None
    suits: tuple[tuple[str, str], ...]  # (suit letter, ranks), spades first


@dataclass(frozen=True)
class BoardView:
    index: int
    label: str
    event: str | None
    site: str | None
    number: str | None
    room: str | None
    dealer: str | None
    vulnerable: str | None
    contract: str | None
    declarer: str | None
    result: str | None
    score: str | None
    hands: tuple[Hand, ...]  # N, E, S, W; empty when the file has no deal
    auction: tuple[tuple[Cell | None, ...], ...]  # rows of W N E S
    play_seats: tuple[str, ...]  # column heads: N E S W
    play: tuple[tuple[Cell | None, ...], ...]  # one row a trick
    notes: tuple[str, ...]
    commentary: tuple[str, ...]
    findings: tuple[Finding, ...]
    more_findings: int = 0  # findings of this board not listed (the JSON report has them)
    more_calls: int = 0  # calls not drawn
    more_tricks: int = 0  # tricks not drawn
    tricks: tuple[tuple[str | None, str | None], ...] = ()  # (leader, winner) of each row
    scores: tuple[tuple[str, str], ...] = ()  # this table's score, MP, %, IMP (scored)
    traveller: ResultTable | None = None  # every table's result on this deal

    @property
    def severities(self) -> tuple[str, ...]:
        return tuple(s for s in SEVERITIES if any(f.severity == s for f in self.findings))

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(sorted({f.code for f in self.findings}))


@dataclass
class ReportView:
    """The page: file name, format, the summary, file findings and the boards with findings."""

    name: str
    format: str
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    file_findings: list[Finding] = field(default_factory=list)
    shown: list[BoardView] = field(default_factory=list)
    not_shown: int = 0  # boards beyond the page's limit
    with_findings: int = 0  # boards with findings, shown or not
    standings: tuple[ResultTable, ...] = ()
    results_problem: str | None = None  # why the file could not be scored

    def count(self, diagnostics: Iterable[Diagnostic]) -> None:
        for d in diagnostics:
            if d.severity.value == "error":
                self.errors += 1
            elif d.severity.value == "warning":
                self.warnings += 1
            else:
                self.infos += 1

    @property
    def codes(self) -> tuple[str, ...]:
        every = {f.code for f in self.file_findings}
        every.update(c for b in self.shown for c in b.codes)
        return tuple(sorted(every))


def _call_cell(call: Call | None, marked: bool, note: str | None) -> Cell:
    if call is None:
        return Cell("?", marked=marked, note=note)
    if call.kind is CallKind.BID and call.strain is not None:
        strain = call.strain.value
        if strain == "NT":
            return Cell(f"{call.level}NT", None, marked, note)
        return Cell(str(call.level), strain, marked, note)
    return Cell(call.text, None, marked, note)


def _note_text(board: Board, index: int | None, in_play: bool) -> str | None:
    if index is None:
        return None
    source = board.play if in_play else board.auction
    note = source.note(index) if source is not None else None
    return note.text if note is not None else None


def _known(value: str | None) -> str | None:
    return value if value not in (None, "", "?", "#") else None


def board_view(board: Board, findings: Sequence[Diagnostic], score: str | None,
               results: Results | None = None) -> BoardView:
    """The board as the page draws it; calls and cards a finding points at are marked."""
    at = {(d.line, d.column) for d in findings if d.line is not None and d.column is not None}
    tricks_marked = {(d.trick, d.seat) for d in findings if d.trick is not None}
    deal = board.deal
    contract = board.contract
    hands: list[Hand] = []
    if deal is not None:
        for seat in SEATS:
            hand = deal.hand(seat)
            suits = tuple(
                (s.value, "".join(c.rank.char for c in hand.suit(s)) if hand is not None else "")
                for s in SUITS
            )
            hands.append(Hand(seat.value, board.player(seat), suits))
    auction_rows: list[list[Cell | None]] = []
    notes: list[str] = []
    more_calls = 0
    if board.auction is not None:
        auction = board.auction
        row: list[Cell | None] = [None] * AUCTION_COLUMNS.index(auction.first)
        for drawn, entry in enumerate(auction.entries):
            if len(auction_rows) >= MAX_AUCTION_ROWS:
                more_calls = len(auction.entries) - drawn
                break
            ann = entry.annotations
            note = ann.explanation or _note_text(board, ann.note, in_play=False)
            marked = auction.where(drawn) in at
            if entry.kind is EntryKind.CALL:
                cell: Cell | None = _call_cell(entry.call, marked, note)
            elif entry.kind is EntryKind.SKIP:
                cell = Cell("—", marked=marked)
            else:
                cell = None
            row.append(cell)
            if len(row) == 4:
                auction_rows.append(row)
                row = []
        if row:
            auction_rows.append(row + [None] * (4 - len(row)))
        notes.extend(f"{n.index}: {n.text}" for n in auction.notes)
    play_seats: tuple[str, ...] = ()
    play_rows: list[tuple[Cell | None, ...]] = []
    tricks: list[tuple[str | None, str | None]] = []
    more_tricks = 0
    if board.play is not None:
        play_seats = tuple(s.value for s in SEATS)
        recorded = board.play.tricks()
        more_tricks = max(0, len(recorded) - MAX_PLAY_ROWS)
        leader: Seat | None = board.play.first
        strain = contract.strain if contract is not None else None
        for n, trick in enumerate(recorded[:MAX_PLAY_ROWS], start=1):
            winner = _winner(trick, leader, strain)
            tricks.append((leader.value if leader else None, winner.value if winner else None))
            cells: list[Cell | None] = []
            for seat in SEATS:
                slot = trick.get(seat)
                if slot is None or slot.slot is not Slot.CARD or slot.card is None:
                    cells.append(None if slot is None else Cell(slot.slot.value))
                    continue
                place = board.play.where(4 * (n - 1) + board.play.first.distance(seat))
                marked = place in at or (n, seat) in tricks_marked
                note = slot.annotations.explanation or _note_text(
                    board, slot.annotations.note, in_play=True
                )
                cells.append(Cell(slot.card.rank.char, slot.card.suit.value, marked, note,
                                  led=seat is leader, won=seat is winner))
            play_rows.append(tuple(cells))
            leader = winner  # unknown once a trick is not whole
        notes.extend(f"{n.index}: {n.text}" for n in board.play.notes)
    commentary = [c.text for c in board.comments]
    for tag in board.tags:
        commentary.extend(c.text for c in tag.comments)
    for section in (board.auction, board.play):
        if section is not None:
            commentary.extend(c.text for c in section.comments)
            for kept in section.notes:
                commentary.extend(c.text for c in kept.comments)
    if board.auction is not None:
        for entry in board.auction.entries:
            commentary.extend(c.text for c in entry.annotations.comments)
    if board.play is not None:
        for slot in board.play.slots:
            commentary.extend(c.text for c in slot.annotations.comments)
    shown, more_findings = page_findings(board, findings)
    index = board.index
    return BoardView(
        index=board.index,
        label=board.label,
        event=_known(board.tag("Event")),
        site=_known(board.tag("Site")),
        number=board.board_number,
        room=board.room,
        dealer=board.dealer.value if board.dealer is not None else None,
        vulnerable=board.vulnerable.value if board.vulnerable is not None else None,
        contract=contract.text if contract is not None else None,
        declarer=board.declarer.value if board.declarer is not None else None,
        result=board.tag("Result"),
        score=score,
        hands=tuple(hands),
        auction=tuple(tuple(r) for r in auction_rows),
        play_seats=play_seats,
        play=tuple(play_rows),
        notes=tuple(notes),
        commentary=tuple(commentary),
        findings=shown,
        more_findings=more_findings,
        more_calls=more_calls,
        more_tricks=more_tricks,
        tricks=tuple(tricks),
        scores=results.scores.get(index, ()) if results is not None else (),
        traveller=results.travellers.get(index) if results is not None else None,
    )


def _winner(trick: dict[Seat, PlayedCard], leader: Seat | None,
            strain: Strain | None) -> Seat | None:
    """Who won a whole trick of cards led by ``leader`` (Law 44, the model's one rule)."""
    if leader is None or strain is None:
        return None
    cards = []
    for k in range(4):
        slot = trick.get(leader.offset(k))
        if slot is None or slot.slot is not Slot.CARD or slot.card is None:
            return None
        cards.append(slot.card)
    return trick_winner(leader, cards, strain)
