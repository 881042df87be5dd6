"""What a LIN board needs from its calls and cards: the contract, and seat columns.

LIN lists cards in playing order; the model keeps PBN's seat columns, so each
trick's winner (who leads the next) has to be worked out from the contract. This
is bookkeeping of the record, not a ruling: the Laws package judges legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.formats.pbn.build import construct
from bridgefiles.model.annotations import NO_ANNOTATIONS
from bridgefiles.model.calls import Call, CallKind, Contract, Risk
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.play import PlayedCard, Slot, trick_winner
from bridgefiles.model.seats import Seat, Side


@dataclass(frozen=True)
class Outcome:
    """The end of an auction: the contract (Pass when passed out) and declarer."""

    contract: Contract
    declarer: Seat | None
    calls_used: int  # calls up to and including the final pass


def final_contract(first: Seat, calls: Sequence[Call | None]) -> Outcome | None:
    """The contract of a finished auction, None while it is unfinished.

    ``None`` items (unknown calls) make the outcome unknown.
    """
    last_bid: Call | None = None
    bidder: Seat | None = None
    risk = Risk.NONE
    passes = 0
    first_to_name: dict[tuple[Side, Strain], Seat] = {}
    for i, call in enumerate(calls):
        if call is None:
            return None
        seat = first.offset(i)
        if call.kind is CallKind.PASS:
            passes += 1
            if (last_bid is None and passes == 4) or (last_bid is not None and passes == 3):
                if last_bid is None or bidder is None:
                    return Outcome(Contract(passed_out=True), None, i + 1)
                assert last_bid.level is not None and last_bid.strain is not None
                contract = Contract(level=last_bid.level, strain=last_bid.strain, risk=risk)
                declarer = first_to_name[(bidder.side, last_bid.strain)]
                return Outcome(contract, declarer, i + 1)
            continue
        passes = 0
        if call.kind is CallKind.BID:
            assert call.strain is not None
            last_bid, bidder, risk = call, seat, Risk.NONE
            first_to_name.setdefault((seat.side, call.strain), seat)
        elif call.kind is CallKind.DOUBLE:
            risk = Risk.DOUBLED
        else:
            risk = Risk.REDOUBLED
    return None


_NOT_PLAYED = PlayedCard(slot=Slot.UNKNOWN)
_FIELDS = ("card", "line", "column")
_CARD_SLOT = Slot.CARD
_new = object.__new__
_set = object.__setattr__


def _played(card: Card, line: int | None, column: int | None) -> PlayedCard:
    """``PlayedCard(card=card, line=line, column=column)`` without re-validating values
    the reader has just made (DESIGN.md, Performance)."""
    return construct(
        PlayedCard,
        {
            "slot": Slot.CARD,
            "card": card,
            "revoke": False,
            "lead_out_of_turn": False,
            "annotations": NO_ANNOTATIONS,
            "line": line,
            "column": column,
        },
        set(_FIELDS),
    )


@dataclass
class Placed:
    """Cards placed into seat columns, and what the play tells about the tricks."""

    slots: tuple[PlayedCard, ...]
    declarer_tricks: int  # tricks won by declarer's side among the complete tricks
    complete_tricks: int


def place_cards(
    first: Seat,
    cards: Sequence[tuple[Card, int | None, int | None]],
    strain: Strain | None,
    declarer: Seat | None,
) -> Placed:
    """Chronological cards (with line and column) into ``slots[4*t + k]`` columns.

    ``first`` is the opening leader. A short last trick is padded with ``-``.
    Seats are counted as places after ``first`` here (plain ints, not enum lookups):
    this runs for every card of every board read.
    """
    slots: list[PlayedCard] = []
    trump = strain.trump if strain is not None else None
    lead = 0  # the leader of the trick, as places after ``first``
    # declarer's side, as the parity of places after ``first`` (partners are 2 apart)
    side = None if declarer is None else first.distance(declarer) & 1
    won = 0
    complete = 0
    for start in range(0, len(cards), 4):
        trick = cards[start : start + 4]
        row = [_NOT_PLAYED, _NOT_PLAYED, _NOT_PLAYED, _NOT_PLAYED]
        for j, (card, line, column) in enumerate(trick):
            played = _new(PlayedCard)  # _played inlined: this runs for every card read
            _set(played, "__dict__", {
                "slot": _CARD_SLOT,
                "card": card,
                "revoke": False,
                "lead_out_of_turn": False,
                "annotations": NO_ANNOTATIONS,
                "line": line,
                "column": column,
            })  # fmt: skip
            _set(played, "__pydantic_fields_set__", set(_FIELDS))
            _set(played, "__pydantic_extra__", None)
            _set(played, "__pydantic_private__", None)
            row[(lead + j) & 3] = played
        slots.extend(row)
        if len(trick) == 4:
            complete += 1
            best, top = 0, trick[0][0]
            for j in (1, 2, 3):  # as trick_winner (Law 44)
                card = trick[j][0]
                if card.suit is top.suit:
                    if card.rank > top.rank:
                        best, top = j, card
                elif card.suit is trump:
                    best, top = j, card
            lead = (lead + best) & 3
            if side is not None and lead & 1 == side:
                won += 1
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
