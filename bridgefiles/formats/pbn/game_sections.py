"""The sections of a PBN game: Auction and Play (their data read by sections.py after
the tags), Note tags, and the supplemental tables (PBN 6, 7, 11)."""

from __future__ import annotations

from lark import Token

from bridgefiles.formats.pbn import tables as tbl
from bridgefiles.formats.pbn.game_base import SEATS, GameBase
from bridgefiles.formats.pbn.sections import SectionReader
from bridgefiles.formats.pbn.tags import check_value, unescape
from bridgefiles.model.annotations import Comment, Note, shared_note
from bridgefiles.model.board import Table
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.fast import make
from bridgefiles.model.shared import SharedTable
from bridgefiles.model.tags import tag_item

# A Note tag's value, what is to say of it, its number and its Note, by the value as
# written: a file repeats its notes ("1:Stayman" on every board that bids it).
_ReadNote = tuple[str, tuple[tuple[str, Severity, str], ...], int, Note]
_NOTES_READ: SharedTable[str, _ReadNote] = SharedTable(4096)
_KEPT_NOTE = 200  # a longer note is read each time (the table stays small)


def _read_note(raw: str) -> _ReadNote:
    """``[Note "raw"]`` read: its value, the findings (without a place), its number (0
    when it has none) and the Note (shared when written plain, as ``index:text``)."""
    found = _NOTES_READ.get(raw)
    if found is not None:
        return found
    value = unescape(raw)
    said: tuple[tuple[str, Severity, str], ...]
    if raw.startswith("#"):
        said = (("tag-value", Severity.ERROR, "Note may not inherit a value with '#' or '##'"),)
    else:
        said = tuple((code, sev, msg) for code, sev, msg in check_value("Note", value))
    head, colon, text = value.partition(":")
    index = int(head) if colon and head.strip().isdecimal() else 0
    if index and head != str(index):
        index_text_ok = False
    else:
        index_text_ok = bool(colon) and index > 0
    # where the note stood goes to its section's note positions, not on the note
    if index_text_ok and raw == value:
        note = shared_note(index, text)
    else:
        note = make(Note, index=index, text=text if index_text_ok else value, raw=raw, comments=())
    read = (value, said, index, note)
    return _NOTES_READ.share(raw, read) if len(raw) <= _KEPT_NOTE else read


class SectionsPart(GameBase):
    """Auction, Play, Note and table tags of a game, and their data."""

    # -- Auction and Play -------------------------------------------------------------
    def open_section(
        self, name: str, raw: str, line: int, col: int, where: tuple[int, int], items: list[Token]
    ) -> bool:
        seat = SEATS.get(raw.upper()) if len(raw) == 1 else None
        if seat is None:
            if raw.startswith("#"):
                self.problem(
                    "tag-value", f"{name} may not inherit a value with '#' or '##'", *where
                )
            else:
                self.problem("tag-value", f"{name}: {raw!r} is not a seat (W, N, E or S)", *where)
            return False
        tag_comments: list[Comment] = []
        if name == "Auction":
            self.auction_tag = (seat, line, col, tag_comments)
            self.latest = "auction"
        else:
            self.play_tag = (seat, line, col, tag_comments)
            self.latest = "play"
        self.deferred.append(
            lambda: self.read_section(name == "Play", name, line, col, items, tag_comments)
        )
        return True

    def read_section(
        self,
        play: bool,
        name: str,
        line: int,
        col: int,
        items: list[Token],
        tag_comments: list[Comment],
    ) -> None:
        """The data of an Auction or Play section: its calls or cards, with comments."""
        reader = SectionReader(
            play=play,
            problems=self.problems,
            max_tokens=self.limits.max_commands_per_board,
        )
        first_data = True
        for tok in items:
            kind = tok.type
            if kind in ("COMMENT", "LINE_COMMENT"):
                reader.comment(self.comment(tok))
            elif kind == "ESCAPE":
                self.escape(tok)
            else:
                tline, tcol = self.pos(tok)
                if first_data and tcol != 1 and self.state.export:
                    self.not_in_column_one(f"the first token of the {name} section", tline, tcol)
                first_data = False
                reader.take(kind, str(tok), tline, tcol)
        tag_comments.extend(reader.comments)
        reader.finish(line, col)
        if play:
            self.play = reader
        else:
            self.auction = reader

    def note(
        self, raw: str, line: int, col: int, where: tuple[int, int], items: list[Token]
    ) -> None:
        value, found, index, note = _read_note(raw)
        for code, sev, msg in found:
            self.problem(code, msg, *where, sev)
        comments: list[Comment] = []
        stray: list[Token] = []
        for tok in items:
            if tok.type in ("COMMENT", "LINE_COMMENT"):
                comments.append(self.comment(tok))
            elif tok.type == "ESCAPE":
                self.escape(tok)
            else:
                stray.append(tok)
        if comments:
            note = note.model_copy(update={"comments": tuple(comments)})
        if self.latest is None:
            self.problem(
                "note", "Note before any Auction or Play section: kept as a tag", line, col
            )
            pair = self.tag_pair("Note", raw, value, line, col)
            if comments:
                pair = pair.model_copy(update={"comments": tuple(comments)})
                self.tags[-1] = tag_item(pair)
            self.other_items(stray, pair)
            return
        latest = self.latest
        self.deferred.append(lambda: self.section_note(latest, note, index, line, col, stray))

    def section_note(
        self, latest: str, note: Note, index: int, line: int, col: int, stray: list[Token]
    ) -> None:
        """A Note of the Auction or Play section read last (``latest``)."""
        notes = self.auction_notes if latest == "auction" else self.play_notes
        places = self.auction_note_places if latest == "auction" else self.play_note_places
        indices = self.auction_indices if latest == "auction" else self.play_indices
        if index and index in indices:
            self.problem(
                "note",
                f"note {index} given twice in the {latest} section",
                line,
                col,
                Severity.WARNING,
            )
        notes.append(note)
        places += (line, col)
        indices.add(index)
        section = self.auction if latest == "auction" else self.play
        if stray and section is None:
            self.other_items(stray, None, data_error="section data after a Note tag")
        elif stray and section is not None:  # data after a Note continues its section, leniently
            tline, tcol = self.pos(stray[0])
            self.problem("syntax", "section data after a Note tag", tline, tcol, Severity.WARNING)
            for tok in stray:
                section.element(str(tok), *self.pos(tok), rejected=tok.type[0] == "!")

    # -- tables ---------------------------------------------------------------------
    def table(
        self,
        name: str,
        raw: str,
        value: str,
        line: int,
        col: int,
        where: tuple[int, int],
        items: list[Token],
    ) -> None:
        if raw == "#" and name in self.state.table_columns:
            columns = self.state.table_columns[name]
        else:
            columns, found = tbl.parse_columns(value)
            for code, sev, msg in found:
                self.problem(code, f"{name}: {msg}", *where, sev)
        self.state.table_columns[name] = columns
        elements: list[tuple[str, int, int]] = []
        comments: list[Comment] = []
        for tok in items:  # (the grammar takes comments before the first element only)
            kind = tok.type
            if kind in ("ELEMENT", "STRING"):
                elements.append((str(tok), *self.pos(tok)))
            elif kind == "ESCAPE":
                self.escape(tok)
            elif kind in ("!COMMENT", "!LINE_COMMENT"):
                c = self.comment(tok)
                self.problem(
                    "table", "a comment may not follow a table element", c.line or line,
                    c.column or 1,
                )  # fmt: skip
                comments.append(c.model_copy(update={"follows": "element"}))
            elif kind[0] == "!":
                self.passed_over(tok, "table")
            else:
                comments.append(self.comment(tok))
        for element, eline, ecol in elements:
            why = tbl.element_problem(element)
            if why:
                self.problem("table", why, eline, ecol)
        width = len(columns)
        values = [e for e, _, _ in elements]
        if width and len(values) % width:
            eline, ecol = (elements[-1][1], elements[-1][2]) if elements else where
            self.problem(
                "table",
                f"{name}: {len(values)} elements do not fill rows of {width} columns",
                eline,
                ecol,
            )
        rows = tbl.group_rows(values, width)
        if any(c.order for c in columns):
            for r in range(1, len(rows)):
                why = tbl.order_problem(columns, rows[r - 1], rows[r])
                if why:
                    _, eline, ecol = elements[r * width]
                    self.problem("table", f"{name}: {why}", eline, ecol)
        self.tables.append(
            make(
                Table,
                name=name,
                columns=columns,
                rows=rows,
                raw=None if raw == ";".join(c.spec for c in columns) else raw,
                comments=tuple(comments),
                line=line,
                column=col,
            )
        )
