"""A board made compact as the readers make it: plain calls, cards, tags and notes their
shared values, where each stood packed on its section (``model/positions.py``).

For a board that comes with its places on each item (the JSON format, or one built by
hand): the same board read from PBN or LIN is then the same value, equal to it, and costs
as little to keep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from bridgefiles.model.annotations import Note, shared_note
from bridgefiles.model.auction import Auction, AuctionEntry
from bridgefiles.model.auction import interned as interned_entry
from bridgefiles.model.board import Board, TagPair, Tags, shared_tag
from bridgefiles.model.play import Play, PlayedCard
from bridgefiles.model.play import interned as interned_slot
from bridgefiles.model.positions import NO_POSITIONS, pack, unpack

Item = TypeVar("Item", TagPair, AuctionEntry, PlayedCard, Note)
Section = TypeVar("Section", Auction, Play)


_MOST = 1 << 32  # what a packed line or column can hold (model/positions.py)


def _packable(item: TagPair | AuctionEntry | PlayedCard | Note) -> bool:
    """Whether the item's own place (if any) packs and reads back exactly: a line from
    1 and a column from 0, each under 2**32. Any other integer a JSON file gives stays
    on its item, which is then not shared."""
    line, column = item.line, item.column
    if line is None:
        return column is None
    return column is not None and 1 <= line < _MOST and 0 <= column < _MOST


def _places(
    items: Sequence[TagPair | AuctionEntry | PlayedCard | Note], packed: bytes
) -> bytes:
    """The places of ``items`` packed: each item's own (where it packs), else the one
    ``packed`` holds."""
    kept = unpack(packed)
    if len(kept) != 2 * len(items):
        kept = [0] * (2 * len(items))
    flat: list[int] = []
    for i, item in enumerate(items):
        if item.line is not None and item.column is not None and _packable(item):
            flat += (item.line, item.column)
        else:
            flat += kept[2 * i : 2 * i + 2]
    return pack(flat) if any(flat[0::2]) else NO_POSITIONS


def _tag(pair: TagPair) -> TagPair:
    if not _packable(pair):
        return pair
    plain = pair.raw is None and not pair.comments and not pair.section and not pair.implied
    return shared_tag(pair.name, pair.value) if plain else _unplaced(pair)


def _unplaced(item: Item) -> Item:
    if item.line is None and item.column is None:
        return item
    return item.model_copy(update={"line": None, "column": None})


def _entry(entry: AuctionEntry) -> AuctionEntry:
    return interned_entry(_unplaced(entry)) if _packable(entry) else entry


def _slot(slot: PlayedCard) -> PlayedCard:
    return interned_slot(_unplaced(slot)) if _packable(slot) else slot


def _note(note: Note) -> Note:
    if not _packable(note):
        return note
    if note.raw is None and not note.comments:
        return shared_note(note.index, note.text)
    return _unplaced(note)


def _notes(section: Section, update: dict[str, object]) -> Section:
    """``section`` with ``update`` and its notes' own places moved to its note positions
    (a copy only when something changes)."""
    notes = section.notes
    if any(n.line is not None for n in notes):
        update = {
            **update,
            "notes": tuple(map(_note, notes)),
            "note_positions": _places(notes, section.note_positions),
        }
    return section.model_copy(update=update) if update else section


def compacted(board: Board) -> Board:
    """``board`` as a reader of PBN or LIN would have built it (the same values)."""
    changes: dict[str, object] = {}
    tags = board.tags
    if any(t.line is not None for t in tags):
        changes["tags"] = Tags.of(map(_tag, tags))  # (a tag's own place goes to the positions)
        changes["tag_positions"] = _places(tags, board.tag_positions)
    auction = board.auction
    if auction is not None:
        update: dict[str, object] = {}
        if any(e.line is not None for e in auction.entries):
            update["entries"] = tuple(map(_entry, auction.entries))
            update["positions"] = _places(auction.entries, auction.positions)
        if (compact := _notes(auction, update)) is not auction:
            changes["auction"] = compact
    play = board.play
    if play is not None:
        update = {}
        if any(s.line is not None for s in play.slots):
            update["slots"] = tuple(map(_slot, play.slots))
            update["positions"] = _places(play.slots, play.positions)
        if (compact_play := _notes(play, update)) is not play:
            changes["play"] = compact_play
    return board.model_copy(update=changes) if changes else board
