"""No text becomes structure (issue 24, point 4).

A board's strings can come from an untrusted JSON upload. Every writer (PBN, LIN,
JSON) writes each string so that it reads back as the same string in the same place,
or replaces it and says so with a ``lost-in-conversion`` diagnostic: a string never
becomes tags, boards or calls.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from conversion_facts import facts
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import boards

import bridgefiles as bf
from bridgefiles.api import dumps_with_diagnostics
from bridgefiles.formats.convert import LOST
from bridgefiles.model import Annotations, Board, Comment, CommentKind, Note, TagPair

# what ends a structure in one of the formats: PBN's brackets, braces, quotes and
# escapes, line breaks (with '%' or a tag after them), LIN's bar
SPECIALS = ["]", "[", "}", "{", '"', "\\", "\n", "\r\n", "\r", "\n%", "|", ";", "\u2028",
            '\n[Board "666"]\n', '"]\n[Contract "7NT"]\n[Declarer "S', "}\n\n[Event ", "mb|7N|"]
hostile = st.lists(
    st.one_of(
        st.sampled_from(SPECIALS),
        st.text(st.characters(exclude_categories=["Cs"]), max_size=4),
    ),
    max_size=5,
).map("".join)

_LINE_BREAKS = re.compile(r"\r\n?")

# where a hostile string goes, and how to find it again on the board read back
Place = Callable[[Board], Any]


def _note_text(board: Board) -> Any:
    notes = board.auction.notes if board.auction is not None else ()
    return [n.text for n in notes]


def _call_comments(board: Board) -> Any:
    if board.auction is None or not board.auction.entries:
        return None
    return [c.text for c in board.auction.entries[0].annotations.comments]


PLACES: dict[str, Place] = {
    "Event": lambda b: b.tag("Event"),
    "West": lambda b: b.tag("West"),
    "extra tag": lambda b: [(t.name, t.value) for t in b.tags if t.name.startswith("X")],
    "comments": lambda b: [c.text for c in b.comments],
    "notes": _note_text,
    "call comments": _call_comments,
}


# the words a lost-in-conversion message uses for each place
WORDS = {
    "Event": ("event",),
    "West": ("west",),
    "extra tag": ("tag",),
    "comments": ("comment", "nt text"),
    "notes": ("note", "explanation"),
    "call comments": ("comment", "nt text"),
}


def _said(value: Any) -> Any:
    """What a place says: an empty string, or a list of them, says nothing, whether a
    format writes it or leaves it out (LIN has no empty Event to write), and so does the
    "?" that PBN's export writes for a tag nobody knows (PBN 3.3).
    A line break is one whichever of CR LF, CR or LF spells it: text files
    carry any (PBN 3.1), and a reader hands each as a line's end."""
    if isinstance(value, str):
        value = _LINE_BREAKS.sub("\n", value)
    if isinstance(value, list):
        value = [_said(v) for v in value]
        value = [v for v in value if v is not None]
    return None if value in ("", "?") else value or None


def _hostile_board(base: Board, texts: list[str], line_comment: bool) -> Board:
    name, value, raw, comment, note, call_comment = texts
    tags = []
    for t in base.tags:
        if t.name == "Event":
            t = t.model_copy(update={"value": value, "raw": raw or None})
        elif t.name == "West":
            t = t.model_copy(update={"value": name + value})
        tags.append(t)
    tags.append(TagPair(name="X" + name, value=value))
    kind = CommentKind.LINE if line_comment else CommentKind.BRACE
    auction = base.auction
    if auction is not None and auction.entries:
        first = auction.entries[0]
        ann = Annotations(note=99, comments=(Comment(text=call_comment),))
        entries = (first.model_copy(update={"annotations": ann}), *auction.entries[1:])
        auction = auction.model_copy(
            update={"entries": entries, "notes": (Note(index=99, text=note),)}
        )
    return base.replace(tags=tuple(tags), comments=(Comment(text=comment, kind=kind),),
                        auction=auction)


def _as_uploaded(board: Board) -> Board | None:
    """The board as a JSON upload holding it reads (None: the JSON reader refused it)."""
    data = json.loads(bf.dumps([board], format="json"))
    read = bf.loads(json.dumps(data), format="json").boards
    return read[0] if len(read) == 1 else None


def _calls(board: Board) -> list[str]:
    return [c.text for _, c in board.auction.calls()] if board.auction is not None else []


def _check(board: Board, target: str) -> None:
    text, found = dumps_with_diagnostics([board], target)
    back = bf.loads(text, format=target).boards
    assert len(back) == 1, f"{len(back)} boards read back from {target}"
    again = back[0]
    assert again.board_number == board.board_number
    assert _calls(again) == _calls(board)
    assert facts(again) == facts(board)
    placed = again
    if target == "lin":
        # LIN holds commentary as nt records between the calls and cards; its place on the
        # board is where the conversion back to PBN puts it
        text, more = dumps_with_diagnostics([again], "pbn")
        placed = bf.loads(text).boards[0]
        found = [*found, *more]
    said = " ".join(d.message.lower() for d in found if d.code == LOST)
    changed = [name for name, place in PLACES.items()
               if _said(place(placed)) != _said(place(board))]
    unsaid = [name for name in changed if not any(w in said for w in WORDS[name])]
    assert unsaid == [], f"{unsaid} changed in {target} with nothing said of them: {said}"
    if target == "json":
        assert [name for name, place in PLACES.items() if place(again) != place(board)] == []


@settings(max_examples=120)
@given(boards(irregular=False, with_tables=False), st.lists(hostile, min_size=6, max_size=6),
       st.booleans())
def test_no_string_becomes_structure_in_any_writer(
    base: Board, texts: list[str], line_comment: bool
) -> None:
    board = _as_uploaded(_hostile_board(base, texts, line_comment))
    if board is None:
        return
    for target in ("pbn", "lin", "json"):
        _check(board, target)


# -- the four injections of the issue, as a JSON upload sends them --------------------

GAME = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
    '[Contract "3NT"]\n[Declarer "N"]\n[Result "9"]\n{a comment}\n'
    '[Auction "N"]\n3NT =1= Pass Pass Pass\n[Note "1:to play"]\n'
)


def _upload(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(bf.dumps(bf.loads(GAME, format="pbn"), format="json"))
    change(data["boards"][0])
    return json.dumps(data)


def _tag(board: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(t for t in board["tags"] if t["name"] == name)
    return found


INJECTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a comment holding }": lambda b: _tag(b, "Result")["comments"][0].update(
        text='x}\n[Board "666"]\n[Contract "7NT"]\n[Declarer "S"]\n{'
    ),
    "a tag name holding a line break": lambda b: b["tags"].insert(
        0, {"name": 'X "1"]\n[Board "666"]\n[Contract "7NT"]\n[Y', "value": "v"}
    ),
    "a tag's raw field": lambda b: _tag(b, "Board").update(
        raw='1"]\n\n[Board "666"]\n[Contract "7NT"]\n[Declarer "S'
    ),
    "a note text with a line break": lambda b: b["auction"]["notes"][0].update(
        text='x\n\n[Board "666"]\n[Contract "7NT"]\n[Declarer "S"]'
    ),
}


def test_the_four_json_injections_stay_text() -> None:
    for what, change in INJECTIONS.items():
        upload = bf.loads(_upload(change), format="json").boards
        assert len(upload) == 1, what
        text, found = dumps_with_diagnostics(upload, "pbn")
        back = bf.loads(text, format="pbn").boards
        assert [(b.board_number, b.tag("Contract"), b.tag("Declarer")) for b in back] == [
            ("1", "3NT", "N")
        ], what
        assert any(d.code == LOST and d.board == "1" for d in found), what


def test_convert_of_an_injected_upload_says_what_it_changed(tmp_path: Any) -> None:
    source = tmp_path / "upload.json"
    source.write_text(_upload(INJECTIONS["a tag's raw field"]), encoding="utf-8")
    done = bf.convert(source, tmp_path / "out.pbn")
    back = bf.load(tmp_path / "out.pbn").boards
    assert [(b.board_number, b.tag("Contract")) for b in back] == [("1", "3NT")]
    assert any(d.code == LOST and "raw text" in d.message for d in done.diagnostics)
