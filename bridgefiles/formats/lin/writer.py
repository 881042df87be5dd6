"""Boards to LIN (lin.md section 11).

``layout="preserve"`` gives back the text as read (file preamble, then each
board's ``source``); a board without source text is written in export layout.
Export layout writes one board a line in the form BBO's handviewer reads:
``pn st md rh ah sv``, the calls with ``an`` explanations, ``pg``, the cards with
a ``pg`` after each trick, then ``mc``. Boards with a Room tag get a ``qx`` label,
and the header of a vugraph file (``vg rs pn ...``) is written once before them.
Commands kept as extras go back where they stood among the calls and cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from bridgefiles.formats.lin import values
from bridgefiles.formats.lin.auction_play import chronological
from bridgefiles.formats.lin.tokens import (
    FORMAT,
    HEADER_POSITION,
    LINE_OPENERS,
    OPEN_AFTER_BODY,
    OPEN_AFTER_DEAL,
)
from bridgefiles.formats.registry import FileInfo, WriteOptions
from bridgefiles.model.auction import EntryKind
from bridgefiles.model.board import Board, Extra
from bridgefiles.model.calls import Call, CallKind
from bridgefiles.model.cards import SUITS_DESCENDING, Strain
from bridgefiles.model.deal import Deal, Hand
from bridgefiles.model.extras import extras_at
from bridgefiles.model.seats import Seat

_ROOM_LETTER = {"Open": "o", "Closed": "c"}
_EARLY = frozenset({"pn", "mn", "st", "vg", "rs", "pw", "mp", "bn"})


def clean(text: str) -> str:
    """LIN cannot escape a bar: one in a value would end it early (lin.md 1.1)."""
    return text.replace("|", "/")


def command(tag: str, value: str = "") -> str:
    return f"{tag}|{clean(value)}|"


_LIN_CALLS = {CallKind.PASS: "p", CallKind.DOUBLE: "d", CallKind.REDOUBLE: "r"}


def call_text(call: Call) -> str:
    """LIN's spelling of a call: ``p d r``, a bid with ``N`` for notrump."""
    word = _LIN_CALLS.get(call.kind)
    if word is not None:
        return word
    assert call.strain is not None
    strain = "N" if call.strain is Strain.NT else call.strain.value
    return f"{call.level}{strain}"


def hand_text(hand: Hand | None) -> str:
    if hand is None:
        return ""
    return "".join(
        suit.value + "".join(c.rank.char for c in hand.cards if c.suit is suit)
        for suit in SUITS_DESCENDING
    )


def deal_text(deal: Deal, dealer: Seat | None) -> str:
    digit = values.DIGIT_OF[dealer] if dealer is not None else ""
    return digit + ",".join(hand_text(deal.hands.get(seat)) for seat in values.LIN_ORDER)


_PBN_HAND_RE = re.compile(r"[2-9TJQKA]*\.[2-9TJQKA]*\.[2-9TJQKA]*\.[2-9TJQKA]*|-")


def _md_from_tag(text: str | None, dealer: Seat | None) -> str | None:
    """``md`` straight from a well-formed PBN Deal value (no card objects: it is the
    hot path of writing); None when the value needs the full parser."""
    if text is None or len(text) < 2 or text[1] != ":" or text[0] not in "NESW":
        return None
    parts = text[2:].split()
    if len(parts) != 4 or not all(_PBN_HAND_RE.fullmatch(p) for p in parts):
        return None
    first = Seat(text[0])
    by_seat = {first.offset(i): part for i, part in enumerate(parts)}
    hands = []
    for seat in values.LIN_ORDER:
        part = by_seat[seat]
        if part == "-":
            hands.append("")
        else:
            s, h, d, c = part.split(".")
            hands.append(f"S{s}H{h}D{d}C{c}")
    digit = values.DIGIT_OF[dealer] if dealer is not None else ""
    return digit + ",".join(hands)


def header_extras(board: Board) -> tuple[Extra, ...]:
    """The board's LIN extras from its vugraph header (a row builds only these)."""
    return extras_at(board.extras, FORMAT, HEADER_POSITION)


def _strain(board: Board) -> Strain | None:
    if board.contract is not None and board.contract.strain is not None:
        return board.contract.strain
    outcome = board.outcome
    if outcome is not None and outcome.contract is not None:
        return outcome.contract.strain
    return None


def _generated_header(board: Board) -> list[str]:
    """A ``vg`` line from the tags, for a match whose boards came from elsewhere."""
    if board.room not in _ROOM_LETTER:
        return []
    event = board.tag("Event") or ""
    scoring = values.SCORING_OF.get((board.tag("Scoring") or "").split(";")[0].strip(), "I")
    fields = [
        event,
        board.tag("Stage") or "",
        scoring,
        "",
        "",
        board.tag("HomeTeam") or "",
        "",
        board.tag("VisitTeam") or "",
        "",
    ]
    if not any(f.replace(",", "") for f in (event, fields[1], fields[5], fields[7])):
        return []
    return [command("vg", ",".join(f.replace(",", " ") for f in fields))]


def board_commands(board: Board) -> list[str]:
    """The commands of one board in export layout."""
    extras = [e for e in board.extras if e.format == FORMAT and e.position != HEADER_POSITION]
    keys = {e.key for e in extras}
    out: list[str] = []
    players = [_player(board.tag(seat.full_name)) for seat in values.LIN_ORDER]
    number = board.board_number
    if "qx" not in keys and board.room in _ROOM_LETTER and number:
        out.append(command("qx", f"{_ROOM_LETTER[board.room or '']}{number}"))
    for e in extras:
        if e.key == "qx" and not e.position:
            out.append(command("qx", e.value))
    # board openers kept as extras go before the deal, where a reader still
    # takes them as this board's (after a deal they would open the next one)
    early = [e for e in extras if not e.position and e.key in _EARLY]
    md = _md_from_tag(board.tag("Deal"), board.dealer)
    if md is None and board.deal is not None:
        md = deal_text(board.deal, board.dealer)
    if md is None and board.dealer is not None:
        md = values.DIGIT_OF[board.dealer]  # a dealer and no hands: still LIN's md
    if md is None:
        # no deal of its own: an ``md`` kept as written (a deal that could not be read)
        # is what tells a reader this board begins, so it goes first
        opener = next((e for e in extras if not e.position and e.key == "md"), None)
        if opener is not None and opener.value.strip()[:1] in ("1", "2", "3", "4"):
            early.insert(0, opener)
    out.extend(_extra_text(e) for e in early)
    if any(players):
        out.append(command("pn", ",".join((p or "").replace(",", " ") for p in players)))
    out.append(command("st"))
    if md is not None:
        out.append(command("md", md))
    out.append(command("rh"))
    if "ah" not in keys:
        if number:
            out.append(command("ah", f"Board {number}"))
    else:
        out.extend(command("ah", e.value) for e in extras if e.key == "ah" and not e.position)
    vul = board.vulnerable
    if vul is not None:
        out.append(command("sv", values.SV_OF[vul]))

    events: list[str] = []
    auction = board.auction
    if auction is not None:
        for entry in auction.entries:
            if entry.kind is not EntryKind.CALL or entry.call is None:
                continue
            ann = entry.annotations
            text = command("mb", call_text(entry.call) + ("!" if ann.alert else ""))
            if ann.explanation is not None:
                text += command("an", ann.explanation)
            events.append(text)
    calls_made = len(events)
    play = board.play
    cards = chronological(play.first, play.slots, _strain(board)) if play is not None else []
    for i, card in enumerate(cards):
        text = command("pc", card.code)
        if i % 4 == 3:
            text += command("pg")
        if i == 0 and calls_made:
            text = command("pg") + text
        events.append(text)

    placed = [
        e
        for e in extras
        if not (e.key in ("qx", "ah") and not e.position) and not any(e is x for x in early)
    ]
    placed.sort(key=lambda e: e.position or 0)
    j = 0
    for i, text in enumerate(events):
        while j < len(placed) and (placed[j].position or 0) <= i:
            out.append(_extra_text(placed[j]))
            j += 1
        out.append(text)
    if not cards and calls_made:
        out.append(command("pg"))
    claim = play.claim if play is not None else None
    result = board.tag("Result")
    if claim is not None:
        out.append(command("mc", claim.raw if claim.raw is not None else str(claim.tricks)))
        out.append(command("pg"))
    elif play is None and result is not None and result.strip().isdigit() and calls_made:
        out.append(command("mc", result.strip()))
        out.append(command("pg"))
    while j < len(placed):
        out.append(_extra_text(placed[j]))
        j += 1
    return out


def _player(name: str | None) -> str:
    """A seat tag as a ``pn`` field; PBN's ``?`` (unknown) is an empty field."""
    return "" if name is None or name.strip() == "?" else name


def _extra_text(extra: Extra) -> str:
    key = extra.key.strip(" \t\r\n\f\v")  # as a reader reads the name back
    if key == "":
        return ""  # free text between commands: reported when read, not a command
    return command(key, extra.value)


def export_board(board: Board) -> str:
    return "".join(board_commands(board))


class Opened:
    """What a LIN reader knows of the board it is reading once a board's commands are
    written (lin.md 4): whether it has a deal, calls or cards, and a ``qx``."""

    __slots__ = ("body", "hands", "qx")

    def __init__(self, commands: list[str]) -> None:
        pairs = _pairs(commands)
        self.hands = any(tag == "md" and value[:1] in _DIGITS for tag, value in pairs)
        self.body = any(tag in ("mb", "pc", "mc") for tag, _ in pairs)
        self.qx = any(tag == "qx" for tag, _ in pairs)


_DIGITS = ("1", "2", "3", "4")


def _pairs(commands: list[str]) -> list[tuple[str, str]]:
    """The ``(command, value)`` pairs of written commands (bars never in a value)."""
    parts = "".join(commands).split("|")
    return list(zip(parts[0::2], parts[1::2], strict=False))


def _opens(commands: list[str], before: Opened) -> bool:
    """Whether a LIN reader, in the board ``before`` describes, starts a new board at
    this line of ``commands`` (lin.md 4; the rules of formats/lin/reader.py)."""
    pairs = _pairs(commands)
    if not pairs:
        return False
    first = pairs[0][0]
    if first == "qx":
        return before.qx or before.hands or before.body
    if before.body and not before.qx:
        if first == "pn" and pairs[0][1].count(",") == 3:
            return True
        if first in LINE_OPENERS and not before.hands:
            return True
    if before.hands:
        held = OPEN_AFTER_BODY if before.body else OPEN_AFTER_DEAL
        for tag, value in pairs:
            if tag == "md":
                return value[:1] in _DIGITS
            if tag not in held:
                return False
    return False


def _label(board: Board) -> str:
    """A ``qx`` that opens a board the reader could not tell from the one before it;
    a bare board number, so it adds no room (lin.md 5.1)."""
    return command("qx", board.board_number or "")


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """LIN text a board at a time."""
    nl = options.newline or (info.newline if info and info.newline else None) or "\n"
    preserve = options.layout == "preserve"
    preamble = info.preamble if info is not None else None
    header: tuple[tuple[str, str], ...] | None = None
    started = False
    before: Opened | None = None  # the board written last, as a reader sees it
    # A board with nothing a reader can tell the next one from waits here: it is
    # labelled with a qx only if another board follows it (one alone stays as it was).
    held: tuple[list[str], list[str], Board] | None = None
    for board in boards:
        if held is not None:
            head, commands, last = held
            commands.insert(0, _label(last))
            if before is not None:
                before.qx = True
            yield "".join(head) + "".join(commands) + nl
            held = None
        if not started and board.format != FORMAT:
            preamble = None  # the file was read in another format: its preamble is not LIN
        if preserve and board.source is not None and board.format == FORMAT:
            if not started and preamble:
                yield preamble
            started = True
            header = tuple((e.key, e.value) for e in header_extras(board))
            yield board.source
            continue
        lines: list[str] = []
        if not started and preserve and preamble:
            lines.append(preamble)
        hx = header_extras(board)
        mine = tuple((e.key, e.value) for e in hx)
        if hx and mine != header:
            text = "".join(
                command(e.key, e.value) + ("" if e.key == "pn" else nl) for e in hx if e.key
            )
            lines.append(text if text.endswith(nl) else text + nl)
        elif not started and not hx:
            lines.extend(line + nl for line in _generated_header(board))
        header = mine
        started = True
        commands = board_commands(board)
        if before is not None and not _opens(commands, before):
            commands.insert(0, _label(board))
        after = Opened(commands)
        before = after
        if not (after.hands or after.body or after.qx):
            held = (lines, commands, board)
            continue
        lines.append("".join(commands) + nl)
        yield "".join(lines)
    if held is not None:
        head, commands, _ = held
        yield "".join(head) + "".join(commands) + nl
    if not started and preserve and preamble:
        yield preamble
    if info is not None and info.trailer and preserve:
        yield info.trailer
