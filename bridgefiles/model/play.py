"""The play as recorded: cards by seat column, a trick a row, as PBN lays it out.

Columns are fixed by seat, starting with ``first`` (the Play tag's seat); the
player who leads each trick after the first is the winner of the previous one.
LIN's chronological cards are placed into the same columns by the LIN reader.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from operator import attrgetter

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    Annotations,
    Comment,
    Note,
    numbered_note,
)
from bridgefiles.model.cards import Card
from bridgefiles.model.fast import attach, attached
from bridgefiles.model.outcome import trick_winner as trick_winner  # one copy: Law 44
from bridgefiles.model.seats import Seat


class Slot(str, Enum):
    CARD = "card"  # a card was played
    UNKNOWN = "-"  # unknown, irrelevant or not played (yet)
    NEXT = "+"  # the next card still to be played


class PlayedCard(BaseModel):
    """One position of a trick, in its seat's column."""

    model_config = ConfigDict(frozen=True)

    slot: Slot = Slot.CARD
    card: Card | None = None
    revoke: bool = False  # PBN ^R: a revoke not noticed in time
    lead_out_of_turn: bool = False  # PBN ^L: a lead out of turn, accepted
    annotations: Annotations = NO_ANNOTATIONS
    line: int | None = None
    column: int | None = None


def plain_card_fields(card: Card | None, line: int | None, column: int | None) -> dict[str, object]:
    """The fields of a played card with no mark and no annotation: what both readers
    build by the thousand (through ``model.fast``), so it is written once, here."""
    return {
        "slot": Slot.CARD,
        "card": card,
        "revoke": False,
        "lead_out_of_turn": False,
        "annotations": NO_ANNOTATIONS,
        "line": line,
        "column": column,
    }


def plain_card_rows(
    cards: Iterable[Card], lines: Iterable[int], columns: Iterable[int]
) -> list[dict[str, object]]:
    """:func:`plain_card_fields` of many cards at once (a play read in its usual layout):
    the same fields, without a call a card; as ``map``, up to the shortest argument."""
    card_slot, none = Slot.CARD, NO_ANNOTATIONS
    return [
        {
            "slot": card_slot,
            "card": card,
            "revoke": False,
            "lead_out_of_turn": False,
            "annotations": none,
            "line": line,
            "column": column,
        }
        for card, line, column in zip(cards, lines, columns, strict=False)
    ]


class PlayEnd(str, Enum):
    OPEN = ""  # play recorded to its end, or to be continued
    STOPPED = "*"  # claim, concession or abandoned play: Result gives the outcome


class Claim(BaseModel):
    """A claim or concession: declarer's side's total tricks (LIN ``mc``)."""

    model_config = ConfigDict(frozen=True)

    tricks: int
    raw: str | None = None
    line: int | None = None
    column: int | None = None


class Play(BaseModel):
    """Cards in seat columns: ``slots[4*t + k]`` is trick ``t+1``, seat ``first.offset(k)``."""

    model_config = ConfigDict(frozen=True)

    first: Seat
    slots: tuple[PlayedCard, ...] = ()
    end: PlayEnd = PlayEnd.OPEN
    end_annotations: Annotations = NO_ANNOTATIONS
    claim: Claim | None = None
    notes: tuple[Note, ...] = ()
    comments: tuple[Comment, ...] = ()
    line: int | None = None
    column: int | None = None

    def tricks(self) -> list[dict[Seat, PlayedCard]]:
        """The recorded tricks, each a mapping seat -> slot (seats without a token absent)."""
        out: list[dict[Seat, PlayedCard]] = []
        for i, slot in enumerate(self.slots):
            if i % 4 == 0:
                out.append({})
            out[-1][self.first.offset(i % 4)] = slot
        return out

    def note(self, index: int) -> Note | None:
        """The note ``=index=`` refers to, if the section has it."""
        return numbered_note(self.notes, index)


_PLAIN = "_plain_slots"  # attached to a Play: the slots its reader built as plain cards
_CARD_INDEX = attrgetter("card.index")
_SLOT = attrgetter("slot")
_REVOKE = attrgetter("revoke")
_LEAD_OUT_OF_TURN = attrgetter("lead_out_of_turn")


def built_plain(play: Play, indices: list[int] | None = None) -> None:
    """Said by a reader that built every slot of ``play`` from :func:`plain_card_fields`
    (a card, no mark), maybe with the cards' indices in order as it read them:
    :func:`card_indices` then need not look at each slot. Kept with the slots it speaks
    for, so a copy with other slots is looked at afresh."""
    attach(play, _PLAIN, (play.slots, indices))


def card_indices(play: Play) -> list[int] | None:
    """The card index (``Card.index``) of each slot in order, when every slot is a card
    with no mark (no ``-`` or ``+``, no ``^R`` or ``^L``): the common play, which the Laws
    replay a trick at a time. None for any other play."""
    slots = play.slots
    vouched = attached(play, _PLAIN, None)
    if vouched is not None and vouched[0] is slots:
        if vouched[1] is not None:
            return list(vouched[1])  # (a copy: the caller may change it)
    elif (
        list(map(_SLOT, slots)).count(Slot.CARD) != len(slots)
        or any(map(_REVOKE, slots))
        or any(map(_LEAD_OUT_OF_TURN, slots))
    ):
        return None
    try:
        return list(map(_CARD_INDEX, slots))
    except AttributeError:  # a slot marked as a card without one
        return None
