"""A call or card of an Auction or Play section while it is read, and its model.

An :class:`Item` gathers what follows a call or card (suffix, note reference, NAGs,
comments) until the next one comes; then it becomes an ``AuctionEntry`` or a
``PlayedCard``. A plain call or card (nothing after it) is its shared value at once
(``model.auction.plain_entry``, ``model.play.plain_slot``): where it stood is kept apart,
in the section's packed positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgefiles.model.annotations import NO_ANNOTATIONS, Annotations, Comment
from bridgefiles.model.auction import (
    NONE_ENTRY,
    SKIP_ENTRY,
    AuctionEntry,
    EntryKind,
    plain_entry,
)
from bridgefiles.model.auction import interned as interned_entry
from bridgefiles.model.auction import shared_annotated as shared_entry
from bridgefiles.model.auction import shared_key as entry_key
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgefiles.model.cards import ALL_CARDS, Card
from bridgefiles.model.fast import make
from bridgefiles.model.play import NEXT_SLOT, UNKNOWN_SLOT, PlayedCard, Slot, plain_slot
from bridgefiles.model.play import interned as interned_slot
from bridgefiles.model.play import shared_annotated as shared_slot
from bridgefiles.model.play import shared_key as slot_key

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
# ... and straight to their shared entries and slots
PLAIN_ENTRIES: dict[str, AuctionEntry] = {t: plain_entry(c) for t, c in PLAIN_CALLS.items()}
PLAIN_SLOTS: dict[str, PlayedCard] = {t: plain_slot(c) for t, c in PLAIN_CARDS.items()}


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

    def nag_tuple(self) -> tuple[int, ...]:
        """The NAGs as the annotations hold them."""
        return tuple(self.nags) if self.nags else ()

    def annotations(self) -> Annotations:
        if self.suffix is None and self.note is None and self.nags is None and not self.comments:
            return NO_ANNOTATIONS
        return make(
            Annotations,
            suffix=self.suffix,
            note=self.note,
            nags=self.nag_tuple(),
            alert=False,
            explanation=None,
            comments=tuple(self.comments or ()),
        )


def unplain(model: AuctionEntry | PlayedCard, line: int, column: int) -> Item:
    """A plain call or card back as an Item, for an annotation or comment to come."""
    if isinstance(model, PlayedCard):
        return Item(line, column, card=model.card)
    return Item(line, column, call=model.call)


def card_of(item: Item | AuctionEntry | PlayedCard) -> Card | None:
    return None if isinstance(item, AuctionEntry) else item.card


def entry_model(item: Item | AuctionEntry | PlayedCard) -> AuctionEntry:
    """The entry an item comes to: a shared one when it has nothing of its own."""
    if isinstance(item, AuctionEntry):
        return item
    assert isinstance(item, Item)  # an auction holds no PlayedCard
    if (item.note is not None or item.suffix is not None or item.nags) and (
        not item.comments and item.text is None
    ):  # an annotated call seen before: no model to build
        found = shared_entry(
            entry_key(
                item.kind, item.call, item.insufficient, item.suffix, item.note, item.nag_tuple()
            )
        )
        if found is not None:
            return found
    annotations = item.annotations()
    if annotations is NO_ANNOTATIONS and not item.insufficient and item.text is None:
        if item.kind is CALL_ENTRY and item.call is not None:
            return plain_entry(item.call)
        if item.kind is EntryKind.NONE:
            return NONE_ENTRY
        if item.kind is EntryKind.SKIP:
            return SKIP_ENTRY
    entry = make(  # (no line or column: the section's positions say where)
        AuctionEntry,
        kind=item.kind,
        call=item.call,
        insufficient=item.insufficient,
        text=item.text,
        annotations=annotations,
    )
    return interned_entry(entry)


def slot_model(item: Item | AuctionEntry | PlayedCard) -> PlayedCard:
    """The slot an item comes to: a shared one when it has nothing of its own."""
    if isinstance(item, PlayedCard):
        return item
    assert isinstance(item, Item)  # a play holds no AuctionEntry
    if (item.note is not None or item.suffix is not None or item.nags) and not item.comments:
        # an annotated card seen before: no model to build
        found = shared_slot(
            slot_key(
                item.slot, item.card, item.revoke, item.lead_out_of_turn, item.suffix,
                item.note, item.nag_tuple(),
            )
        )
        if found is not None:
            return found
    annotations = item.annotations()
    if annotations is NO_ANNOTATIONS and not item.revoke and not item.lead_out_of_turn:
        if item.slot is Slot.CARD and item.card is not None:
            return plain_slot(item.card)
        if item.slot is Slot.UNKNOWN:
            return UNKNOWN_SLOT
        if item.slot is Slot.NEXT:
            return NEXT_SLOT
    slot = make(  # (no line or column: the section's positions say where)
        PlayedCard,
        slot=item.slot,
        card=item.card,
        revoke=item.revoke,
        lead_out_of_turn=item.lead_out_of_turn,
        annotations=annotations,
    )
    return interned_slot(slot)
