"""A board's extras as a compact row (model/extras.py): :class:`Extras` keeps their texts
flat in a tuple and their places packed in an int64 array, reads exactly as the tuple of
its Extras, and the LIN reader and writer keep vugraph and movie commands with it."""

from __future__ import annotations

import json
import pickle
from array import array

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from row_checks import check_reads_as_tuple
from strategies import latin1_text

import bridgefiles as bf
from bridgefiles.formats.lin.tokens import HEADER_POSITION
from bridgefiles.formats.lin.writer import header_extras
from bridgefiles.formats.registry import Layout
from bridgefiles.model.board import Board
from bridgefiles.model.extras import Extra, ExtraRow, Extras

_LOWEST, _HIGHEST = -(2**63), 2**63 - 1  # what int64 holds (the lowest is the row's None)
# places an int64 holds, near each other and at its edges (the lowest int64 is the None
# of a row: one above it is the lowest place a row keeps)
_FITTING = st.one_of(
    st.none(),
    st.integers(-3, 8),
    st.integers(_LOWEST + 1, _HIGHEST),
    st.sampled_from([_LOWEST + 1, _HIGHEST, 0, -1]),
)
# and any place: past int64 either way, or the lowest int64 itself
_ANY = st.one_of(
    _FITTING, st.integers(), st.sampled_from([_LOWEST, _HIGHEST + 1, _LOWEST - 1, 2**64, -(2**80)])
)
_FORMATS = st.one_of(st.sampled_from(["lin", "pbn", ""]), latin1_text)
_KEYS = st.one_of(st.sampled_from(["nt", "at", "pc", "up", "vg"]), latin1_text)


def _extras(place: st.SearchStrategy[int | None]) -> st.SearchStrategy[Extra]:
    return st.builds(
        Extra, format=_FORMATS, key=_KEYS, value=latin1_text, position=place, line=place,
        column=place,
    )  # fmt: skip


_FITTING_EXTRAS = _extras(_FITTING)
_ANY_EXTRAS = _extras(_ANY)


def _fits(place: int | None) -> bool:
    return place is None or _LOWEST < place <= _HIGHEST


def _row(e: Extra) -> ExtraRow:
    return (e.format, e.key, e.value, e.position, e.line, e.column)


@given(st.lists(_FITTING_EXTRAS, max_size=10), st.data())
def test_a_row_reads_exactly_as_the_tuple_of_its_extras(
    extras: list[Extra], data: st.DataObject
) -> None:
    made = Extras.of(extras)
    expected = tuple(extras)
    assert type(made) is Extras
    row = made
    n = len(expected)
    assert len(row) == n and len(row._texts) == len(row._places) == 3 * n
    assert row._places.typecode == "q"
    check_reads_as_tuple(row, expected, (Extra(format="lin", key="nt", value="more"),), data)
    assert [(e.position, e.line, e.column) for e in row] == [
        (e.position, e.line, e.column) for e in extras
    ]  # None stays None, and every int (the lowest int64 but one too) stays itself
    # the rows of the extras' fields give the same row
    rows = [_row(e) for e in extras]
    again = Extras.of_rows(rows)
    assert type(again) is Extras and again == row and hash(again) == hash(row)
    assert again._texts == row._texts and again._places == row._places
    assert Extras.of(row) is row
    # the extras at a position, of a format: as a filter of the tuple gives them
    positions = {e.position for e in extras if e.position is not None}
    asked = positions | {HEADER_POSITION, 0, _LOWEST, _HIGHEST + 1}
    for fmt in {e.format for e in extras} | {"lin", "pbn"}:
        for p in asked:
            want = tuple(e for e in extras if e.position == p and e.format == fmt)
            assert row.at_position(fmt, p) == want


def _at(position: int | None, line: int | None = 1, column: int | None = 1) -> Extra:
    return Extra(format="lin", key="nt", value="x", position=position, line=line, column=column)


@given(st.lists(st.one_of(_FITTING_EXTRAS, _ANY_EXTRAS), max_size=8))
@example([_at(_LOWEST)])
@example([_at(3), _at(None, _LOWEST, None)])
@example([_at(None, None, _LOWEST), _at(_HIGHEST + 1)])
@example([_at(_LOWEST + 1, _HIGHEST, None), _at(-1, 0, None)])
def test_a_place_past_int64_keeps_the_extras_a_tuple(extras: list[Extra]) -> None:
    """``of`` and ``of_rows`` give a row where every place packs, else the tuple of the
    extras; either reads as that tuple, pickles, and the two agree."""
    one = Extras.of(extras)
    two = Extras.of_rows([_row(e) for e in extras])
    packs = all(_fits(p) for e in extras for p in (e.position, e.line, e.column))
    assert type(one) is type(two) is (Extras if packs else tuple)
    assert one == two and two == one and one == tuple(extras) and hash(one) == hash(two)
    assert list(one) == list(two) == extras
    assert [_row(e) for e in two] == [_row(e) for e in extras]  # the lowest int64 too
    if not packs:
        assert all(a is b for a, b in zip(one, extras, strict=True))  # the extras as given
        assert all(type(e) is Extra for e in two)
    back = pickle.loads(pickle.dumps(two))
    assert type(back) is type(two) and back == one


def test_the_lowest_int64_is_a_place_not_none() -> None:
    for field in ("position", "line", "column"):
        lowest = Extra.model_validate({"format": "lin", "key": "nt", "value": "x", field: _LOWEST})
        made = Extras.of([lowest])
        assert type(made) is tuple and made == (lowest,)
        assert getattr(made[0], field) == _LOWEST
        rows = Extras.of_rows([_row(lowest)])
        assert type(rows) is tuple and getattr(rows[0], field) == _LOWEST
        assert rows == (lowest,)
    one_above = Extra(format="lin", key="nt", value="x", position=_LOWEST + 1, line=_HIGHEST)
    row = Extras.of([one_above, Extra(format="lin", key="at", value="y")])
    assert type(row) is Extras
    assert (row[0].position, row[0].line, row[0].column) == (_LOWEST + 1, _HIGHEST, None)
    assert (row[1].position, row[1].line, row[1].column) == (None, None, None)
    assert list(row._places) == [_LOWEST + 1, _HIGHEST, _LOWEST, _LOWEST, _LOWEST, _LOWEST]
    assert row.at_position("lin", _LOWEST) == ()  # (None is not a position)
    assert row.at_position("lin", _LOWEST + 1) == (one_above,)


def test_past_int64_the_extras_stay_a_tuple() -> None:
    big = Extra(format="lin", key="nt", value="x", position=2**63)
    small = Extra(format="lin", key="nt", value="y", line=-(2**63) - 1)
    plain = Extra(format="lin", key="at", value="z", position=3, line=1, column=9)
    for extras in ([big], [plain, small], [plain, big, plain]):
        made = Extras.of(extras)
        assert type(made) is tuple and made == tuple(extras)
    assert type(Extras.of([plain])) is Extras


def test_an_extra_of_a_subclass_keeps_the_extras_a_tuple() -> None:
    class Mine(Extra):
        pass

    mine = Mine(format="lin", key="nt", value="x")
    made = Extras.of([Extra(format="lin", key="at", value="y"), mine])
    assert type(made) is tuple and made[1] is mine


def test_a_row_needs_three_texts_and_three_places_an_extra() -> None:
    with pytest.raises(ValueError, match="three texts and three places"):
        Extras(("lin", "nt"), array("q", [0, 0]))
    with pytest.raises(ValueError, match="three texts and three places"):
        Extras(("lin", "nt", "x"), array("q", [0, 0]))
    row = Extras(("lin", "nt", "x"), array("q", [4, _LOWEST, 7]))
    assert tuple(row) == (Extra(format="lin", key="nt", value="x", position=4, column=7),)
    assert repr(row) == f"Extras({tuple(row)!r})"
    empty = Extras.of([])
    assert type(empty) is Extras and len(empty) == 0 and empty == ()


def test_a_board_holds_its_extras_as_a_row_and_none_as_an_empty_tuple() -> None:
    extras = [Extra(format="lin", key="nt", value="x", position=1, line=2, column=3)]
    board = Board(extras=extras)
    assert type(board.extras) is Extras and board.extras == tuple(extras)
    assert Board(extras=tuple(extras)).extras == board.extras
    assert Board().extras == () and Board(extras=[]).extras == ()
    huge = [Extra(format="lin", key="nt", value="x", position=2**64)]
    assert type(Board(extras=huge).extras) is tuple
    assert Board(extras=huge).extras == tuple(huge)
    dumped = board.model_dump()
    assert type(dumped["extras"]) is tuple and dumped["extras"] == (
        {"format": "lin", "key": "nt", "value": "x", "position": 1, "line": 2, "column": 3},
    )
    changed = board.replace(extras=[*board.extras, Extra(format="lin", key="at", value="y")])
    assert type(changed.extras) is Extras and len(changed.extras) == 2
    assert board.replace(extras=()).extras == ()


def test_a_board_built_from_another_board_s_row_takes_it() -> None:
    (board,) = bf.loads(DEAL_FOUR + "pc|SA|nt|hi|\n", "lin").boards
    row = _extras_of(board)
    assert _places(row) == [("nt", "hi", 5, 2, 7)]
    built = Board(extras=row)
    assert type(built.extras) is Extras and built.extras == row


def test_a_board_takes_its_extras_from_any_iterable_as_before() -> None:
    extras = [Extra(format="lin", key="nt", value="x", position=1)]
    board = Board(extras=(e for e in extras))
    assert type(board.extras) is Extras and board.extras == tuple(extras)


# A vugraph file: a header (vg, rs, pn), two tables of one board, commentary (nt) and an
# alert text (at) among the calls and cards.
DEAL = "md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|sv|o|"
VUGRAPH = (
    "vg|Cup,R1,I,1,2,Alpha,0,Beta,0|\nrs|1CN=,1CN=|\npn|a,b,c,d,e,f,g,h|\n"
    f"qx|o1|st||{DEAL}mb|1C|nt|hello there|mb|p|mb|p|mb|p|at|note^|pg||"
    "pc|S2|nt|second|pc|S6|pc|ST|pc|SA|pg||\n"
    f"qx|c1|st||{DEAL}mb|1C|mb|p|mb|p|mb|p|pg||pc|S2|pc|S6|nt|late|pc|ST|pc|SA|pg||\n"
)
_HEADER = [
    ("vg", "Cup,R1,I,1,2,Alpha,0,Beta,0", -1, 1, 1),
    ("rs", "1CN=,1CN=", -1, 2, 1),
    ("pn", "a,b,c,d,e,f,g,h", -1, 3, 1),
]
_OPEN_EXTRAS = [
    *_HEADER,
    ("nt", "hello there", 1, 4, 81),
    ("at", "note^", 4, 4, 111),
    ("nt", "second", 5, 4, 130),
]
_CLOSED_EXTRAS = [*_HEADER, ("nt", "late", 6, 5, 112)]
# The export layout, as the writer gave it before extras were rows (and gives it now)
_EXPORTED_DEAL = (
    "st||md|3SAKQHAKQDAKQCAKQJ,S5432H5432D5432C2,S9876H9876D9876C3,SJTHJTDJTCT987654|rh||"
    "ah|Board 1|sv|o|"
)
EXPORTED = (
    "vg|Cup,R1,I,1,2,Alpha,0,Beta,0|\nrs|1CN=,1CN=|\npn|a,b,c,d,e,f,g,h|\n"
    f"qx|o1|pn|a,b,c,d|{_EXPORTED_DEAL}mb|1C|nt|hello there|mb|p|mb|p|mb|p|at|note^|pg||"
    "pc|S2|nt|second|pc|S6|pc|ST|pc|SA|pg||\n"
    f"qx|c1|pn|e,f,g,h|{_EXPORTED_DEAL}mb|1C|mb|p|mb|p|mb|p|pg||"
    "pc|S2|pc|S6|nt|late|pc|ST|pc|SA|pg||\n"
)


def _places(extras: object) -> list[tuple[str, str, int | None, int | None, int | None]]:
    assert isinstance(extras, (Extras, tuple))
    return [(e.key, e.value, e.position, e.line, e.column) for e in extras]


def _extras_of(board: Board) -> Extras:
    """The board's row of extras (a LIN reader's board with extras holds one)."""
    extras = board.extras
    assert isinstance(extras, Extras) and type(extras) is Extras
    return extras


def _vugraph() -> tuple[Board, Board]:
    first, second = bf.loads(VUGRAPH, "lin").boards
    return first, second


def test_a_vugraph_board_keeps_its_commands_in_a_row_of_texts_and_places() -> None:
    first, second = _vugraph()
    assert first.diagnostics == () and second.diagnostics == ()
    for board, want in ((first, _OPEN_EXTRAS), (second, _CLOSED_EXTRAS)):
        extras = board.extras
        assert type(extras) is Extras
        assert not hasattr(extras, "__dict__") and Extras.__slots__ == ("_places", "_texts")
        assert all(type(t) is str for t in extras._texts)  # no Extra model held
        assert type(extras._places) is array and extras._places.typecode == "q"
        assert len(extras._texts) == len(extras._places) == 3 * len(want)
        assert _places(extras) == want
        assert all(e.format == "lin" for e in extras)
        assert _places(header_extras(board)) == _HEADER
        assert header_extras(board) == extras.at_position("lin", HEADER_POSITION)
        assert header_extras(board) == extras[:3]
    row = _extras_of(first)
    vg, rs = _HEADER[0][1], _HEADER[1][1]
    assert row._texts[:6] == ("lin", "vg", vg, "lin", "rs", rs)
    assert list(row._places[:3]) == [-1, 1, 1] and list(row._places[9:12]) == [1, 4, 81]
    assert row.at_position("lin", 5) == (row[5],) and row.at_position("lin", 4) == (row[4],)
    assert row.at_position("pbn", 5) == () and row.at_position("lin", 2) == ()
    assert first.tag("Room") == "Open" and second.tag("Room") == "Closed"


def test_a_vugraph_file_writes_back_as_it_was() -> None:
    loaded = bf.loads(VUGRAPH, "lin")
    assert bf.dumps(loaded, "lin", layout="preserve") == VUGRAPH
    assert bf.dumps(loaded, "lin") == EXPORTED
    # the same boards with their extras as a plain tuple write the same text
    as_tuples = [b.model_copy(update={"extras": tuple(b.extras)}) for b in loaded.boards]
    assert all(type(b.extras) is tuple for b in as_tuples)
    assert bf.dumps(as_tuples, "lin") == EXPORTED


def test_a_changed_vugraph_board_still_keeps_its_commentary_and_header() -> None:
    first, second = _vugraph()
    changed = [first.replace(index=0), second.with_tag("Event", "Cup")]
    assert all(b.source is None for b in changed)
    assert type(changed[0].extras) is Extras and changed[0].extras == first.extras
    layouts: tuple[Layout, ...] = ("preserve", "export")
    for layout in layouts:
        text = bf.dumps(changed, "lin", layout=layout)
        assert text == EXPORTED
        assert text.count("vg|") == 1 and text.startswith("vg|Cup,R1,I,1,2,Alpha,0,Beta,0|\n")
        assert "nt|hello there|" in text and "nt|second|" in text and "nt|late|" in text
    again = bf.loads(EXPORTED, "lin").boards
    for before, after in zip((first, second), again, strict=True):
        assert type(after.extras) is Extras
        assert [(k, v, p) for k, v, p, _, _ in _places(after.extras)] == [
            (k, v, p) for k, v, p, _, _ in _places(before.extras)
        ]
    # a board that lost its header extras gets none written
    bare = first.replace(extras=[e for e in first.extras if e.position != HEADER_POSITION])
    assert header_extras(bare) == () and type(bare.extras) is Extras
    text = bf.dumps([bare], "lin")
    assert "rs|" not in text and "nt|hello there|" in text and "at|note^|" in text


def test_a_vugraph_board_s_extras_go_through_json() -> None:
    loaded = bf.loads(VUGRAPH, "lin")
    text = bf.dumps(loaded, "json")
    data = json.loads(text)["boards"]
    assert [e["key"] for e in data[0]["extras"]] == ["vg", "rs", "pn", "nt", "at", "nt"]
    assert data[0]["extras"][3] == {
        "format": "lin", "key": "nt", "value": "hello there", "position": 1, "line": 4,
        "column": 81,
    }  # fmt: skip
    back = bf.loads(text, "json").boards
    for before, after in zip(loaded.boards, back, strict=True):
        assert type(after.extras) is Extras and after.extras == before.extras
        assert tuple(after.tags) == tuple(before.tags)
        assert after == before.model_copy(update={"source": None})
    assert bf.dumps(back, "lin") == EXPORTED


DEAL_FOUR = "md|1SAKQJ,HAKQ,DAKQ,CAKQ|sv|o|mb|1N|mb|p|mb|p|mb|p|\n"


@pytest.mark.parametrize(
    "movie, played, kept",
    [
        (
            "pc|SA|pc|S2|nt|hi|up|1|pc|S3|\n",
            ["SA", "S3"],
            [("pc", "S2", 5, 2, 7), ("nt", "hi", 5, 2, 13), ("up", "1", 5, 2, 19)],
        ),
        (
            "pc|SA|pc|S2|pc|S3|nt|hi|up|2|pc|S4|\n",
            ["SA", "S4"],
            [
                ("pc", "S2", 5, 2, 7),
                ("pc", "S3", 5, 2, 13),
                ("nt", "hi", 5, 2, 19),
                ("up", "2", 5, 2, 25),
            ],
        ),
        (
            "pc|SA|up|1|pc|SK|pc|S2|up|1|nt|x|pc|S5|\n",
            ["SK", "S5"],
            [
                ("pc", "SA", 4, 2, 1),
                ("up", "1", 4, 2, 7),
                ("pc", "S2", 5, 2, 18),
                ("up", "1", 5, 2, 24),
                ("nt", "x", 5, 2, 29),
            ],
        ),
    ],
    ids=["one-back", "two-back", "twice"],
)
def test_cards_taken_back_stay_extras_where_they_stood(
    movie: str, played: list[str], kept: list[tuple[str, str, int, int, int]]
) -> None:
    text = DEAL_FOUR + movie
    (board,) = bf.loads(text, "lin").boards
    assert board.play is not None
    assert [s.card.code for s in board.play.slots if s.card is not None] == played
    assert type(board.extras) is Extras
    assert _places(board.extras) == kept
    assert all(type(t) is str for t in _extras_of(board)._texts)
    lines = text.split("\n")
    for key, value, _, line, column in kept:
        assert lines[line - 1][column - 1 :].startswith(f"{key}|{value}|")
    assert bf.dumps([board], "lin", layout="preserve") == text
    (again,) = bf.loads(bf.dumps([board], "lin"), "lin").boards
    assert again.play is not None and again.play.slots == board.play.slots
    assert [(k, v, p) for k, v, p, _, _ in _places(again.extras)] == [
        (k, v, p) for k, v, p, _, _ in kept
    ]
