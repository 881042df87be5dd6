"""What a LIN board needs from its cards: seat columns, and back to playing order.

LIN lists cards in playing order; the model keeps PBN's seat columns, so each
trick's winner (who leads the next) is worked out from the contract
(:func:`bridgefiles.model.outcome.winning_position`, the one copy of Law 44). This is
bookkeeping of the record, not a ruling: the Laws package judges legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.formats.lin.state import PendingCard
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.fast import construct_all
from bridgefiles.model.outcome import NO_TRUMP, trick_winner, winning_position
from bridgefiles.model.play import PlayedCard, Slot, plain_card_fields
from bridgefiles.model.seats import Seat

_NOT_PLAYED = PlayedCard(slot=Slot.UNKNOWN)


@dataclass
class Placed:
    """Cards placed into seat columns, and what the play tells about the tricks."""

    slots: tuple[PlayedCard, ...]
    declarer_tricks: int  # tricks won by declarer's side among the complete tricks
    complete_tricks: int


def place_cards(
    first: Seat,
    cards: Sequence[PendingCard],
    strain: Strain | None,
    declarer: Seat | None,
) -> Placed:
    """Cards in playing order (each with its card) into ``slots[4*t + k]`` columns.

    ``first`` is the opening leader. A short last trick is padded with ``-``.
    Seats are counted as places after ``first`` here (plain ints, not enum lookups):
    this runs for every card of every board read.
    """
    rows = [plain_card_fields(card, line, column) for card, _, _, line, column, _, _ in cards]
    built = construct_all(PlayedCard, rows)  # one call for the whole play
    played = [c.card.index for c in cards]  # type: ignore[union-attr]  # all known here
    trump = strain.order if strain is not None else NO_TRUMP
    slots: list[PlayedCard] = []
    lead = 0  # the leader of the trick, as places after ``first``
    # declarer's side, as the parity of places after ``first`` (partners are 2 apart)
    side = None if declarer is None else first.distance(declarer) & 1
    won = 0
    complete = len(built) // 4
    for start in range(0, 4 * complete, 4):
        trick = built[start : start + 4]
        slots += trick[4 - lead :] + trick[: 4 - lead]  # seat k played card (k - lead) % 4
        # the winner of the trick (Law 44), ``lead`` places after ``first`` led it
        lead = (lead + winning_position(played[start : start + 4], trump)) & 3
        if side is not None and lead & 1 == side:
            won += 1
    if len(built) > 4 * complete:  # a short last trick
        row = [_NOT_PLAYED, _NOT_PLAYED, _NOT_PLAYED, _NOT_PLAYED]
        for j, slot in enumerate(built[4 * complete :]):
            row[(lead + j) & 3] = slot
        slots += row
    return Placed(tuple(slots), won, complete)


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
