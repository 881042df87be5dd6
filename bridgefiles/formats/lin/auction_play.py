"""What a LIN board needs from its cards: seat columns, and back to playing order.

LIN lists cards in playing order; the model keeps PBN's seat columns, so each
trick's winner (who leads the next) is worked out from the contract
(:data:`bridgefiles.model.outcome.STANDINGS`, the one copy of Law 44). This is
bookkeeping of the record, not a ruling: the Laws package judges legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.formats.lin.state import PendingCard
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.outcome import NO_TRUMP, STANDINGS, trick_winner
from bridgefiles.model.play import PLAIN_SLOTS, UNKNOWN_SLOT, PlayedCard, Slot
from bridgefiles.model.positions import pack
from bridgefiles.model.seats import Seat

_PLAYING_ORDER = tuple(tuple((k - lead) & 3 for k in range(4)) for lead in range(4))
"""``_PLAYING_ORDER[lead][k]``: in a trick led ``lead`` places after the first seat, the
place in playing order of the card in seat column ``k``."""


@dataclass
class Placed:
    """Cards placed into seat columns, and what the play tells about the tricks."""

    slots: tuple[PlayedCard, ...]
    declarer_tricks: int  # tricks won by declarer's side among the complete tricks
    complete_tricks: int
    positions: bytes  # where each slot's card stood (model/positions.py)


def place_cards(
    first: Seat,
    cards: Sequence[PendingCard],
    strain: Strain | None,
    declarer: Seat | None,
) -> Placed:
    """Cards in playing order (each with its card) into ``slots[4*t + k]`` columns.

    ``first`` is the opening leader. A short last trick is padded with ``-``.
    Seats are counted as places after ``first`` here (plain ints, not enum lookups),
    and each trick's winner is Law 44's table (``STANDINGS``): this runs for every card
    of every board read.
    """
    played = [c.card.index for c in cards]  # type: ignore[union-attr]  # all known here
    standings = STANDINGS[strain.order if strain is not None else NO_TRUMP]
    complete = len(played) // 4
    order: list[int] = []  # the place in playing order of each slot's card
    lead = 0  # the leader of the trick, as places after ``first``
    # declarer's side, as the parity of places after ``first`` (partners are 2 apart)
    side = -1 if declarer is None else first.distance(declarer) & 1
    won = 0
    for start in range(0, 4 * complete, 4):
        a, b, c, d = played[start : start + 4]
        standing = standings[a // 13]  # the suit led
        ranks = (standing[a], standing[b], standing[c], standing[d])
        order += [start + k for k in _PLAYING_ORDER[lead]]
        lead = (lead + ranks.index(max(ranks))) & 3  # the winner leads the next trick
        if lead & 1 == side:
            won += 1
    order += range(4 * complete, len(played))  # a short last trick: in its seats below
    slots = [PLAIN_SLOTS[played[i]] for i in order]
    places = [0] * (2 * len(order))  # line, column of each slot's card, flat
    places[0::2] = [cards[i].line for i in order]
    places[1::2] = [cards[i].column for i in order]
    if len(played) == 4 * complete:
        return Placed(tuple(slots), won, complete, pack(places))
    row = [UNKNOWN_SLOT, UNKNOWN_SLOT, UNKNOWN_SLOT, UNKNOWN_SLOT]
    row_places = [0] * 8
    for j, slot in enumerate(slots[4 * complete :]):
        k = (lead + j) & 3
        row[k] = slot
        row_places[2 * k : 2 * k + 2] = places[8 * complete + 2 * j : 8 * complete + 2 * j + 2]
    head = places[: 8 * complete]
    return Placed((*slots[: 4 * complete], *row), won, complete, pack(head + row_places))


def chronological(first: Seat, slots: Sequence[PlayedCard], strain: Strain | None) -> list[Card]:
    """The cards of seat-column slots back in playing order (for writing LIN).

    Stops at the first slot with no card in the trick being followed.
    """
    out: list[Card] = []
    leader = first
    for start in range(0, len(slots), 4):
        row = slots[start : start + 4]
        trick: list[Card] = []
        for j in range(4):
            k = first.distance(leader.offset(j))
            if k >= len(row) or row[k].card is None or row[k].slot is not Slot.CARD:
                break
            card = row[k].card
            assert card is not None
            trick.append(card)
        out.extend(trick)
        if len(trick) < 4:
            break
        leader = trick_winner(leader, trick, strain)
    return out
