"""Text rendering of a board for the terminal: diagram, auction, play, result, score.

Presentation only: it reads the model (and the validator's report for the
result and score) and returns text; the command line prints it.
"""

from __future__ import annotations

import re

from bridgefiles.checks.validate import validate_board
from bridgefiles.model.auction import EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Call, Contract
from bridgefiles.model.cards import SUITS_DESCENDING, Card, Suit
from bridgefiles.model.deal import Hand
from bridgefiles.model.play import Slot, trick_winner
from bridgefiles.model.seats import Seat, rotation_from

_WIDTH = 14  # width of one hand column in the diagram


def _suit(suit: Suit, symbols: bool) -> str:
    return suit.symbol if symbols else suit.value


def _call_text(call: Call, symbols: bool) -> str:
    if call.is_bid and call.strain is not None and call.strain.trump is not None and symbols:
        return f"{call.level}{call.strain.trump.symbol}"
    return call.text


def _card_text(card: Card, symbols: bool) -> str:
    return f"{_suit(card.suit, symbols)}{card.rank.char}"


def _hand_lines(hand: Hand | None, symbols: bool) -> list[str]:
    if hand is None:
        return ["?"] + [""] * 3
    out = []
    for suit in SUITS_DESCENDING:
        ranks = "".join(c.rank.char for c in hand.cards if c.suit is suit) or "-"
        out.append(f"{_suit(suit, symbols)} {ranks}")
    return out


def _seat_title(board: Board, seat: Seat) -> str:
    name = board.player(seat)
    return f"{seat.full_name} ({name})" if name and name not in ("?", "") else seat.full_name


def diagram(board: Board, symbols: bool = True) -> list[str]:
    """The four hands, North on top, as a list of lines."""
    deal = board.deal
    if deal is None:
        return ["(no deal)"]
    pad = " " * _WIDTH
    lines = []
    north = _hand_lines(deal.hand(Seat.N), symbols)
    lines.append(pad + _seat_title(board, Seat.N))
    lines.extend(pad + row for row in north)
    west = [_seat_title(board, Seat.W), *_hand_lines(deal.hand(Seat.W), symbols)]
    east = [_seat_title(board, Seat.E), *_hand_lines(deal.hand(Seat.E), symbols)]
    for w, e in zip(west, east, strict=True):
        lines.append(f"{w:<{2 * _WIDTH}}{e}".rstrip())
    lines.append(pad + _seat_title(board, Seat.S))
    lines.extend(pad + row for row in _hand_lines(deal.hand(Seat.S), symbols))
    return lines


def auction_table(board: Board, symbols: bool = True) -> list[str]:
    """The auction in four columns, West first, with alerts and note references."""
    auction = board.auction
    if auction is None:
        return []
    cells: list[str] = []
    first_column = Seat.W
    lead_in = first_column.distance(auction.first)
    cells.extend([""] * lead_in)
    notes: list[str] = []
    for entry in auction.entries:
        if entry.kind is EntryKind.NONE:
            cells.append("-")
            continue
        if entry.kind is EntryKind.SKIP:
            cells.append("(skip)")
            continue
        # a token the reader could not take as a call (reported as a syntax finding)
        text = "?" if entry.call is None else _call_text(entry.call, symbols)
        ann = entry.annotations
        if entry.insufficient:
            text = "^" + text
        if ann.alert:
            text += "!"
        if ann.note is not None:
            text += f"({ann.note})"
        elif ann.explanation:
            notes.append(f"{text}: {ann.explanation}")
        cells.append(text)
    if auction.end.value:
        cells.append({"AP": "All Pass", "*": "*", "+": "+"}[auction.end.value])
    rows = ["  ".join(f"{s.full_name:<8}" for s in rotation_from(first_column)).rstrip()]
    for i in range(0, len(cells), 4):
        rows.append("  ".join(f"{c:<8}" for c in cells[i : i + 4]).rstrip())
    for note in auction.notes:
        rows.append(f"  ({note.index}) {note.text}")
    rows.extend(f"  {n}" for n in notes)
    return rows


def play_lines(board: Board, symbols: bool = True) -> list[str]:
    """Trick by trick in playing order, each with its winner."""
    play = board.play
    if play is None or not play.slots:
        return []
    contract = board.contract
    strain = contract.strain if contract is not None else None
    rows = []
    leader: Seat | None = play.first
    for number, trick in enumerate(play.tricks(), start=1):
        lead_seat = leader
        for seat, slot in trick.items():
            if slot.lead_out_of_turn:
                lead_seat = seat
        if lead_seat is None:
            order = list(trick)
        else:
            order = [s for s in rotation_from(lead_seat) if s in trick]
        parts, cards = [], []
        for seat in order:
            slot = trick[seat]
            if slot.slot is Slot.CARD and slot.card is not None:
                parts.append(f"{seat.value} {_card_text(slot.card, symbols)}")
                cards.append(slot.card)
            else:
                parts.append(f"{seat.value} {slot.slot.value}")
        winner = None
        if lead_seat is not None and len(cards) == 4 and len(order) == 4:
            winner = trick_winner(lead_seat, cards, strain)
        tail = f"  won by {winner.value}" if winner else ""
        rows.append(f"{number:>2}. " + "  ".join(parts) + tail)
        leader = winner
    if play.claim is not None:
        rows.append(f"    claim: declarer's side {play.claim.tricks} tricks")
    elif play.end.value == "*":
        rows.append("    play stopped (claim or concession)")
    return rows


def render_board(board: Board, symbols: bool = True) -> str:
    """Everything about a board as text for a terminal."""
    label = board.label
    head = [label[:1].upper() + label[1:]]
    if board.dealer:
        head.append(f"Dealer {board.dealer.full_name}")
    if board.vulnerable:
        head.append(f"Vul {board.vulnerable.value}")
    event = board.tag("Event")
    lines = ["   ".join(head)]
    if event and event not in ("?", "#"):
        lines.append(event)
    lines.append("")
    lines.extend(diagram(board, symbols))
    auction = auction_table(board, symbols)
    if auction:
        lines.append("")
        lines.extend(auction)
    play = play_lines(board, symbols)
    if play:
        lines.append("")
        lines.extend(play)
    summary = _summary(board, symbols)
    if summary:
        lines.append("")
        lines.append(summary)
    return "\n".join(inert(line) for line in lines)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    r"""``text`` with control characters (ESC, BEL, C1...) shown as ``\x1b`` escapes, so a
    value read from a file cannot move the cursor, recolour or retitle the terminal.

    >>> print(inert("Smith\x1b]0;owned\x07"))
    Smith\x1b]0;owned\x07
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _contract_text(contract: Contract, symbols: bool) -> str:
    """``4♥X``: the strain as a symbol built in its place, never by replacing text."""
    strain = contract.strain
    if not symbols or contract.level is None or strain is None or strain.trump is None:
        return contract.text
    return f"{contract.level}{strain.trump.symbol}{contract.risk.value}"


def _summary(board: Board, symbols: bool) -> str:
    report = validate_board(board)
    if report.contract is None:
        return ""
    if report.contract.passed_out:
        return "Passed out"
    text = "Contract " + _contract_text(report.contract, symbols)
    if report.declarer:
        text += f" by {report.declarer.full_name}"
    if report.tricks is not None and report.tricks.final is not None:
        final = report.tricks.final
        text += f", {final} tricks"
        if report.tricks.law64:
            text += f" (Law 64: {report.tricks.law64:+d})"
        level = report.contract.level
        if level is not None:
            over = final - (level + 6)
            text += f", down {-over}" if over < 0 else (f", made +{over}" if over else ", made")
    if report.score is not None:
        text += f", NS {report.score.ns:+d}"
    return text


def can_print_symbols(stream: object) -> bool:
    """Whether ``stream`` can print the suit symbols (else the diagram uses S H D C)."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
