"""Reads PBN games into Board models, one game at a time (DESIGN: streaming).

The line stream is split into games (split.py), each game is parsed by the
Lark LALR grammar into coarse tokens (grammar.py, transform.py), and this module
gives them meaning: identification tags, the Auction and Play sections with
their notes (sections.py), tables (tables.py), commentary with its attachment,
and ``#``/``##`` inheritance. Every problem becomes a diagnostic on its board;
the next game is read whatever happened to this one.

``#`` and ``##`` policy (PBN 2.9; we follow the reference verifier):

* ``"##text"``: the value is ``text`` and becomes the default of the tag for the
  games that follow. A later game without the tag gets it as an *implied*
  TagPair (``implied=True``, no line), which writers leave out.
* ``"#"``: the value is the current default if one is active, else the value of
  the same tag in the nearest earlier game that had one, else ``""`` (with an
  info). It also ends the default, as the verifier's ``[Hidden "#"]`` shows.
* A plain value ends the default: later games no longer inherit it.

``TagPair.value`` is always the resolved value; ``TagPair.raw`` keeps what was
written. ``#`` or ``##`` on Dealer, Vulnerable, Deal, Declarer, Contract,
Auction, Play or Note is a ``tag-value`` error and is not resolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.decode import text_lines
from bridgefiles.formats.pbn import tables as tbl
from bridgefiles.formats.pbn.lexer import Lexeme, lex_game
from bridgefiles.formats.pbn.sections import SectionReader
from bridgefiles.formats.pbn.split import RawGame, split_games
from bridgefiles.formats.pbn.tags import (
    EXTENSIONS,
    KNOWN,
    NO_INHERITANCE,
    TABLES,
    TAG_NAME,
    TAG_PAIR,
    check_deal,
    check_value,
    unescape,
)
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.limits import DEFAULT_LIMITS, Limits, limit_diagnostic
from bridgefiles.model.annotations import Comment, CommentKind, Note
from bridgefiles.model.auction import Auction
from bridgefiles.model.board import Board, Column, EscapeLine, Table, TagPair
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.fast import construct, make, shared_fields
from bridgefiles.model.play import Play
from bridgefiles.model.seats import Seat

_SEATS = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}
Problem = tuple[str, Severity, str, int, int]
# Known tags that are not plain identification tags: the general path reads them.
_PLAIN_TAGS = KNOWN - {"Auction", "Play", "Note", *TABLES}
_TAG_SET = shared_fields({"name", "value", "raw", "line", "column"})


@dataclass
class _FileState:
    """What one game passes on to the next: ``##`` defaults and last values."""

    defaults: dict[str, str] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    table_columns: dict[str, tuple[Column, ...]] = field(default_factory=dict)
    export: bool = False  # the file says "% EXPORT": its layout is checked against pbn.md 3


def _newline(text: str) -> str | None:
    i = text.find("\n")
    j = text.find("\r")
    if j >= 0 and (i < 0 or j < i):
        return "\r\n" if text[j + 1 : j + 2] == "\n" else "\r"
    return "\n" if i >= 0 else None


def read_pbn(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The registry's reader: boards one at a time; file-level facts go into ``info``."""
    state = _FileState()
    index = 0
    limits = options.limits
    splits = split_games(lines, options.max_line_length, limits.max_comment_size, options.strict)
    for part in splits:
        text = part.game.text
        if info.newline is None:
            info.newline = _newline(text)
        if part.kind == "preamble":
            info.preamble = text
            info.directives = _escape_lines(part.game, limits, options.path, info)
            state.export = any(d.text.strip().upper() == "EXPORT" for d in info.directives)
            continue
        if part.kind == "trailer":
            info.trailer = text
            info.diagnostics.extend(_diagnostics(part.game.problems, options.path, None))
            continue
        if options.max_boards is not None and index >= options.max_boards:
            info.diagnostics.append(
                Diagnostic(
                    code="limit",
                    severity=Severity.ERROR,
                    message=f"more than {options.max_boards} boards; the rest is not read",
                    line=part.game.first_line,
                    path=options.path,
                )
            )
            return
        board = GameReader(part.game, index, state, options.path, limits).board()
        if options.strict:
            for d in board.diagnostics:
                if d.severity is Severity.ERROR:
                    raise StrictModeError(d.format(), d)
        yield board
        index += 1


def _escape_lines(
    game: RawGame, limits: Limits, path: str | None, info: FileInfo
) -> list[EscapeLine]:
    """The ``%`` lines before the first game, as directives: at most
    ``max_commands_per_board`` of them become models (the text is kept whole anyway)."""
    out: list[EscapeLine] = []
    most = limits.max_commands_per_board
    for i, line in enumerate(text_lines(game.text)):
        if line.startswith("%"):
            if most is not None and len(out) >= most:
                info.diagnostics.append(
                    limit_diagnostic(
                        "max_commands_per_board",
                        most,
                        "the escape lines before the first game",
                        "the rest are kept as text but not read as directives",
                        line=game.first_line + i,
                        path=path,
                    )
                )
                break
            out.append(make(EscapeLine, text=line[1:].rstrip("\r\n"), line=game.first_line + i))
    return out


def _diagnostics(problems: list[Problem], path: str | None, board: str | None) -> list[Diagnostic]:
    return [
        make(
            Diagnostic,
            code=code,
            severity=sev,
            message=msg,
            law=None,
            line=line,
            column=col,
            trick=None,
            seat=None,
            path=path,
            board=board,
        )
        for code, sev, msg, line, col in problems
    ]


class GameReader:
    """Reads one game's tokens into a Board."""

    def __init__(
        self,
        game: RawGame,
        index: int,
        state: _FileState,
        path: str | None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.limits = limits
        self.tag_count = 0
        self.first_tag_line: int | None = None
        self.game = game
        self.index = index
        self.state = state
        self.path = path
        self.offset = game.first_line - 1
        self.problems: list[Problem] = list(game.problems)
        self.tags: list[TagPair] = []
        self.seen: set[str] = set()
        self.comments: list[Comment] = []
        self.escapes: list[EscapeLine] = []
        self.tables: list[Table] = []
        self.auction: SectionReader | None = None
        self.play: SectionReader | None = None
        self.auction_tag: tuple[Seat, int, int, list[Comment]] | None = None
        self.play_tag: tuple[Seat, int, int, list[Comment]] | None = None
        self.auction_notes: list[Note] = []
        self.auction_indices: set[int] = set()
        self.play_indices: set[int] = set()
        self.play_notes: list[Note] = []
        self.latest: str | None = None  # "auction" or "play": where Note tags go

    def problem(
        self, code: str, message: str, line: int, column: int, severity: Severity = Severity.ERROR
    ) -> None:
        self.problems.append((code, severity, message, line, column))

    def not_in_column_one(self, what: str, line: int, column: int) -> None:
        """Export format starts each tag, and a section's first token, on a new line
        (pbn.md 3 and 12.6; the verifier's "No new line")."""
        self.problem(
            "syntax",
            f"{what} does not start in column 1, as the export format the file "
            "declares ('% EXPORT') requires",
            line,
            column,
            Severity.WARNING,
        )

    # -- the game ---------------------------------------------------------------------
    def board(self) -> Board:
        text = self.game.text
        parse_text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        lead, sections, cut = lex_game(parse_text, self.limits.max_commands_per_board)
        if cut is not None:
            self.problem(
                "limit",
                "the game's tokens (tags, comments, escape lines, section runs) go over the "
                f"limit max_commands_per_board={self.limits.max_commands_per_board:,}; the "
                "rest of the game is not read (raise it with Limits(max_commands_per_board=...))",
                self.offset + cut[0],
                cut[1],
            )
        for tok in lead:
            self.lead_item(tok)
        if sections:
            self.first_tag_line = self.pos(sections[0][0])[0]
        limits = self.limits
        max_tags = limits.max_tags_per_game
        max_value = limits.max_value_length
        for tags_tok, items in sections:
            run = self.tag_run(tags_tok)
            last = len(run) - 1
            for i, (name, written, line, col, vline, vcol) in enumerate(run):
                if col != 1 and self.state.export:
                    self.not_in_column_one(f"tag {name}", line, col)
                if (
                    max_tags is not None
                    and max_value is not None
                    and self.tag_count < max_tags
                    and len(written) <= max_value
                ):
                    self.tag_count += 1  # within both limits: what within_limits would say
                    raw = written
                else:
                    kept = self.within_limits(name, written, line, col, vline, vcol)
                    if kept is None:
                        continue
                    raw = kept
                if i == last and items:
                    self.section(name, raw, line, col, vline, vcol, items)
                elif not self.simple_tag(name, raw, line, col, vline, vcol):
                    self.section(name, raw, line, col, vline, vcol, [])
        self.finish()
        return self.build(text)

    def pos(self, tok: Lexeme) -> tuple[int, int]:
        return self.offset + (tok.line or 1), tok.column or 1

    def comment(self, tok: Lexeme) -> Comment:
        line, col = self.pos(tok)
        text = str(tok)
        if text.startswith(";"):
            return make(
                Comment, text=text[1:], kind=CommentKind.LINE, line=line, column=col, follows=None
            )
        if text.endswith("}"):
            body = text[1:-1]
        else:  # it runs to the end of the game: the game's closing blank lines are not its text
            body = re.sub(r"(?:\n[ \t\v\f]*)+\Z", "", text[1:])
            self.problem(
                "syntax", "comment '{' is not closed before the end of the game", line, col
            )
        return make(Comment, text=body, kind=CommentKind.BRACE, line=line, column=col, follows=None)

    def escape(self, tok: Lexeme) -> None:
        line, _ = self.pos(tok)
        self.escapes.append(make(EscapeLine, text=str(tok)[1:], line=line))

    def junk(self, tok: Lexeme) -> None:
        line, col = self.pos(tok)
        text = str(tok)
        if tok.type == "BADTAG":
            body = text[1:].rstrip("]").strip()
            if '"' not in body:
                msg = (
                    "tag pair has no value"
                    if re.fullmatch(r"[A-Za-z0-9_]*", body)
                    else "tag value is not a quoted string"
                )
            elif body.count('"') % 2 == 1 or not text.endswith("]"):
                msg = "tag pair not closed: the string or ']' is missing on this line"
            else:
                msg = 'tag pair is not [Name "value"]'
            self.problem("syntax", f"{msg}: {text.strip()[:40]!r} skipped", line, col)
        else:
            self.problem("syntax", f"unexpected character {text!r}", line, col)

    def lead_item(self, tok: Lexeme) -> None:
        kind = tok.type
        if kind in ("BRACE_COMMENT", "LINE_COMMENT"):
            self.comments.append(self.comment(tok))
        elif kind == "ESCAPE":
            self.escape(tok)
        elif kind == "DATA":
            line, col = self.pos(tok)
            self.problem(
                "syntax", f"text before the first tag: {str(tok).split()[0][:20]!r}", line, col
            )
        else:
            self.junk(tok)

    # -- a tag and what follows it ------------------------------------------------------
    def tag_run(self, tok: Lexeme) -> list[tuple[str, str, int, int, int, int]]:
        """Each tag pair of a TAGS token: name, raw value, line, column, value line, column."""
        text = str(tok)
        line, col = self.pos(tok)
        out = []
        if "\n" not in text:  # tags on one line
            for m in TAG_PAIR.finditer(text):
                out.append((m[1], m[2], line, col + m.start(), line, col + m.start(2) - 1))
            return out
        line_start = -col + 1  # offset of the (virtual) start of the token's first line
        prev = 0
        for m in TAG_PAIR.finditer(text):
            start, quote = m.start(), m.start(2) - 1
            newlines = text.count("\n", prev, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", prev, start) + 1
            tline, tcol = line, start - line_start + 1
            inner = text.count("\n", start, quote)
            if inner:
                vline, vcol = line + inner, quote - text.rfind("\n", start, quote)
            else:
                vline, vcol = line, quote - line_start + 1
            out.append((m[1], m[2], tline, tcol, vline, vcol))
            prev = start
        return out

    def within_limits(
        self, name: str, raw: str, line: int, col: int, vline: int, vcol: int
    ) -> str | None:
        """The value to read (cut at max_value_length), or None past max_tags_per_game."""
        limits = self.limits
        self.tag_count += 1
        if limits.exceeded("max_tags_per_game", self.tag_count):
            if self.tag_count == (limits.max_tags_per_game or 0) + 1:
                d = limits.check(
                    "max_tags_per_game",
                    self.tag_count,
                    what="a game's tag count",
                    consequence="the tags after it are not read",
                )
                if d is not None:
                    self.problem(d.code, d.message, line, col)
            return None
        if limits.exceeded("max_value_length", len(raw)):
            d = limits.check(
                "max_value_length",
                len(raw),
                what=f"the value of tag {name}",
                consequence="the rest of it is not read",
            )
            if d is not None:
                self.problem(d.code, d.message, vline, vcol)
            raw = raw[: limits.max_value_length]
        return raw

    def simple_tag(self, name: str, raw: str, line: int, col: int, vline: int, vcol: int) -> bool:
        """The common case, done quickly: a known identification tag seen for the first time,
        with a plain value. False when the general path must take it."""
        if name not in _PLAIN_TAGS or name in self.seen or raw[:1] == "#" or "\\" in raw:
            return False
        self.seen.add(name)
        state = self.state
        if state.defaults:
            state.defaults.pop(name, None)
        state.last[name] = raw
        if "\t" in raw:
            self.problem("syntax", "tab inside a string", vline, vcol)
        if name == "Deal":
            found = tuple(check_deal(raw)) if raw not in ("", "?") else ()
        else:
            found = check_value(name, raw)
        for code, sev, msg in found:
            self.problems.append((code, sev, f"{name}: {msg}", vline, vcol))
        self.tags.append(
            construct(
                TagPair,
                {
                    "name": name,
                    "value": raw,
                    "raw": None,
                    "comments": (),
                    "section": (),
                    "line": line,
                    "column": col,
                    "implied": False,
                },
                _TAG_SET,  # what make() would record
            )
        )
        return True

    def section(
        self, name: str, raw: str, line: int, col: int, vline: int, vcol: int, items: list[Lexeme]
    ) -> None:
        name_col = col + 1
        if not name:
            self.problem("syntax", "tag pair has no name", line, col)
            self.other_items(items, None)
            return
        if name not in KNOWN and not TAG_NAME.fullmatch(name):
            self.problem(
                "syntax", f"tag name {name!r} must start with a capital letter", line, name_col
            )
        if "\t" in raw:
            self.problem("syntax", "tab inside a string", vline, vcol)
        where = (vline, vcol)
        if name == "Play" and raw == "" and name not in self.seen:
            # [Play ""]: no play recorded, as the verifier reads it (not a section)
            self.seen.add(name)
            self.other_items(items, self.tag_pair(name, raw, raw, line, col))
            return
        if name in ("Auction", "Play") and name not in self.seen:
            self.seen.add(name)
            if self.open_section(name, raw, line, col, where, items):
                return
            pair = self.tag_pair(name, raw, raw, line, col)
            self.other_items(items, pair, data_error="section not read: its tag is unreadable")
            return
        if name == "Note":
            self.note(raw, line, col, where, items)
            return
        if name in self.seen:
            self.problem(
                "duplicate-tag",
                f"tag {name} repeated; the first one is used",
                line,
                name_col,
                Severity.WARNING,
            )
            pair = self.tag_pair(name, raw, unescape(raw), line, col)
            self.other_items(items, pair, keep_quiet=True)
            return
        self.seen.add(name)
        value = self.resolve(name, raw, where)
        if name in TABLES:
            self.table(name, raw, value, line, col, where, items)
            return
        if name not in KNOWN:
            what = "a known extension, not" if name in EXTENSIONS else "not"
            self.problem(
                "unknown-tag", f"tag {name} is {what} part of PBN", line, name_col, Severity.INFO
            )
        elif not (raw.startswith("#") and name in NO_INHERITANCE):
            self.check(name, value, where)
        pair = self.tag_pair(name, raw, value, line, col)
        self.other_items(items, pair, keep_quiet=name not in KNOWN)

    def check(self, name: str, value: str, where: tuple[int, int]) -> None:
        if name == "Deal" and value not in ("", "?"):
            found = tuple(check_deal(value))
        else:
            found = check_value(name, value)
        for code, sev, msg in found:
            self.problem(code, f"{name}: {msg}", where[0], where[1], sev)

    def resolve(self, name: str, raw: str, where: tuple[int, int]) -> str:
        """The value in use, with ``#``/``##`` resolved (see the module docstring)."""
        if not raw.startswith("#"):
            value = unescape(raw)
            self.state.defaults.pop(name, None)
            self.state.last[name] = value
            return value
        if name in NO_INHERITANCE:
            self.problem("tag-value", f"{name} may not inherit a value with '#' or '##'", *where)
            return unescape(raw)
        if raw.startswith("##"):
            value = unescape(raw[2:])
            self.state.defaults[name] = value
        elif raw == "#":
            if name in self.state.defaults:
                value = self.state.defaults.pop(name)
            elif name in self.state.last:
                value = self.state.last[name]
            else:
                value = ""
                self.problem(
                    "tag-value", f'{name} "#": no earlier game gives a value', *where, Severity.INFO
                )
        else:
            value = unescape(raw)
        self.state.last[name] = value
        return value

    def tag_pair(self, name: str, raw: str, value: str, line: int, col: int) -> TagPair:
        pair = make(
            TagPair,
            name=name,
            value=value,
            raw=None if raw == value else raw,
            comments=(),
            section=(),
            line=line,
            column=col,
            implied=False,
        )
        self.tags.append(pair)
        return pair

    def other_items(
        self,
        items: list[Lexeme],
        pair: TagPair | None,
        *,
        keep_quiet: bool = False,
        data_error: str | None = None,
    ) -> None:
        """Comments, escapes and section data after an identification tag."""
        comments: list[Comment] = []
        data: list[str] = []
        for tok in items:
            kind = tok.type
            if kind in ("BRACE_COMMENT", "LINE_COMMENT"):
                comments.append(self.comment(tok))
            elif kind == "ESCAPE":
                self.escape(tok)
            elif kind == "DATA":
                data.append(str(tok).rstrip())
                if not keep_quiet or data_error:
                    line, col = self.pos(tok)
                    msg = data_error or "text after a tag that has no section data"
                    self.problem("syntax", f"{msg}: {str(tok).split()[0][:20]!r}", line, col)
            else:
                self.junk(tok)
        if pair is not None and (comments or data):
            updated = pair.model_copy(update={"comments": tuple(comments), "section": tuple(data)})
            # the pair is the tag just read, so it is the last one (no search: linear time)
            at = (
                len(self.tags) - 1 if self.tags and self.tags[-1] is pair else self.tags.index(pair)
            )
            self.tags[at] = updated

    # -- Auction and Play -------------------------------------------------------------
    def open_section(
        self, name: str, raw: str, line: int, col: int, where: tuple[int, int], items: list[Lexeme]
    ) -> bool:
        seat = _SEATS.get(raw.upper()) if len(raw) == 1 else None
        if seat is None:
            if raw.startswith("#"):
                self.problem(
                    "tag-value", f"{name} may not inherit a value with '#' or '##'", *where
                )
            else:
                self.problem("tag-value", f"{name}: {raw!r} is not a seat (W, N, E or S)", *where)
            return False
        reader = SectionReader(
            play=name == "Play",
            problems=self.problems,
            max_tokens=self.limits.max_commands_per_board,
        )
        tag_comments: list[Comment] = []
        first_data = True
        for tok in items:
            kind = tok.type
            if kind == "DATA":
                tline, tcol = self.pos(tok)
                if first_data and tcol != 1 and self.state.export:
                    self.not_in_column_one(f"the first token of the {name} section", tline, tcol)
                first_data = False
                reader.data(str(tok), tline, tcol)
            elif kind in ("BRACE_COMMENT", "LINE_COMMENT"):
                reader.comment(self.comment(tok))
            elif kind == "ESCAPE":
                self.escape(tok)
            else:
                self.junk(tok)
        tag_comments = reader.comments
        reader.finish(line, col)
        if name == "Auction":
            self.auction = reader
            self.auction_tag = (seat, line, col, tag_comments)
            self.latest = "auction"
        else:
            self.play = reader
            self.play_tag = (seat, line, col, tag_comments)
            self.latest = "play"
        return True

    def note(
        self, raw: str, line: int, col: int, where: tuple[int, int], items: list[Lexeme]
    ) -> None:
        value = unescape(raw)
        if raw.startswith("#"):
            self.problem("tag-value", "Note may not inherit a value with '#' or '##'", *where)
        else:
            for code, sev, msg in check_value("Note", value):
                self.problem(code, msg, *where, sev)
        head, colon, text = value.partition(":")
        index = int(head) if colon and head.strip().isdecimal() else 0
        if index and head != str(index):
            index_text_ok = False
        else:
            index_text_ok = bool(colon) and index > 0
        note = make(
            Note,
            index=index,
            text=text if index_text_ok else value,
            raw=None if index_text_ok and raw == value else raw,
            comments=(),
            line=line,
            column=col,
        )
        comments: list[Comment] = []
        stray: list[Lexeme] = []
        for tok in items:
            if tok.type in ("BRACE_COMMENT", "LINE_COMMENT"):
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
                self.tags[-1] = pair.model_copy(update={"comments": tuple(comments)})
            self.other_items(stray, self.tags[-1])
            return
        notes = self.auction_notes if self.latest == "auction" else self.play_notes
        indices = self.auction_indices if self.latest == "auction" else self.play_indices
        if index and index in indices:
            self.problem(
                "note",
                f"note {index} given twice in the {self.latest} section",
                line,
                col,
                Severity.WARNING,
            )
        notes.append(note)
        indices.add(index)
        section = self.auction if self.latest == "auction" else self.play
        for tok in stray:  # data after a Note continues its section, leniently
            if tok.type == "DATA" and section is not None:
                tline, tcol = self.pos(tok)
                self.problem(
                    "syntax", "section data after a Note tag", tline, tcol, Severity.WARNING
                )
                section.data(str(tok), tline, tcol)
            else:
                self.junk(tok)

    # -- tables ---------------------------------------------------------------------
    def table(
        self,
        name: str,
        raw: str,
        value: str,
        line: int,
        col: int,
        where: tuple[int, int],
        items: list[Lexeme],
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
        for tok in items:
            kind = tok.type
            if kind == "DATA":
                tline, tcol = self.pos(tok)
                for i, row in enumerate(str(tok).splitlines()):
                    base = tcol if i == 0 else 1
                    for m in tbl.ELEMENT.finditer(row):
                        elements.append((m.group(), tline + i, base + m.start()))
            elif kind in ("BRACE_COMMENT", "LINE_COMMENT"):
                c = self.comment(tok)
                if elements:
                    self.problem(
                        "table",
                        "a comment may not follow a table element",
                        c.line or line,
                        c.column or 1,
                    )
                    c = c.model_copy(update={"follows": "element"})
                comments.append(c)
            elif kind == "ESCAPE":
                self.escape(tok)
            else:
                tline, tcol = self.pos(tok)
                self.problem(
                    "table", f"{str(tok).strip()[:20]!r} is not a table element", tline, tcol
                )
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

    # -- the end of the game ------------------------------------------------------------
    def finish(self) -> None:
        for name, reader, notes in (
            ("auction", self.auction, self.auction_notes),
            ("play", self.play, self.play_notes),
        ):
            if reader is None:
                continue
            indices = {n.index for n in notes}
            used = set()
            for n, line, col in reader.note_refs:
                used.add(n)
                if n not in indices:
                    self.problem("note", f"no Note {n} in the {name} section for ={n}=", line, col)
            for note in notes:
                if note.index and note.index not in used:
                    self.problem(
                        "note",
                        f"note {note.index} of the {name} section is never referred to",
                        note.line or 0,
                        note.column or 1,
                        Severity.WARNING,
                    )
        if self.play is not None and self.play_tag is not None:
            contract = next((t.value for t in self.tags if t.name == "Contract"), "")
            try:
                strain = Contract.parse(contract).strain if contract else None
            except ValueError:
                strain = None
            if strain is not None:
                self.play.check_plus_order(self.play_tag[0], strain)
        present = self.seen
        self.check_order()
        if self.auction_tag is not None and "Dealer" not in present:
            _, line, col, _ = self.auction_tag
            self.problem("missing-tag", "Auction without a Dealer tag", line, col)
        if self.play_tag is not None:
            _, line, col, _ = self.play_tag
            for needed in ("Deal", "Contract"):
                if needed not in present:
                    self.problem("missing-tag", f"Play without a {needed} tag", line, col)
            contract = next((t.value for t in self.tags if t.name == "Contract"), "")
            if "Declarer" not in present and contract[:1].isdigit():
                self.problem("missing-tag", "Play without a Declarer tag", line, col)
        for name, value in self.state.defaults.items():
            if name not in present:
                self.tags.append(
                    make(
                        TagPair,
                        name=name,
                        value=value,
                        raw=None,
                        comments=(),
                        section=(),
                        line=None,
                        column=None,
                        implied=True,
                    )
                )

    def check_order(self) -> None:
        """PBN 2.8 and 12.3: Dealer comes before the Auction section; Deal, Contract and
        Declarer before the Play section. Read in any order, said as warnings."""
        where: dict[str, tuple[int, int]] = {}
        for t in self.tags:
            if t.line is not None:
                where.setdefault(t.name, (t.line, t.column or 0))
        for section, tag, needed in (
            ("Auction", self.auction_tag, ("Dealer",)),
            ("Play", self.play_tag, ("Deal", "Declarer", "Contract")),
        ):
            if tag is None:
                continue
            opened = (tag[1], tag[2])
            for name in needed:
                at = where.get(name)
                if at is not None and at > opened:
                    self.problem(
                        "tag-order",
                        f"{name} comes after the {section} section; it belongs before it",
                        at[0],
                        at[1],
                        Severity.WARNING,
                    )

    def build(self, text: str) -> Board:
        auction = None
        if self.auction is not None and self.auction_tag is not None:
            seat, line, col, comments = self.auction_tag
            end, end_ann = self.auction.auction_end()
            auction = make(
                Auction,
                first=seat,
                entries=self.auction.auction_entries(),
                end=end,
                end_annotations=end_ann,
                notes=tuple(self.auction_notes),
                comments=tuple(comments),
                line=line,
                column=col,
            )
        play = None
        if self.play is not None and self.play_tag is not None:
            seat, line, col, comments = self.play_tag
            pend, pend_ann = self.play.play_end()
            play = make(
                Play,
                first=seat,
                slots=self.play.play_slots(),
                end=pend,
                end_annotations=pend_ann,
                claim=None,
                notes=tuple(self.play_notes),
                comments=tuple(comments),
                line=line,
                column=col,
            )
        label = next((t.value for t in self.tags if t.name == "Board"), None)
        self.problems.sort(key=lambda p: (p[3], p[4]))
        fields: dict[str, Any] = dict(
            tags=tuple(self.tags),
            auction=auction,
            play=play,
            tables=tuple(self.tables),
            comments=tuple(self.comments),
            escapes=tuple(self.escapes),
            extras=(),
            format="pbn",
            index=self.index,
            line=self.first_tag_line or self.game.first_line,
            source=text,
            diagnostics=tuple(_diagnostics(self.problems, self.path, label)),
        )
        return make(Board, **fields)
