"""Text a PBN writer cannot write as it stands, made safe and reported (issue 24, point 4).

A board's strings may come from anywhere (a JSON upload, a LIN chat, a program): a
comment holding ``}``, a tag name or note with a line break, a tag's ``raw`` text
would end the structure they sit in, and what follows them would be read back as
tags, boards or calls. :func:`pbn_safe` gives the board with each such string
replaced by one that reads back as text in the same place, and says what it changed:
text never becomes structure (DESIGN invariant 5: never a silent repair).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from bridgefiles.formats.pbn.tags import unescape
from bridgefiles.model.annotations import Annotations, Comment, CommentKind, Note
from bridgefiles.model.auction import Auction, AuctionEntry, EntryKind
from bridgefiles.model.board import Board, Table, TagPair
from bridgefiles.model.calls import Call
from bridgefiles.model.play import Play

# what a PBN reader takes as the end of a line (grammars/pbn.lark and str.splitlines)
_BREAK = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_QUOTED = r'[^"\\\r\n]*(?:\\[^\r\n][^"\\\r\n]*)*'
_RAW = re.compile(_QUOTED)
_ELEMENT = re.compile(rf'"{_QUOTED}"|[^\s\[\]{{}};%"]+')
_TOKEN = re.compile(r"[A-Za-z0-9_][^\s\[\]{};%\"=$^*+]*")
_SUSPECT = re.compile(r'[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029}"\\]')

Say = Callable[[str], None]


def _one_line(text: str) -> str:
    return _BREAKS.sub(" ", text)


def _raw_ok(raw: str, value: str) -> bool:
    """Whether ``raw`` is a quoted PBN value that reads back as ``value``."""
    if _BREAK.search(raw) or not _RAW.fullmatch(raw):
        return False
    if raw == "#":
        return True  # inheritance: the writer checks what it resolves to
    if raw.startswith("##"):
        return unescape(raw[2:]) == value
    return unescape(raw) == value and not raw.startswith("#")


def _comment(c: Comment, where: str, say: Say) -> Comment:
    text = c.text
    if c.kind is CommentKind.BRACE and "}" in text:
        say(f"'}}' in a comment {where} written as ')' (a PBN brace comment ends at '}}')")
        text = text.replace("}", ")")
    if c.kind is CommentKind.LINE and _BREAK.search(text):
        say(f"a line break in a ';' comment {where} written as a space (it ends the line)")
        text = _one_line(text)
    return c if text == c.text else c.model_copy(update={"text": text})


def _comments(comments: tuple[Comment, ...], where: str, say: Say) -> tuple[Comment, ...]:
    if not comments:
        return comments
    return tuple(_comment(c, where, say) for c in comments)


def _annotations(ann: Annotations, where: str, say: Say) -> Annotations:
    update: dict[str, object] = {}
    if ann.comments:
        comments = _comments(ann.comments, where, say)
        if comments != ann.comments:
            update["comments"] = comments
    if ann.explanation is not None and _BREAK.search(ann.explanation):
        say(f"a line break in the explanation of {where} written as a space (a Note is one line)")
        update["explanation"] = _one_line(ann.explanation)
    return ann.model_copy(update=update) if update else ann


def _tag_value(
    text: str,
    raw: str | None,
    comments: tuple[Comment, ...],
    field: str,
    what: str,
    value_of: Callable[[str], str],
    say: Say,
) -> dict[str, object]:
    """The changes a tag pair (a tag, a Note) needs: its text on one line, its raw text
    dropped unless it reads back as its value (``value_of`` the text), its comments."""
    update: dict[str, object] = {}
    if _BREAK.search(text):
        say(f"a line break in {what} written as a space (a tag pair is one line)")
        text = _one_line(text)
        update[field] = text
    if raw is not None and not _raw_ok(raw, value_of(text)):
        say(f"the raw text of {what} does not read back as its value: the value is written")
        update["raw"] = None
    safe = _comments(comments, f"after {what}", say)
    if safe != comments:
        update["comments"] = safe
    return update


def _tag(pair: TagPair, say: Say) -> TagPair | None:
    if not _TAG_NAME.fullmatch(pair.name):
        say(f"tag name {pair.name!r} is not a PBN tag name (letters, digits, '_'): "
            "the tag is not written")
        return None
    update = _tag_value(pair.value, pair.raw, pair.comments, "value", f"the {pair.name} tag",
                        lambda text: text, say)
    # a section's data may run over lines (the reader keeps them joined by line ends):
    # each line must read back as section text, never as a tag, comment or escape
    if pair.section and not all(
        not _BREAK.search(line) and all(_ELEMENT.fullmatch(e) for e in _elements(line))
        for data in pair.section
        for line in data.replace("\r\n", "\n").split("\n")
    ):
        say(f"section data after the {pair.name} tag is not PBN section text: not written")
        update["section"] = ()
    return pair.model_copy(update=update) if update else pair


def _elements(line: str) -> list[str]:
    """A section line's elements: quoted strings (with their blanks) and tokens."""
    return [m.group() for m in re.finditer(rf'"{_QUOTED}"?|\S+', line)]


def _note(note: Note, say: Say) -> Note:
    update = _tag_value(note.text, note.raw, note.comments, "text", f"note {note.index}",
                        lambda text: f"{note.index}:{text}", say)
    return note.model_copy(update=update) if update else note


def _entry(entry: AuctionEntry, n: int, say: Say) -> AuctionEntry:
    where = f"call {n + 1}"
    update: dict[str, object] = {}
    unknown = entry.text if entry.kind is EntryKind.CALL and entry.call is None else None
    if unknown is not None and not _unknown_token_ok(unknown):
        say(f"the unknown call {unknown!r} ({where}) would not read back as one call: "
            "written as '-'")
        update["text"] = None
    ann = _annotations(entry.annotations, where, say)
    if ann is not entry.annotations:
        update["annotations"] = ann
    return entry.model_copy(update=update) if update else entry


def _unknown_token_ok(text: str) -> bool:
    if not _TOKEN.fullmatch(text) or text.upper() == "AP":
        return False
    try:
        Call.parse(text)
    except ValueError:
        return True
    return False  # it would read back as that call


Section = TypeVar("Section", Auction, Play)


def _section(part: Section, name: str, field: str, items: tuple[object, ...], say: Say) -> Section:
    """An Auction or Play section with its ``field`` items, notes, comments and end
    annotations made safe (a copy only when something changed)."""
    changed = {
        field: items,
        "notes": tuple(_note(n, say) for n in part.notes),
        "comments": _comments(part.comments, f"after the {name} tag", say),
        "end_annotations": _annotations(part.end_annotations, f"the {name} section's end", say),
    }
    update = {k: v for k, v in changed.items() if v != getattr(part, k)}
    return part.model_copy(update=update) if update else part


def _auction(auction: Auction, say: Say) -> Auction:
    entries = tuple(_entry(e, i, say) for i, e in enumerate(auction.entries))
    return _section(auction, "Auction", "entries", entries, say)


def _play(play: Play, say: Say) -> Play:
    slots = tuple(
        s.model_copy(update={"annotations": a})
        if (a := _annotations(s.annotations, f"card {i + 1}", say)) is not s.annotations
        else s
        for i, s in enumerate(play.slots)
    )
    return _section(play, "Play", "slots", slots, say)


def _table(table: Table, say: Say) -> Table | None:
    if not _TAG_NAME.fullmatch(table.name) or not all(
        _ELEMENT.fullmatch(e) for row in table.rows for e in row
    ):
        say(f"table {table.name!r} holds text that is not a PBN table: not written")
        return None
    update: dict[str, object] = {}
    if table.raw is not None and (_BREAK.search(table.raw) or not _RAW.fullmatch(table.raw)):
        say(f"the raw header of table {table.name} is not a PBN value: its columns are written")
        update["raw"] = None
    comments = _comments(table.comments, f"in table {table.name}", say)
    if comments != table.comments:
        update["comments"] = comments
    return table.model_copy(update=update) if update else table


def _suspect(board: Board) -> bool:
    """A quick look: whether any string of the board might need :func:`pbn_safe`."""
    all_tags = tuple(board.tags)  # (a row makes its pairs each pass: made once here)
    if board.tables or any(t.raw is not None or t.section for t in all_tags):
        return True
    texts = [t.name + t.value for t in all_tags]
    texts += [c.text for c in board.comments]
    texts += [c.text for t in all_tags for c in t.comments]
    for part in (board.auction, board.play):
        if part is None:
            continue
        texts += [n.text for n in part.notes]
        if any(n.raw is not None or n.comments for n in part.notes) or part.comments:
            return True
        if not part.end_annotations.is_empty:
            return True
    if board.auction is not None:
        for e in board.auction.entries:
            if e.text is not None or e.annotations.comments or e.annotations.explanation:
                return True
    if board.play is not None and any(s.annotations.comments for s in board.play.slots):
        return True
    return any(_SUSPECT.search(t) for t in texts) or any(
        not _TAG_NAME.fullmatch(t.name) for t in all_tags
    )


def pbn_safe(board: Board, say: Say) -> Board:
    """``board`` with every string a PBN reader would not read back in its place made
    safe; ``say`` is told each change."""
    if not _suspect(board):
        return board
    tags = tuple(t for t in (_tag(p, say) for p in board.tags) if t is not None)
    comments = _comments(board.comments, "before the game's tags", say)
    auction = _auction(board.auction, say) if board.auction is not None else None
    play = _play(board.play, say) if board.play is not None else None
    tables = tuple(t for t in (_table(x, say) for x in board.tables) if t is not None)
    if (tags, comments, auction, play, tables) == (
        board.tags, board.comments, board.auction, board.play, board.tables
    ):
        return board
    return board.replace(tags=tags, comments=comments, auction=auction, play=play, tables=tables)


__all__ = ["pbn_safe"]
