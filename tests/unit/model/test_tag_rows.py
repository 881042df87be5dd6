"""A board's tags as a compact row (model/tags.py): :class:`Tags` reads exactly as the
tuple of its TagPairs, keeps a plain tag as its value alone beside a names tuple shared
by the boards of the same tag names, and the readers, copies and JSON keep it so."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_checks import check_reads_as_tuple
from strategies import comment_text, latin1_text, tag_name, tag_value

import bridgefiles as bf
from bridgefiles.model.annotations import Comment
from bridgefiles.model.board import Board
from bridgefiles.model.shared import forget
from bridgefiles.model.tags import TagPair, Tags, shared_tag, shared_value, tag_index

# a few names drawn often, so a row holds a name twice (PBN 2.6: the first one wins)
_NAMES = st.one_of(st.sampled_from(["Event", "Site", "Board", "Deal", "Note", "Result"]), tag_name)
_PLACE = st.one_of(st.none(), st.integers(0, 2**40))
_COMMENTS = st.lists(
    st.builds(Comment, text=comment_text, line=_PLACE, column=_PLACE), max_size=2
).map(tuple)
_PLAIN_PAIRS = st.builds(TagPair, name=_NAMES, value=tag_value)
_ANY_PAIRS = st.builds(
    TagPair,
    name=_NAMES,
    value=tag_value,
    raw=st.one_of(st.none(), latin1_text),
    comments=_COMMENTS,
    section=st.lists(latin1_text, max_size=2).map(tuple),
    line=_PLACE,
    column=_PLACE,
    implied=st.booleans(),
)
_PAIR_LISTS = st.lists(st.one_of(_PLAIN_PAIRS, _ANY_PAIRS), max_size=12)


@given(_PAIR_LISTS, st.data())
def test_a_row_reads_exactly_as_the_tuple_of_its_pairs(
    pairs: list[TagPair], data: st.DataObject
) -> None:
    row = Tags.of(pairs)
    expected = tuple(pairs)
    assert type(row) is Tags
    check_reads_as_tuple(row, expected, (TagPair(name="Score", value="NS 100"),), data)
    assert row.names == tuple(p.name for p in pairs)
    for i, pair in enumerate(pairs):
        assert row.value(i) == pair.value
    for name in {p.name for p in pairs} | {"Nowhere"}:
        first = next((p.value for p in pairs if p.name == name), None)
        assert row.get(name) == first
        assert row.name_index.get(name) == next(
            (i for i, p in enumerate(pairs) if p.name == name), None
        )
    # a plain tag is kept as its value alone, a commented one as its value and comments,
    # any other as its pair
    for item, pair in zip(row._items, pairs, strict=True):
        if pair.plain:
            assert type(item) is str and item == pair.value
        elif pair.commented:
            assert item == (pair.value, pair.comments) and type(item) is tuple
            assert not pair.plain
        else:
            assert item is pair
    back = pickle.loads(pickle.dumps(row))
    assert back.names is row.names  # the names tuple shared again
    assert Tags.of(row) is row
    assert Tags.of(iter(pairs)) == row and Tags.of(iter(pairs)).names is row.names


def test_plain_means_a_name_and_a_value_and_nothing_else() -> None:
    assert TagPair(name="Event", value="x").plain
    for change in (
        {"raw": "x"},
        {"comments": (Comment(text="c"),)},
        {"section": ("row",)},
        {"line": 3},
        {"column": 1},
        {"implied": True},
    ):
        assert not TagPair.model_validate({"name": "Event", "value": "x", **change}).plain


def test_a_row_keeps_a_pair_of_a_subclass_as_it_is() -> None:
    class Mine(TagPair):
        pass

    mine = Mine(name="Event", value="x")
    row = Tags.of([mine, TagPair(name="Site", value="y")])
    assert row._items[0] is mine and row._items[1] == "y"
    assert type(row[0]) is Mine and row[1] is shared_tag("Site", "y")


def test_a_row_needs_a_name_for_each_tag() -> None:
    with pytest.raises(ValueError, match="2 tag names for 1 tags"):
        Tags(("Event", "Site"), ["x"])
    row = Tags(("Event", "Event"), ["x", "y"])
    assert row.get("Event") == "x" and row.value(1) == "y" and row.name_index == {"Event": 0}
    assert row.name_index is tag_index(("Event", "Event"))


def test_rows_of_the_same_names_share_their_names_and_index() -> None:
    one = Tags.of([TagPair(name="Event", value="a"), TagPair(name="Board", value="1")])
    two = Tags(("Event", "Board"), ["b", "2"])
    other = Tags(("Board", "Event"), ["1", "a"])
    assert one.names is two.names and one.name_index is two.name_index
    assert one.names == ("Event", "Board") and other.names != one.names
    assert one != two and one != other and one.get("Board") == "1" and two.get("Board") == "2"
    assert repr(one) == f"Tags({tuple(one)!r})"


GAMES = """[Event "Club"]
[Site "Here"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865"]
[Contract "3NT"]
[Declarer "S"]
[Result "9"]
{a comment}
[Auction "N"]
Pass 1S 1NT Pass
3NT Pass Pass Pass

[Event "Club"]
[Site "Here \\"west\\""]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "E:AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865 K32.A7.8653.KQT2"]
[Contract "3NT"]
[Declarer "S"]
[Result "9"]
[Auction "E"]
Pass 1S 1NT Pass
3NT Pass Pass Pass

[Event "Club"]
[Board "3"]
[Dealer "S"]
[Contract "3NT"]
"""
_NAMES_OF_A_GAME = (
    "Event", "Site", "Board", "Dealer", "Vulnerable", "Deal", "Contract", "Declarer", "Result"
)  # fmt: skip


def _tags(board: Board) -> Tags:
    """The board's row of tags (a reader's board holds one)."""
    tags = board.tags
    assert isinstance(tags, Tags) and type(tags) is Tags
    return tags


def _games() -> tuple[Board, Board, Board]:
    forget()  # (the shared tables start over when full: from empty, these boards share)
    first, second, third = bf.loads(GAMES, "pbn").boards
    return first, second, third


def test_a_pbn_board_keeps_its_plain_tags_as_values() -> None:
    first, second, third = _games()
    for board in (first, second, third):
        assert type(board.tags) is Tags
    assert _tags(first).names == _tags(second).names == _NAMES_OF_A_GAME
    assert _tags(third).names == ("Event", "Board", "Dealer", "Contract")
    # every tag of the first game is plain but the Result, which a comment follows
    items = _tags(first)._items
    assert items[:-1] == (
        "Club", "Here", "1", "N", "None",
        "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865",
        "3NT", "S",
    )  # fmt: skip
    assert all(type(item) is str for item in items[:-1])
    result = items[-1]  # kept as its value and comments: no TagPair held
    assert isinstance(result, tuple) and result[0] == "9"
    assert [c.text for c in result[1]] == ["a comment"]
    pair = first.tag_pair("Result")
    assert first.tag("Result") == "9" and pair is not None and pair.comments == result[1]
    assert pair == TagPair(name="Result", value="9", comments=result[1]) and pair.commented
    # the second game's Site is escaped: kept as its pair, with the value as written
    site = _tags(second)._items[1]
    assert isinstance(site, TagPair) and site.name == "Site"
    assert (site.value, site.raw) == ('Here "west"', 'Here \\"west\\"')
    assert second.tag("Site") == 'Here "west"'
    assert [type(item) for item in _tags(second)._items].count(str) == len(_NAMES_OF_A_GAME) - 1
    assert all(type(item) is str for item in _tags(third)._items)
    # the tags read as pairs: a plain one is the shared pair of its name and value
    assert first.tags[0] is shared_tag("Event", "Club") and first.tag_pair("Event") == TagPair(
        name="Event", value="Club"
    )
    assert [t.value for t in first.tags][:3] == ["Club", "Here", "1"]


def test_boards_share_repeated_values_and_their_names() -> None:
    first, second, third = _games()
    assert _tags(first).names is _tags(second).names  # one tuple for the same names
    assert _tags(first).names is not _tags(third).names
    assert _tags(first).name_index is _tags(second).name_index
    one, two, three = _tags(first)._items, _tags(second)._items, _tags(third)._items
    names = _NAMES_OF_A_GAME
    for name in ("Event", "Contract", "Declarer"):
        at = names.index(name)
        assert one[at] == two[at] and one[at] is two[at]  # one string for the value
    assert one[0] is three[0] and one[names.index("Contract")] is three[3]
    assert one[names.index("Board")] == "1" and two[names.index("Board")] == "2"


def test_tag_where_says_where_each_tag_stood() -> None:
    first, second, third = _games()
    lines = GAMES.split("\n")
    for board in (first, second, third):
        assert len(board.tags) == len(_tags(board).names)
        for i, name in enumerate(_tags(board).names):
            line, column = board.tag_where(i)
            assert line is not None and column == 1
            assert lines[line - 1].startswith(f"[{name} ")
            assert board.tag_where(name) == (line, column)
    assert first.tag_where("Result") == (9, 1)
    assert second.tag_where("Event") == (15, 1) and second.tag_where("Site") == (16, 1)
    assert third.tag_where("Contract") == (31, 1) and third.tag_where("Site") == (None, None)


def test_copies_keep_the_places_of_the_tags_they_keep_and_stay_rows() -> None:
    first, second, _ = _games()
    changed = first.with_tag("Contract", "4S")  # changed in its place
    assert type(changed.tags) is Tags and changed.tag("Contract") == "4S"
    assert changed.tag_where("Contract") == (7, 1) and changed.tag_where("Deal") == (6, 1)
    assert _tags(changed)._items[6] == "4S"  # still a plain tag: its value alone
    assert _tags(changed).names is _tags(first).names
    assert first.tag("Contract") == "3NT"  # the board itself unchanged
    scored = first.with_tag("Score", "NS 400")  # appended, with no place
    assert type(scored.tags) is Tags and _tags(scored).names == (*_NAMES_OF_A_GAME, "Score")
    assert scored.tag_where("Score") == (None, None) and scored.tag_where("Result") == (9, 1)
    assert scored.tag("Score") == "NS 400" and _tags(scored)._items[-1] == "NS 400"
    noted = first.with_tag("Result", "10")  # a tag with a comment keeps it
    result = noted.tag_pair("Result")
    assert (
        result is not None and result.value == "10" and result.comments == (first.tags[-1].comments)
    )
    assert noted.tag_where("Result") == (9, 1)
    kept = second.replace(tags=[t for t in second.tags if t.name not in ("Event", "Dealer")])
    assert type(kept.tags) is Tags and kept.source is None
    assert _tags(kept).names == tuple(n for n in _NAMES_OF_A_GAME if n not in ("Event", "Dealer"))
    assert [kept.tag_where(i) for i in range(len(kept.tags))] == [
        (16, 1), (17, 1), (19, 1), (20, 1), (21, 1), (22, 1), (23, 1)
    ]  # fmt: skip
    assert isinstance(_tags(kept)._items[0], TagPair)  # the escaped Site, still its pair
    assert all(type(item) is str for item in _tags(kept)._items[1:])
    moved = second.replace(tags=(second.tags[2], second.tags[0], TagPair(name="X", value="y")))
    assert type(moved.tags) is Tags
    assert [moved.tag_where(i) for i in range(3)] == [(17, 1), (15, 1), (None, None)]


def test_a_board_validates_a_list_or_tuple_of_pairs_into_a_row() -> None:
    pairs = [TagPair(name="Board", value="7"), TagPair(name="Note", value="x", line=2, column=1)]
    for given_tags in (pairs, tuple(pairs)):
        board = Board(tags=given_tags)
        assert type(board.tags) is Tags and board.tags == tuple(pairs)
        assert _tags(board)._items[0] == "7" and _tags(board)._items[1] is pairs[1]
        assert board.tag("Board") == "7" and board.tag_where("Note") == (2, 1)
    assert Board().tags == () and len(Board().tags) == 0
    dumped = Board(tags=pairs).model_dump()
    assert type(dumped["tags"]) is tuple and dumped["tags"][0] == {
        "name": "Board", "value": "7", "raw": None, "comments": (), "section": (),
        "line": None, "column": None, "implied": False,
    }  # fmt: skip


def test_a_board_built_from_another_board_s_row_takes_it() -> None:
    first, _, _ = _games()
    board = Board(tags=first.tags)
    assert type(board.tags) is Tags and board.tags == first.tags
    assert Board.model_validate({"tags": first.tags}).tag("Event") == "Club"


def test_a_board_takes_its_tags_from_any_iterable_as_before() -> None:
    pairs = [TagPair(name="Board", value="7"), TagPair(name="Event", value="x")]
    board = Board(tags=(p for p in pairs))
    assert type(board.tags) is Tags and board.tags == tuple(pairs)


def test_json_round_trip_gives_the_same_boards() -> None:
    boards = _games()
    text = bf.dumps(list(boards), "json")
    found = json.loads(text)["boards"]
    back = bf.loads(text, "json").boards
    assert len(found) == len(back) == 3
    for board, data, again in zip(boards, found, back, strict=True):
        assert "extras" not in data  # none: the key is left out, as a tuple's would be
        assert [t["name"] for t in data["tags"]] == list(_tags(board).names)
        assert [(t["line"], t["column"]) for t in data["tags"]] == [
            board.tag_where(i) for i in range(len(board.tags))
        ]
        assert type(again.tags) is Tags and tuple(again.tags) == tuple(board.tags)
        assert (
            _tags(again)._items == _tags(board)._items and _tags(again).names is _tags(board).names
        )
        assert again == board.model_copy(update={"source": None})  # (JSON keeps no source)
        assert [again.tag_where(i) for i in range(len(again.tags))] == [
            board.tag_where(i) for i in range(len(board.tags))
        ]
    assert found[0]["tags"][-1]["comments"][0]["text"] == "a comment"
    assert found[1]["tags"][1]["raw"] == 'Here \\"west\\"'


LIN = (
    "pn|S,W,N,E|st||md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|rh||"
    "ah|Board 1|sv|o|mb|1C|mb|p|mb|p|mb|p|pg||\n"
)


def test_a_lin_board_keeps_every_tag_as_its_value() -> None:
    forget()
    first, second = bf.loads(LIN + LIN.replace("Board 1", "Board 2"), "lin").boards
    for board in (first, second):
        assert type(board.tags) is Tags
        assert all(type(item) is str for item in _tags(board)._items)
        assert _tags(board).names == (
            "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
            "Declarer", "Contract",
        )  # fmt: skip
    assert _tags(first)._items == (
        "1", "W", "N", "E", "S", "N", "None",
        "N:9876.9876.9876.3 JT.JT.JT.T987654 AKQ.AKQ.AKQ.AKQJ 5432.5432.5432.2", "N", "1C",
    )  # fmt: skip
    assert second.tag("Board") == "2" and second.board_number == "2"
    assert _tags(first).names is _tags(second).names
    for at in range(1, 7):  # players, dealer, vulnerability: one string each
        assert _tags(first)._items[at] is _tags(second)._items[at]
    assert _tags(first)._items[1] is shared_value("West", "W")
    assert first.tag_where("Deal") == (None, None)  # LIN's tags have no place of their own
    assert first.tag_pair("Contract") is shared_tag("Contract", "1C")


def test_lin_boards_share_the_values_they_repeat() -> None:
    """Each value LIN gives is a string read anew from its command: the reader hands the
    row one string for the players (and Event, Scoring...) every board repeats."""
    forget()
    text = "".join(
        LIN.replace("pn|S,W,N,E|", "pn|Smith,Jones,Brown,Green|").replace("Board 1", f"Board {n}")
        for n in (1, 2)
    )
    first, second = bf.loads(text, "lin").boards
    one, two = _tags(first), _tags(second)
    assert one.names is two.names
    players = [one.names.index(name) for name in ("South", "West", "North", "East")]
    assert [one.value(at) for at in players] == ["Smith", "Jones", "Brown", "Green"]
    for at in players:
        assert one._items[at] == two._items[at] and one._items[at] is two._items[at]
    assert one._items[players[1]] is shared_value("West", "Jones")
    assert one.get("Board") == "1" and two.get("Board") == "2"
