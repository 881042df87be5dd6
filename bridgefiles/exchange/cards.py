"""What the dealing-machine formats (BRI, DGE, DUP, DLM) share.

Duplimate's numbering: card 1 is the spade ace, 13 the spade two, 14 the heart ace ...
52 the club two (the order a PBN hand is written in); owners 0-3 are N, E, S, W. A
deal is then the owner of each of the 52 cards. These files hold nothing but deals in
order, so a board read from one has its number from its place (or the file's own
numbering) and Law 2's dealer and vulnerability for that number; everything else a
board may hold is a ``lost-in-conversion`` finding when it is written to one.

The binary layouts (BRI, DGE, DUP) have no line breaks: the decode layer hands them
over as one line, bounded by ``Limits.max_board_size`` (the formats' ``line_limit``),
and :func:`records` cuts it into fixed-size records as it streams.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.convert import LOST
from bridgefiles.formats.registry import (
    BoardReader,
    BoardWriter,
    FileInfo,
    Format,
    ReadOptions,
    WriteOptions,
)
from bridgefiles.model.board import Board, TagPair
from bridgefiles.model.diagnostic import Diagnostic, Severity, error, warning
from bridgefiles.model.seats import ROTATION, Seat
from bridgefiles.scoring.board import board_dealer, board_vulnerability, parse_board_number

RANKS = "AKQJT98765432"
SUITS = "SHDC"
OWNERS: tuple[Seat, Seat, Seat, Seat] = ROTATION  # owner code 0-3: N, E, S, W
Owners = tuple[Seat, ...]  # the owner of cards 1..52, in that order
CARRIED = frozenset({"Board", "Dealer", "Vulnerable", "Deal"})
_DEAL_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")


def card_name(number: int) -> str:
    """``1`` -> ``SA``, ``52`` -> ``C2``."""
    suit, rank = divmod(number - 1, 13)
    return SUITS[suit] + RANKS[rank]


def deal_text(owners: Owners) -> str:
    """The PBN ``Deal`` value (``N:...``) of a whole deal given by its owners."""
    hands: dict[Seat, list[list[str]]] = {s: [[], [], [], []] for s in OWNERS}
    for number, seat in enumerate(owners, start=1):
        suit, rank = divmod(number - 1, 13)
        hands[seat][suit].append(RANKS[rank])
    return "N:" + " ".join(".".join("".join(s) for s in hands[seat]) for seat in OWNERS)


def owners_of(board: Board) -> Owners | None:
    """The owner of each card of the board's deal; None unless it is whole and sound."""
    deal = board.deal
    if deal is None or not deal.is_complete or deal.problems():
        return None
    owner: list[Seat | None] = [None] * 52
    for seat in OWNERS:
        hand = deal.hand(seat)
        assert hand is not None  # a complete deal has four hands
        for card in hand.cards:
            owner[51 - card.index] = seat  # card.index: 0 = club two .. 51 = spade ace
    return tuple(s for s in owner if s is not None)


def hands_of(owners: Owners) -> dict[Seat, list[int]]:
    """Each seat's card numbers, ascending (the order a machine file lists them)."""
    hands: dict[Seat, list[int]] = {s: [] for s in OWNERS}
    for number, seat in enumerate(owners, start=1):
        hands[seat].append(number)
    return hands


def owners_from_hands(hands: Sequence[Sequence[int]]) -> tuple[Owners | None, str | None]:
    """The owners of a deal given as up to four hands of card numbers (N, E, S[, W]);
    three hands leave the rest to West. The second value says what is wrong, if anything."""
    owner: list[Seat | None] = [None] * 52
    for seat, hand in zip(OWNERS, hands, strict=False):
        if len(hand) != 13:
            return None, f"{seat.full_name} holds {len(hand)} cards, not 13"
        for number in hand:
            if not 1 <= number <= 52:
                return None, f"card number {number:02d} is not 01-52"
            if owner[number - 1] is not None:
                return None, f"card {number:02d} ({card_name(number)}) is dealt twice"
            owner[number - 1] = seat
    if len(hands) == 3:
        owner = [s if s is not None else Seat.W for s in owner]
    return tuple(s for s in owner if s is not None), None


def dealt_board(
    fmt: str,
    number: int,
    owners: Owners | None,
    *,
    index: int,
    source: str | None,
    diagnostics: Sequence[Diagnostic] = (),
    line: int | None = None,
) -> Board:
    """A board of a dealing file: its number, Law 2's dealer and vulnerability, the deal."""
    values = [str(number), board_dealer(number).value, str(board_vulnerability(number))]
    if owners is not None:
        values.append(deal_text(owners))
    tags = tuple(TagPair(name=n, value=v) for n, v in zip(_DEAL_TAGS, values, strict=False))
    return Board(
        tags=tags,
        format=fmt,
        index=index,
        line=line,
        source=source,
        diagnostics=tuple(d.model_copy(update={"board": str(number)}) for d in diagnostics),
    )


def found(options: ReadOptions, diag: Diagnostic, into: list[Diagnostic]) -> None:
    """Collect a finding; in strict mode an error raises instead."""
    if options.strict and diag.severity is Severity.ERROR:
        raise StrictModeError(diag.format(options.path), diag)
    into.append(diag.model_copy(update={"path": options.path}))


def records(lines: Iterator[str], size: int) -> Iterator[tuple[int, str]]:
    """Fixed-size records of a file with no line structure, with their character offset;
    the last one may be short. Each character is copied once (a long line is cut where
    it stands, not shortened record by record), and at most one record waits."""
    pending = ""
    offset = 0
    for line in lines:
        at = 0
        if pending:
            at = size - len(pending)
            pending += line[:at]
            if len(pending) < size:
                continue
            yield offset, pending
            offset += size
        while at + size <= len(line):
            yield offset, line[at : at + size]
            at += size
            offset += size
        pending = line[at:]
    if pending:
        yield offset, pending


def number_of(board: Board) -> int | None:
    return parse_board_number(board.board_number)


class DealingAdapter:
    """Boards of one file made ready for a dealing-machine writer, with what they lose.

    A dealing file holds each board's deal once: the first board of each number is
    written (a later one with the same deal, another table's, is not; with another deal
    it is lost). ``by_place``: the file numbers boards by their place, so a number the
    place would not give back is lost; ``highest``: the last number the file can hold.
    The writer keeps the same rule (:func:`first_of_each_number`).
    """

    def __init__(self, fmt: str, *, by_place: bool = True, highest: int | None = None) -> None:
        self.fmt, self.by_place, self.highest = fmt, by_place, highest
        self.deals: dict[str, int] = {}  # board number -> hash of the deal written for it
        self.places = 0

    def __call__(self, board: Board) -> Board:
        lost = self.content_lost(board)
        owners = owners_of(board)
        key = board.board_number
        if key is not None and key in self.deals:
            if owners is not None and hash(owners) != self.deals[key]:
                lost.append(f"a second deal for board {key} (one deal a board is written)")
        elif owners is None:
            lost.append("a board with no whole, sound deal (the board is not written)")
        else:
            self.places += 1
            if key is not None:
                self.deals[key] = hash(owners)
            lost += self.number_lost(board, self.places)
        diags = [
            warning(LOST, f"{self.fmt.upper()} cannot carry " + what, line=board.line,
                    board=board.board_number)
            for what in lost
        ]
        return board.replace(diagnostics=(*board.diagnostics, *diags), format=self.fmt)

    def content_lost(self, board: Board) -> list[str]:
        """All but the deal and the number: what no dealing file holds."""
        lost: list[str] = []
        dropped = [t.name for t in board.tags if t.name not in CARRIED and t.value not in ("", "?")]
        if dropped:
            lost.append(f"the tags {', '.join(dropped)}")
        if board.auction is not None and board.auction.entries:
            lost.append("the auction")
        if board.play is not None and board.play.slots:
            lost.append("the play")
        for what, items in (("tables", board.tables), ("commentary", board.comments)):
            if items:
                lost.append(f"{what} ({len(items)})")
        others = [e for e in board.extras if e.format != self.fmt]
        if others:
            lost.append(f"{len(others)} item(s) kept from {others[0].format}")
        return lost

    def number_lost(self, board: Board, place: int) -> list[str]:
        """The number, dealer and vulnerability a board written ``place``-th reads back with."""
        lost: list[str] = []
        number = number_of(board)
        fmt = self.fmt.upper()
        if self.by_place and number != place:
            lost.append(f"board number {board.board_number or '?'} (read back as {place}: "
                        f"{fmt} numbers boards by their place)")
        elif number is None and board.board_number is not None:
            lost.append(f"board number {board.board_number} (read back as {place})")
        n = place if self.by_place else (number or place)
        if self.highest is not None and n > self.highest:
            lost.append(f"board {n}: {fmt} holds boards 1-{self.highest} (not written)")
        for name, law2 in (("Dealer", board_dealer(n).value),
                           ("Vulnerable", board_vulnerability(n))):
            value = board.tag(name)
            if value not in (None, "", "?") and _differs(name, board, law2):
                lost.append(f"{name} {value} (read back as {law2}, board {n}'s by Law 2)")
        return lost


def first_of_each_number(boards: Iterable[Board]) -> Iterator[tuple[Board, Owners]]:
    """The boards a dealing file holds: with a whole deal, the first of each number."""
    seen: set[str] = set()
    for board in boards:
        owners = owners_of(board)
        key = board.board_number
        if owners is None or (key is not None and key in seen):
            continue
        if key is not None:
            seen.add(key)
        yield board, owners


def _differs(name: str, board: Board, law2: object) -> bool:
    seen = board.dealer if name == "Dealer" else board.vulnerable
    return seen is None or seen != law2


Parse = Callable[[str], tuple[Owners | None, str | None]]
PAD = frozenset(" \x00")  # what padding bytes are


def machine_boards(
    lines: Iterator[str],
    options: ReadOptions,
    info: FileInfo,
    *,
    fmt: str,
    size: int,
    body: int,
    parse: Parse,
    shaped: Callable[[str], bool],
) -> Iterator[Board]:
    """The boards of a file of fixed-size records (BRI, DGE), numbered from 1: each
    record's first ``body`` bytes are its deal (``parse``), the rest padding. A first
    record not ``shaped`` like one says the input is no such file: nothing is read."""
    index = 0
    for offset, record in records(lines, size):
        if not record.strip(" \x00\r\n\x1a"):
            continue  # padding or a DOS end-of-file mark after the last deal
        if index == 0 and not first_record_fits(record, fmt, shaped, options, info):
            return
        diags: list[Diagnostic] = []
        owners, problem = parse(record)
        if problem is not None:
            found(options, error("deal", f"deal at byte offset {offset}: {problem}"), diags)
        elif not set(record[body:]) <= PAD:
            message = f"deal at byte offset {offset}: bytes after its {body} are not padding"
            found(options, warning("syntax", message + " (not read)"), diags)
        yield dealt_board(fmt, index + 1, owners, index=index, source=record, diagnostics=diags)
        index += 1
    if index == 0:
        found(options, error("syntax", f"no {fmt.upper()} deal in the input"), info.diagnostics)


def first_record_fits(
    record: str, fmt: str, shaped: Callable[[str], bool], options: ReadOptions, info: FileInfo
) -> bool:
    """Whether the first record is shaped like one of ``fmt`` (else a file-level error)."""
    if shaped(record):
        return True
    message = f"the input is not {fmt.upper()}: its first record is not shaped like a deal"
    found(options, error("syntax", message + " (nothing is read)"), info.diagnostics)
    return False


def machine_write(
    boards: Iterable[Board], options: WriteOptions, fmt: str, encode: Callable[[Owners], str]
) -> Iterator[str]:
    """A record a board (``encode``); a board with no whole deal is left out (its
    conversion finding says so). ``layout="preserve"`` gives a record back as read."""
    for board, owners in first_of_each_number(boards):
        if options.layout == "preserve" and board.format == fmt and board.source is not None:
            yield board.source
        else:
            yield encode(owners)


def machine_format(
    name: str, read: BoardReader, write: BoardWriter, sniff: Callable[[str], int]
) -> Format:
    """The registry row of a dealing-machine format: its losses, its one-line layout."""
    return Format(
        name=name,
        extensions=(f".{name}",),
        sniff=sniff,
        read=read,
        write=write,
        adapter=lambda: DealingAdapter(name),
        line_limit="max_board_size",
    )


def record_format(
    name: str,
    *,
    body: int,
    padding: str,
    parse: Parse,
    shaped: Callable[[str], bool],
    encode: Callable[[Owners], str],
    sniff: Callable[[str], int],
) -> Format:
    """A format of records of one deal each, numbered by place (BRI, DGE)."""
    size = body + len(padding)

    def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
        return machine_boards(
            lines, options, info, fmt=name, size=size, body=body, parse=parse, shaped=shaped
        )

    def write(
        boards: Iterable[Board], options: WriteOptions, info: FileInfo | None
    ) -> Iterator[str]:
        return machine_write(boards, options, name, lambda owners: encode(owners) + padding)

    return machine_format(name, read, write, sniff)
