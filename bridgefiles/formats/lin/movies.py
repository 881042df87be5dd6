"""Movies (lin.md 9): cards taken back by ``up``, suits played without a rank, cards
with no card to play. What leaves the play stays in the board as a ``pc`` display
command where it stood, so export -> read -> export gives the same text."""

from __future__ import annotations

from itertools import repeat
from operator import is_not, itemgetter

from bridgefiles.formats.lin.state import BoardState, PendingCard, Reading, lin_extra
from bridgefiles.formats.lin.tokens import BLANKS
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import warning
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.seats import Seat

_CARD = itemgetter(0)  # a PendingCard's card


def take_back(acc: BoardState, start: int) -> None:
    """Cards from ``start`` on are taken back (a movie's undo)."""
    removed = acc.cards[start:]
    del acc.cards[start:]
    unplay(acc, removed)


def unplay(acc: BoardState, removed: list[PendingCard]) -> None:
    """Cards no longer in the play (taken back by ``up``, or with no card to play) stay
    in the board as ``pc`` display commands where they stood, and what was kept after
    them moves back by as many places as cards went before it: writing the board and
    reading it back gives the same board (an idempotent export)."""
    extras = acc.extras
    k = 0
    for index in range(len(extras)):
        while k < len(removed) and removed[k].kept <= index:
            k += 1
        position = extras[index].position
        if k and position is not None and position >= 0:
            extras[index] = extras[index].model_copy(update={"position": position - k})
    for shift, c in reversed(list(enumerate(removed))):
        written = c.value.strip(BLANKS)
        if len(written) != (1 if c.card is None else 2):  # one of several cards of a command
            written = c.card.code if c.card is not None else c.suit.value if c.suit else ""
        extras.insert(c.kept, lin_extra("pc", written, c.position - shift, c.line, c.column))
    acc.events -= len(removed)


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
    if dropped:
        unplay(acc, dropped)
    return out
