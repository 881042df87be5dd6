"""A board's findings as the report page lists them: a cascade told once, a faulty deal's
cards named, and no more than a page can carry.

The grouping is the page's, not the Laws': the replay reports every card a player does
not hold (the JSON report and ``validate`` list each one), but when a play was recorded
against another deal, every card after the first is one more symptom of the same fault.
The page says it once: "the play does not fit this deal from trick N", with the count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.model.board import Board
from bridgefiles.model.cards import ALL_CARDS, Card
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.seats import Seat
from bridgefiles.web.laws import statement

MAX_FINDINGS = 50  # findings listed on one board; the rest are counted
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


@dataclass(frozen=True)
class Finding:
    """One diagnostic (or a cascade of them) as the page lists it."""

    code: str
    severity: str
    message: str
    line: int | None
    column: int | None
    law: str | None
    law_statement: str | None
    trick: int | None = None
    seat: str | None = None
    detail: str | None = None  # what the page adds: the cards a deal lacks, a cascade's size
    count: int = 1  # the library's findings this one stands for

    @property
    def where(self) -> str:
        if self.line is None:
            return ""
        return f"{self.line}:{self.column}" if self.column is not None else str(self.line)


def finding(d: Diagnostic, detail: str | None = None) -> Finding:
    return Finding(
        code=d.code,
        severity=d.severity.value,
        message=d.message,
        line=d.line,
        column=d.column,
        law=d.law,
        law_statement=statement(d.law),
        trick=d.trick,
        seat=d.seat.value if d.seat is not None else None,
        detail=detail,
    )


def card_text(card: Card) -> str:
    return f"{_SUIT_SYMBOLS[card.suit.value]}{card.rank.char}"


def deal_cards(board: Board) -> str | None:
    """The cards a faulty deal lacks and those it gives twice (None when it has neither,
    or does not give four hands)."""
    deal = board.deal
    if deal is None:
        return None
    hands = [deal.hand(seat) for seat in SEATS]
    held = Counter(card for hand in hands if hand is not None for card in hand.cards)
    twice = [card for card in ALL_CARDS[::-1] if held[card] > 1]
    missing = [card for card in ALL_CARDS[::-1] if held[card] == 0] \
        if all(hand is not None for hand in hands) else []
    parts = []
    if missing:
        parts.append(f"missing ({len(missing)}): {' '.join(map(card_text, missing))}")
    if twice:
        holders = {
            card: "+".join(s.value for s, h in zip(SEATS, hands, strict=True)
                           if h is not None and card in h.cards)
            for card in twice}
        parts.append("given twice: " + " ".join(f"{card_text(c)} ({holders[c]})"
                                                for c in twice))
    return "; ".join(parts) or None


def page_findings(board: Board | None, diagnostics: Sequence[Diagnostic],
                  most: int = MAX_FINDINGS) -> tuple[tuple[Finding, ...], int]:
    """The findings the page lists for a board, and how many more it leaves out."""
    shown: list[Finding] = []
    not_held = [d for d in diagnostics if d.code == "card-not-held"]
    cascade = not_held[0] if len(not_held) > 1 else None
    for d in diagnostics:
        if d.code == "card-not-held" and cascade is not None:
            if d is not cascade:
                continue
            shown.append(_cascade(d, len(not_held)))
        elif d.code == "deal" and board is not None:
            shown.append(finding(d, deal_cards(board)))
        else:
            shown.append(finding(d))
    return tuple(shown[:most]), max(0, len(shown) - most)


def _cascade(first: Diagnostic, count: int) -> Finding:
    where = f"from trick {first.trick}" if first.trick is not None else "from its first card"
    plain = finding(first)
    return Finding(
        code=plain.code, severity=plain.severity,
        message=f"the play does not fit this deal {where}: {first.message}",
        line=plain.line, column=plain.column, law=plain.law,
        law_statement=plain.law_statement, trick=plain.trick, seat=plain.seat,
        detail=(f"{count - 1} more card(s) after it are not held either (the JSON report "
                "lists each): the play was recorded against another deal, or the deal is "
                "wrong"),
        count=count,
    )
