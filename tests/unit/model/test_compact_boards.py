"""Compact boards (issue 23 point 4): a plain call, card, tag or note read from a file is one
shared value, and where it stood lives in its section's packed positions. Touching every
entry of a kept board reads shared values; findings, the JSON format and copies still
say where each item stood."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel
from shared import REAL_LIN, REAL_PBN, files, needs_corpus

import bridgefiles as bf
from bridgefiles.checks.schema import board_schema
from bridgefiles.model import Auction, Call, Card, Play, Seat
from bridgefiles.model.annotations import NO_ANNOTATIONS, shared_note
from bridgefiles.model.auction import SHARED_ENTRIES, AuctionEntry, EntryKind
from bridgefiles.model.auction import shared_annotated as auction_shared
from bridgefiles.model.auction import shared_key as entry_key
from bridgefiles.model.board import Board, TagPair, shared_tag
from bridgefiles.model.calls import PASS
from bridgefiles.model.fast import make
from bridgefiles.model.play import SHARED_SLOTS, PlayedCard, Slot
from bridgefiles.model.play import shared_annotated as play_shared
from bridgefiles.model.play import shared_key as slot_key
from bridgefiles.model.positions import Places, count, pack, position
from bridgefiles.model.shared import SharedTable, forget

GAME = """[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865"]
[Declarer "S"]
[Contract "3NT"]
[Result "9"]
[Auction "N"]
Pass 1S 1NT =1= Pass
3NT  Pass Pass   Pass
[Note "1:15-17"]
[Play "W"]
D2 D3 DK D4
C5 C2 CA C3
"""


def _board(text: str = GAME) -> Board:
    (board,) = bf.loads(text, "pbn").boards
    return board


@given(
    st.lists(
        st.tuples(
            st.one_of(st.just(0), st.integers(1, 2**31)),
            st.integers(0, 2**31),
        ),
        max_size=60,
    )
)
def test_positions_pack_and_read_back(pairs: list[tuple[int, int]]) -> None:
    packed = pack([n for pair in pairs for n in pair])
    assert count(packed) == len(pairs)
    for i, (line, column) in enumerate(pairs):
        assert position(packed, i) == ((line, column) if line else None)
    assert position(packed, len(pairs)) is None and position(packed, -1) is None


def _row_text(layout: list[list[int]], blanks: list[str]) -> str:
    """A row of words (of the given lengths, line by line) with these blanks between."""
    out = []
    for i, lengths in enumerate(layout):
        sep = blanks[i % len(blanks)]
        out.append(sep.join("S" * n for n in lengths))
    return "\n".join(out)


# lines and columns near each other, and at the edges of what 16 bits hold
_LINE = st.one_of(st.integers(1, 6), st.sampled_from([0, 65_535, 65_536, 65_537, 70_000]))
_COLUMN = st.one_of(st.integers(1, 3), st.sampled_from([0, 65_534, 65_535, 65_536]))
_STEP = st.one_of(
    st.tuples(st.just("item"), _LINE, _COLUMN),
    st.tuples(
        st.just("row"),
        _LINE.filter(bool),
        _COLUMN.filter(bool),
        st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=5), min_size=1, max_size=4),
        st.lists(st.sampled_from([" ", "  ", "\t", " \t "]), min_size=1, max_size=3),
    ),
)


@given(st.lists(_STEP, max_size=12))
def test_places_as_read_pack_as_pack_does(steps: list[tuple[Any, ...]]) -> None:
    """Places (a section's positions, packed as it is read) gives pack()'s bytes and the
    pairs as given, for items and rows anywhere: near each other (the packed way) or
    not (unknown lines, lines before the first, pairs past 16 bits)."""
    places, flat = Places(), list[int]()
    for step in steps:
        if step[0] == "item":
            _, line, column = step
            places.add(line, column)
            flat += (line, column)
        else:
            _, line, column, layout, blanks = step
            text = _row_text(layout, blanks)
            placed = places.add_row(text, line, column)
            assert placed == len(text.split())
            for i, row in enumerate(text.split("\n")):
                start = column if i == 0 else 1
                for m in re.finditer(r"\S+", row):
                    flat += (line + i, start + m.start())
    assert places.packed() == pack(flat)
    assert len(places) == len(flat) // 2
    for i in range(len(places)):
        assert places[i] == (flat[2 * i], flat[2 * i + 1])
    if flat:
        assert places[-1] == (flat[-2], flat[-1])


def test_rows_of_one_layout_are_placed_alike_wherever_they_stand() -> None:
    """Play sections of whole tricks at other lines, first or after other items: one
    layout, the right places, pack()'s bytes."""
    row = "\n".join(["SA SK SQ SJ"] * 13)
    for first, before in ((5, []), (700, []), (9, [(7, 2)]), (12, [(9, 1), (11, 4)])):
        places, flat = Places(), list[int]()
        for line, column in before:
            places.add(line, column)
            flat += (line, column)
        assert places.add_row(row, first, 1) == 52
        flat += [v for t in range(13) for c in (1, 4, 7, 10) for v in (first + t, c)]
        assert places[len(before)] == (first, 1) and places[-1] == (first + 12, 10)
        assert places.packed() == pack(flat)


@pytest.mark.parametrize(
    "pairs",
    [
        [(0, 5), (3, 1)],  # a line not known
        [(4, 1), (3, 1)],  # a line before the first
        [(1, 1), (65_535, 1)],  # the last line 16 bits hold
        [(1, 1), (65_536, 1)],  # one past it
        [(1, 65_535), (2, 1)],  # the last column
        [(1, 65_536), (2, 1)],  # one past it
    ],
)
def test_places_past_the_packed_way_pack_as_pack_does(pairs: list[tuple[int, int]]) -> None:
    flat = [n for pair in pairs for n in pair]
    one, row = Places(), Places()
    for line, column in pairs:
        one.add(line, column)
        if line:
            row.add_row("C2", line, column)
        else:
            row.add(line, column)
    assert one.packed() == row.packed() == pack(flat)
    assert [one[i] for i in range(len(pairs))] == pairs


def test_a_usual_section_packs_at_four_bytes_an_item() -> None:
    assert len(pack([1000 + i // 4 for i in range(104)])) < 4 * 52 + 8


def test_plain_calls_and_cards_are_shared_and_say_where_they_stood() -> None:
    board = _board()
    auction, play = board.auction, board.play
    assert auction is not None and play is not None
    shared = {id(e) for e in SHARED_ENTRIES} | {id(s) for s in SHARED_SLOTS}
    plain = [e for e in auction.entries if e.annotations.note is None]
    assert all(id(e) in shared for e in plain) and all(id(s) in shared for s in play.slots)
    lines = GAME.split("\n")
    for section, items, words in (
        (auction, auction.entries, ("Pass", "1S", "1NT", "Pass", "3NT", "Pass", "Pass", "Pass")),
        (play, play.slots, ("D2", "D3", "DK", "D4", "C5", "C2", "CA", "C3")),
    ):
        assert len(items) == len(words)
        seen: dict[int, int] = {}
        for i, word in enumerate(words):
            line, column = section.where(i)
            assert line is not None and column is not None
            assert lines[line - 1][column - 1 :].startswith(word)
            seen[line] = column
    assert auction.where(2) == (10, 9)  # 1NT, with its note reference


def test_the_same_call_in_two_boards_is_one_value() -> None:
    forget()  # (the tables start over when full: from empty, these two boards share)
    first, second = bf.loads(GAME + "\n" + GAME.replace('"1"', '"2"'), "pbn").boards
    assert first.auction is not None and second.auction is not None
    for a, b in zip(first.auction.entries, second.auction.entries, strict=True):
        assert a is b  # the noted 1NT too: an annotated entry without commentary is shared
    assert first.tag_pair("Event") is second.tag_pair("Event")


def test_the_same_note_in_two_boards_is_one_value_that_says_where_it_stood() -> None:
    forget()
    first, second = bf.loads(GAME + "\n" + GAME.replace('"1"', '"2"'), "pbn").boards
    assert first.auction is not None and second.auction is not None
    (note,) = first.auction.notes
    assert note is second.auction.notes[0] and (note.index, note.text) == (1, "15-17")
    assert note.line is None  # a shared value: where it stood is on its section
    assert first.auction.note_where(0) == (12, 1) and second.auction.note_where(0) == (28, 1)
    data = json.loads(bf.dumps(bf.loads(GAME, "pbn"), format="json"))["boards"][0]
    assert (data["auction"]["notes"][0]["line"], data["auction"]["notes"][0]["column"]) == (12, 1)
    back = bf.loads(bf.dumps(bf.loads(GAME, "pbn"), format="json"), "json").boards[0]
    assert back == _board().model_copy(update={"source": None})  # (JSON keeps no source)
    assert back.auction is not None
    assert back.auction.notes[0] is note and back.auction.note_where(0) == (12, 1)


def test_a_note_with_more_than_its_text_is_its_own_and_findings_say_where_it_stood() -> None:
    text = GAME.replace("=1= ", "").replace('[Note "1:15-17"]', '[Note "1:15-17"] {strong}')
    board = _board(text)
    assert board.auction is not None
    (note,) = board.auction.notes
    assert note.comments[0].text == "strong" and note is not shared_note(1, "15-17")
    assert note.line is None and board.auction.note_where(0) == (12, 1)
    (unused,) = [d for d in board.diagnostics if "never referred to" in d.message]
    assert (unused.line, unused.column) == (12, 1)
    data = json.loads(bf.dumps(bf.loads(text, "pbn"), format="json"))["boards"][0]
    assert (data["auction"]["notes"][0]["line"], data["auction"]["notes"][0]["column"]) == (12, 1)
    back = bf.loads(bf.dumps(bf.loads(text, "pbn"), format="json"), "json").boards[0]
    assert back.auction == board.auction  # the note built anew, in its place


LIN_GAME = "pn|S,W,N,E|md|3S23456789TJQKA,H23456789TJQKA,D23456789TJQKA,|sv|o|"
LIN_GAME += "mb|1C|mb|p|mb|p|mb|p|pc|SA|pc|H2|pc|D2|pc|C2|\n"


def _defaults_shared(model: BaseModel) -> list[str]:
    """The fields of ``model`` and the models it holds whose value equals a frozen-model
    default but is a copy of it (each is memory a kept board need not hold)."""
    copies: list[str] = []
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        default = field.default
        if isinstance(default, BaseModel) and value == default and value is not default:
            copies.append(f"{type(model).__name__}.{name}")
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, BaseModel):
                copies += _defaults_shared(item)
    return copies


@pytest.mark.parametrize("text, fmt", [(GAME, "pbn"), (LIN_GAME, "lin")], ids=["pbn", "lin"])
def test_a_default_a_board_holds_is_the_default_itself_not_a_copy(text: str, fmt: str) -> None:
    (board,) = bf.loads(text, fmt).boards
    assert board.auction is not None and board.play is not None
    assert board.auction.end_annotations is NO_ANNOTATIONS
    assert _defaults_shared(board) == []
    built = make(Auction, first=Seat.N)  # the readers' way of building: no copy either
    assert built.end_annotations is NO_ANNOTATIONS and built.model_fields_set == {"first"}
    assert built == Auction(first=Seat.N)  # every default as validation gives it
    pair = make(TagPair, name="Board", value="1")
    assert pair == TagPair(name="Board", value="1") and pair.model_fields_set == {"name", "value"}


def test_a_tag_seldom_shared_still_shares_its_name() -> None:
    """Each board's Deal (and Board number) is a tag of its own: its name is one string."""
    first, second = bf.loads(GAME + "\n" + GAME.replace('"1"', '"2"'), "pbn").boards
    for name in ("Deal", "Board"):
        one, two = first.tag_pair(name), second.tag_pair(name)
        assert one is not None and two is not None and one is not two
        assert one.name is two.name


def test_findings_say_where_a_shared_card_stood() -> None:
    revoke = GAME.replace("C5 C2 CA C3", "C5 C2 CA H2")  # South (J95.QJ32.74.9743) has clubs
    report = bf.validate(_board(revoke))
    (found,) = [d for d in report.diagnostics if d.code == "revoke"]
    assert (found.line, found.column) == (15, 10)


def test_json_gives_each_call_card_and_tag_its_place() -> None:
    file = bf.loads(GAME, "pbn")
    data = json.loads(bf.dumps(file, format="json"))["boards"][0]
    assert [(e["line"], e["column"]) for e in data["auction"]["entries"]][:3] == [
        (10, 1), (10, 6), (10, 9)
    ]
    assert (data["play"]["slots"][4]["line"], data["play"]["slots"][4]["column"]) == (15, 1)
    assert (data["tags"][0]["line"], data["tags"][0]["column"]) == (1, 1)
    assert "positions" not in json.dumps(data) and "tag_positions" not in json.dumps(data)
    back = bf.loads(bf.dumps(file, format="json"), "json").boards[0]
    assert back.auction is not None and back.auction.where(2) == (10, 9)
    assert back.tag_where("Deal") == (5, 1)


def test_the_board_schema_does_not_show_the_packing() -> None:
    assert "positions" not in json.dumps(board_schema())


def test_copies_keep_or_drop_their_places_honestly() -> None:
    board = _board()
    scored = board.with_tag("Score", "NS 400")  # a tag appended
    assert scored.tag_where("Deal") == (5, 1) and scored.tag_where("Score") == (None, None)
    changed = board.with_tag("Result", "10")  # a tag changed in its place
    assert changed.tag_where("Result") == (8, 1)
    kept = board.replace(tags=tuple(t for t in board.tags if t.name != "Event"))
    assert kept.tag_where("Deal") == (5, 1)
    auction = board.auction
    assert auction is not None
    shorter = auction.model_copy(update={"entries": auction.entries[:-1]})
    assert shorter.where(0) == (None, None)  # the positions no longer describe the entries


def test_pickled_boards_stay_shared() -> None:
    board = _board()
    back = pickle.loads(pickle.dumps(board))
    assert back == board
    assert back.play is not None and board.play is not None
    assert all(a is b for a, b in zip(back.play.slots, board.play.slots, strict=True))
    assert back.play.where(5) == board.play.where(5)


def test_a_board_built_by_hand_says_where_its_items_say() -> None:
    entry = AuctionEntry(call=Call.parse("1NT"), line=3, column=4)
    auction = Auction(first=Seat.N, entries=(entry,))
    assert auction.where(0) == (3, 4)
    slot = PlayedCard(card=Card.parse("SA"))
    play = Play(first=Seat.W, slots=(slot,))
    assert play.where(0) == (None, None)
    board = Board(tags=(TagPair(name="Board", value="1", line=2, column=1),))
    assert board.tag_where("Board") == (2, 1) and board.tag_where("Deal") == (None, None)
    assert shared_tag("Event", "x") is shared_tag("Event", "x")


def test_a_full_table_starts_over_and_keeps_sharing() -> None:
    table: SharedTable[int, str] = SharedTable(3)
    for key in range(3):
        table.share(key, f"v{key}")
    assert len(table) == 3
    new = table.share(99, "new")  # full: it starts over, and shares what comes now
    assert new == "new" and table.share(99, "other") == "new" and len(table) == 1
    assert table.share(0, "again") == "again"  # forgotten: the value given is kept


def _item_places(board: Board) -> list[tuple[int | None, int | None]]:
    out = [board.tag_where(i) for i in range(len(board.tags))]
    if board.auction is not None:
        out += [board.auction.where(i) for i in range(len(board.auction.entries))]
        out += [board.auction.note_where(i) for i in range(len(board.auction.notes))]
    if board.play is not None:
        out += [board.play.where(i) for i in range(len(board.play.slots))]
        out += [board.play.note_where(i) for i in range(len(board.play.notes))]
    return out


_TOKEN = re.compile(r"\S")


@needs_corpus
@pytest.mark.parametrize(
    "path", files(REAL_PBN, ".pbn") + files(REAL_LIN, ".lin"), ids=lambda p: p.name
)
def test_every_place_on_real_files_is_a_token_of_the_file(path: Path) -> None:
    """On real files, each tag, call and card that has a place points at text of its
    line (the start of a token), and PBN's plain tags, calls and cards have one."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    lines = re.split(r"\r\n|\r|\n", text)
    for board in bf.read(data, format="lin" if path.suffix == ".lin" else "pbn"):
        for line, column in _item_places(board):
            if line is None:
                assert path.suffix == ".lin" or column is None
                continue
            assert column is not None and 1 <= line <= len(lines)
            assert _TOKEN.match(lines[line - 1], column - 1) is not None


def test_an_annotated_entry_found_shared_is_the_one_a_build_gives() -> None:
    """The reader asks the shared tables before it builds an annotated call or card: what
    it finds has every fact the build would give, and a mark that tells two calls apart
    (``^I``, even on a call that is no bid) keeps them apart."""
    forget()
    auction = "[Auction \"N\"]\n1C =1= 1D ! ^I Pass =1= Pass =1=\n"
    play = '[Play "E"]\nD2 =1= D3 ^R D4 =1= D4 =1=\n'
    text = GAME.split("[Auction")[0] + auction + play
    first, second = bf.loads(text + "\n" + text.replace('"1"', '"2"'), "pbn").boards
    assert first.auction is not None and second.auction is not None
    # the reader's look-up finds what the first board left (else every one is built again)
    entries = first.auction.entries
    one_club = Call.parse("1C")
    assert auction_shared(entry_key(EntryKind.CALL, one_club, False, None, 1, ())) is entries[0]
    assert auction_shared(entry_key(EntryKind.CALL, PASS, True, None, 1, ())) is entries[2]
    assert auction_shared(entry_key(EntryKind.CALL, PASS, False, None, 1, ())) is entries[3]
    assert first.play is not None
    d4 = Card.parse("D4")
    assert play_shared(slot_key(Slot.CARD, d4, True, False, None, 1, ())) is first.play.slots[2]
    assert play_shared(slot_key(Slot.CARD, d4, False, False, None, 1, ())) is first.play.slots[3]
    forget()  # built afresh: what the tables give must equal it
    (fresh,) = bf.loads(text, "pbn").boards
    assert fresh.auction is not None and fresh.play is not None
    for a, b, c in zip(first.auction.entries, second.auction.entries, fresh.auction.entries,
                       strict=True):
        assert a is b and a == c
    entries = second.auction.entries
    assert entries[2].insufficient and not entries[3].insufficient
    assert entries[2] is not entries[3]
    assert first.play is not None and second.play is not None
    for x, y, z in zip(first.play.slots, second.play.slots, fresh.play.slots, strict=True):
        assert x == y == z
    slots = second.play.slots  # ^R D4 =1= and D4 =1=: one revoke, one not
    assert slots[2].revoke and not slots[3].revoke and slots[2] is not slots[3]
