"""A call or card of an Auction or Play section while it is read, and its model.

An :class:`Item` gathers what follows a call or card (suffix, note reference, NAGs,
comments) until the next one comes; then it becomes an ``AuctionEntry`` or a
``PlayedCard``. A plain call or card (nothing after it) is built as its model at once,
from the fields :func:`bridgefiles.model.play.plain_card_fields` and :func:`call_fields` give.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgefiles.model.annotations import NO_ANNOTATIONS, Annotations, Comment
from bridgefiles.model.auction import AuctionEntry, EntryKind
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgefiles.model.cards import ALL_CARDS, Card
from bridgefiles.model.fast import construct, make, shared_fields
from bridgefiles.model.play import PlayedCard, Slot

# Every field is given when the reader builds these (the fields-set pydantic keeps).
ENTRY_SET = shared_fields(frozenset(AuctionEntry.model_fields))
SLOT_SET = shared_fields(frozenset(PlayedCard.model_fields))
CARD_SLOT = Slot.CARD
CALL_ENTRY = EntryKind.CALL

# The plain calls and cards of a section as written, to their interned values (a call
# in another mix of cases, ``1Nt``, is Call.parse's).
PLAIN_CARDS: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _s in (_card.suit.value, _card.suit.value.lower()):
        for _r in (_card.rank.char, _card.rank.char.lower()):
            PLAIN_CARDS[_s + _r] = _card
PLAIN_CALLS: dict[str, Call] = {"Pass": PASS, "PASS": PASS, "pass": PASS}
for _call in (DOUBLE, REDOUBLE, *ALL_BIDS):
    PLAIN_CALLS[_call.text] = _call
    PLAIN_CALLS[_call.text.lower()] = _call


@dataclass(slots=True)
class Item:
    """A call or card being read, with its annotations, before it becomes a model."""

    line: int
    column: int
    kind: EntryKind = EntryKind.CALL
    call: Call | None = None
    slot: Slot = Slot.CARD
    card: Card | None = None
    insufficient: bool = False
    text: str | None = None  # an unknown call's token as written
    revoke: bool = False
    lead_out_of_turn: bool = False
    suffix: str | None = None
    note: int | None = None
    nags: list[int] | None = None  # made when the first NAG comes (most items have none)
    comments: list[Comment] | None = None
    last: str | None = None  # what the next comment follows

    def annotations(self) -> Annotations:
        if self.suffix is None and self.note is None and self.nags is None and not self.comments:
            return NO_ANNOTATIONS
        return make(
            Annotations,
            suffix=self.suffix,
            note=self.note,
            nags=tuple(self.nags or ()),
            alert=False,
            explanation=None,
            comments=tuple(self.comments or ()),
        )


def call_fields(call: Call, line: int, column: int) -> dict[str, object]:
    """The fields of a plain call (no mark, no annotation)."""
    return {
        "kind": CALL_ENTRY,
        "call": call,
        "insufficient": False,
        "text": None,
        "annotations": NO_ANNOTATIONS,
        "line": line,
        "column": column,
    }


def unplain(model: AuctionEntry | PlayedCard) -> Item:
    """A plain call or card back as an Item, for an annotation or comment to come."""
    line, column = model.line or 0, model.column or 0
    if isinstance(model, PlayedCard):
        return Item(line, column, card=model.card)
    return Item(line, column, call=model.call)


def card_of(item: Item | AuctionEntry | PlayedCard) -> Card | None:
    return None if isinstance(item, AuctionEntry) else item.card


def entry_model(item: Item | AuctionEntry | PlayedCard) -> AuctionEntry:
    if isinstance(item, AuctionEntry):
        return item
    assert isinstance(item, Item)  # an auction holds no PlayedCard
    return construct(
        AuctionEntry,
        {
            "kind": item.kind,
            "call": item.call,
            "insufficient": item.insufficient,
            "text": item.text,
            "annotations": item.annotations(),
            "line": item.line,
            "column": item.column,
        },
        ENTRY_SET,
    )


def slot_model(item: Item | AuctionEntry | PlayedCard) -> PlayedCard:
    if isinstance(item, PlayedCard):
        return item
    assert isinstance(item, Item)  # a play holds no AuctionEntry
    return construct(
        PlayedCard,
        {
            "slot": item.slot,
            "card": item.card,
            "revoke": item.revoke,
            "lead_out_of_turn": item.lead_out_of_turn,
            "annotations": item.annotations(),
            "line": item.line,
            "column": item.column,
        },
        SLOT_SET,
    )
