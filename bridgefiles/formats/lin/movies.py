"""Movies (lin.md 9): cards taken back by ``up``, suits played without a rank, cards
with no card to play. What leaves the play stays in the board as a ``pc`` display
command where it stood, so export -> read -> export gives the same text."""

from __future__ import annotations

from bisect import bisect_left
from itertools import repeat
from operator import is_not, itemgetter

from bridgefiles.formats.lin.state import BoardState, PendingCard, Reading, lin_extra
from bridgefiles.formats.lin.tokens import BLANKS
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import warning
from bridgefiles.model.extras import ExtraRow
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.seats import Seat

_CARD = itemgetter(0)  # a PendingCard's card
_MADE = itemgetter(5)  # its position: calls and cards made before it


def take_back(acc: BoardState, start: int) -> None:
    """Cards from ``start`` on are taken back (a movie's undo): set aside, and put
    back among the extras once, when the board ends (:func:`settle`)."""
    acc.removed.extend(acc.cards[start:])
    del acc.cards[start:]


def settle(acc: BoardState) -> None:
    """Cards no longer in the play (taken back by ``up``, or with no card to play) stay
    in the board as ``pc`` display commands where they stood, and what was kept after
    them moves back by as many places as cards went before it: writing the board and
    reading it back gives the same board (an idempotent export).

    Done once a board, in one merge: while reading, positions count every call and card
    ever made (``acc.events`` never goes back), and a card's ``kept`` counts the extras
    kept before it; so each extra loses the removed cards made before it, and a removed
    card's display goes in before the extra that followed it (issue 23: fixing the
    extras up at every ``up`` was quadratic in a long movie)."""
    removed = acc.removed
    if not removed:
        return
    removed.sort(key=_MADE)  # in the order they were made (several ``up`` mix them)
    # a removed card goes in before the extra kept after it, those of one place in order
    # (kept grows with the order made, so its rank is enough)
    displays = sorted(enumerate(removed), key=lambda item: (item[1].kept, item[0]))
    extras = acc.extras
    out: list[ExtraRow] = []
    made = [c.position for c in removed]
    d = 0
    for index, extra in enumerate(extras):
        while d < len(displays) and displays[d][1].kept <= index:
            out.append(_display(*displays[d]))
            d += 1
        position = extra[3]
        if position is not None and position >= 0:
            gone = bisect_left(made, position)  # removed cards made before it
            if gone:
                extra = (*extra[:3], position - gone, *extra[4:])
        out.append(extra)
    out.extend(_display(*item) for item in displays[d:])
    acc.extras = out
    acc.removed = []


def _display(before: int, c: PendingCard) -> ExtraRow:
    """The ``pc`` display command of a removed card, ``before`` removed cards made
    before it."""
    written = c.value.strip(BLANKS)
    if len(written) != (1 if c.card is None else 2):  # one of several cards of a command
        written = c.card.code if c.card is not None else c.suit.value if c.suit else ""
    return lin_extra("pc", written, c.position - before, c.line, c.column)


def resolve(
    r: Reading, acc: BoardState, deal: Deal | None, leader: Seat, strain: Strain | None
) -> list[PendingCard]:
    """The cards of the play, each with its card; a suit alone (movies) is the lowest
    card the player holds."""
    if all(map(is_not, map(_CARD, acc.cards), repeat(None))):  # the usual case
        return acc.cards
    out: list[PendingCard] = []
    held = {s: set(h.cards) if h else set() for s, h in (deal.hands.items() if deal else ())}
    seat = leader
    trick: list[Card] = []
    trick_leader = leader
    dropped: list[PendingCard] = []
    for c in acc.cards:
        card = c.card
        if card is None:
            options = sorted(
                (k for k in held.get(seat, ()) if k.suit is c.suit), key=lambda k: k.rank
            )
            if options:
                card = options[0]
        if card is None:
            suit = c.suit.value if c.suit else ""
            r.report(
                acc.diagnostics,
                warning(
                    "tag-value",
                    f"pc|{c.value}|: no {suit} card to play; dropped from "
                    "the play and kept as written",
                    line=c.line,
                    column=c.column,
                ),
            )
            dropped.append(c)
            continue
        held.get(seat, set()).discard(card)
        out.append(c._replace(card=card, suit=None))
        trick.append(card)
        if len(trick) == 4:
            trick_leader = trick_winner(trick_leader, trick, strain)
            seat, trick = trick_leader, []
        else:
            seat = seat.lho
    acc.removed.extend(dropped)
    return out
