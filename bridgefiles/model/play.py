"""The play as recorded: cards by seat column, a trick a row, as PBN lays it out.

Columns are fixed by seat, starting with ``first`` (the Play tag's seat); the
player who leads each trick after the first is the winner of the previous one.
LIN's chronological cards are placed into the same columns by the LIN reader.
"""

from __future__ import annotations

from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
)

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    Annotations,
    Comment,
    Note,
    numbered_note,
)
from bridgefiles.model.cards import ALL_CARDS, Card
from bridgefiles.model.outcome import trick_winner as trick_winner  # one copy: Law 44
from bridgefiles.model.positions import Placed
from bridgefiles.model.seats import Seat
from bridgefiles.model.shared import SharedTable


class Slot(str, Enum):
    """What a position of a trick holds: a card, an unknown one, or the next to play (PBN 3.6.1)."""

    CARD = "card"  # a card was played
    UNKNOWN = "-"  # unknown, irrelevant or not played (yet)
    NEXT = "+"  # the next card still to be played


class PlayedCard(BaseModel):
    """One position of a trick, in its seat's column.

    A plain card (no mark, no annotation) read from a file is one shared value per card
    (:func:`plain_slot`), with no line or column of its own: :meth:`Play.where` says
    where each card stood.
    """

    model_config = ConfigDict(frozen=True)

    slot: Slot = Slot.CARD
    card: Card | None = None
    revoke: bool = False  # PBN ^R: a revoke not noticed in time
    lead_out_of_turn: bool = False  # PBN ^L: a lead out of turn, accepted
    annotations: Annotations = NO_ANNOTATIONS
    line: int | None = None
    column: int | None = None

    def __reduce_ex__(self, protocol: Any) -> Any:
        """A shared slot comes back as the same shared value (a pickled board stays lean)."""
        index = _SHARED_INDEX.get(id(self))
        if index is not None:
            return _shared_slot, (index,)
        return super().__reduce_ex__(protocol)


# The shared slots: a plain card each (by Card.index), then '-' and '+'.
SHARED_SLOTS: tuple[PlayedCard, ...] = (
    *(PlayedCard(card=card) for card in ALL_CARDS),
    PlayedCard(slot=Slot.UNKNOWN),
    PlayedCard(slot=Slot.NEXT),
)
PLAIN_SLOTS = SHARED_SLOTS[:52]  # by Card.index
UNKNOWN_SLOT, NEXT_SLOT = SHARED_SLOTS[52], SHARED_SLOTS[53]
_SHARED_INDEX = {id(slot): i for i, slot in enumerate(SHARED_SLOTS)}
assert all(card.index == i for i, card in enumerate(ALL_CARDS))


def _shared_slot(index: int) -> PlayedCard:
    return SHARED_SLOTS[index]


# Slots with annotations or marks shared as interned entries are (model.auction.interned).
_INTERNED: SharedTable[tuple[object, ...], PlayedCard] = SharedTable(2048)


def interned(slot: PlayedCard) -> PlayedCard:
    """The shared slot equal to ``slot``, for one with no place of its own (its play's
    positions say where it stood) and no commentary or explanation; else ``slot``."""
    if id(slot) in _SHARED_INDEX:
        return slot
    ann = slot.annotations
    if (
        slot.line is not None
        or slot.column is not None
        or ann.comments
        or ann.explanation is not None
    ):
        return slot
    key = shared_key(
        slot.slot, slot.card, slot.revoke, slot.lead_out_of_turn, ann.suffix, ann.note,
        ann.nags, ann.alert,
    )
    return _INTERNED.share(key, slot)


def shared_key(
    slot: Slot,
    card: Card | None,
    revoke: bool,
    lead_out_of_turn: bool,
    suffix: str | None,
    note: int | None,
    nags: tuple[int, ...],
    alert: bool = False,
) -> tuple[object, ...]:
    """A shared slot's key, its facts: the one layout :func:`interned` keeps by and
    :func:`shared_annotated` looks up by."""
    index = None if card is None else card.index
    return (slot, index, revoke, lead_out_of_turn, suffix, note, nags, alert)


def shared_annotated(key: tuple[object, ...]) -> PlayedCard | None:
    """The shared slot :func:`interned` keeps under ``key`` (see :func:`shared_key`), if
    one is kept yet: a reader asks before it builds, so an annotated card seen before
    costs no new model."""
    return _INTERNED.get(key)


def plain_slot(card: Card) -> PlayedCard:
    """The shared slot of ``card`` played with no mark and no annotation."""
    return PLAIN_SLOTS[card.index]


class PlayEnd(str, Enum):
    """How the recorded play stops: at its end, or at a claim or concession (PBN ``*``)."""

    OPEN = ""  # play recorded to its end, or to be continued
    STOPPED = "*"  # claim, concession or abandoned play: Result gives the outcome


class Claim(BaseModel):
    """A claim or concession: declarer's side's total tricks (LIN ``mc``)."""

    model_config = ConfigDict(frozen=True)

    tricks: int
    raw: str | None = None
    line: int | None = None
    column: int | None = None


class Play(Placed):
    """Cards in seat columns: ``slots[4*t + k]`` is trick ``t+1``, seat ``first.offset(k)``."""

    model_config = ConfigDict(frozen=True)
    ITEMS: ClassVar[str] = "slots"  # what ``where`` places (Placed)

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


_REVOKE = attrgetter("revoke")
_LEAD_OUT_OF_TURN = attrgetter("lead_out_of_turn")


NO_CARD, NEXT_CARD, CARDLESS = 52, 53, 54
"""The codes of :func:`slot_codes` that are no card: '-', '+', and a slot said to be a
card that holds none (a model built by hand)."""
assert SHARED_SLOTS[NO_CARD] is UNKNOWN_SLOT and SHARED_SLOTS[NEXT_CARD] is NEXT_SLOT


def _code(slot: PlayedCard) -> int:
    if slot.slot is Slot.CARD:
        return CARDLESS if slot.card is None else slot.card.index
    return NEXT_CARD if slot.slot is Slot.NEXT else NO_CARD


def slot_codes(play: Play) -> tuple[list[int], bool]:
    """Each slot as a small int, for the Laws' replay: its card's index (0-51) or
    :data:`NO_CARD`, :data:`NEXT_CARD`, :data:`CARDLESS`; and whether any slot is marked
    (``^R``, ``^L``). The shared slots are found by identity in one C-level pass, so the
    common play costs no attribute look-up a card."""
    slots = play.slots
    codes = list(map(_SHARED_INDEX.get, map(id, slots)))  # 52 '-', 53 '+'
    if None not in codes:
        return codes, False  # type: ignore[return-value]  # no None: shared, unmarked
    marked = any(map(_REVOKE, slots)) or any(map(_LEAD_OUT_OF_TURN, slots))
    return list(map(_code, slots)), marked


def card_indices(play: Play) -> list[int] | None:
    """The card index (``Card.index``) of each slot in order when every slot is a card
    with no mark (no ``-`` or ``+``, no ``^R`` or ``^L``), else None: the plain play, read
    off :func:`slot_codes` so the two cannot disagree."""
    codes, marked = slot_codes(play)
    if marked or max(codes, default=0) >= NO_CARD:
        return None
    return codes
