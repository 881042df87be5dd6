"""What the parts of a PBN game's reading share: the game's state and its small helpers.

A game is read by :class:`bridgefiles.formats.pbn.game.GameReader`, made of three parts:
this base (the state, positions, comments, tag pairs), the sections' part
(game_sections.py: Auction, Play, Note, tables) and the end (game_end.py: the checks
made once the game is read, and the Board built).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lark import Token

from bridgefiles.formats.pbn.sections import SectionReader
from bridgefiles.formats.pbn.split import RawGame
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model.annotations import Comment, CommentKind, Note
from bridgefiles.model.board import Column, EscapeLine, Table, TagPair, shared_tag
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.fast import make
from bridgefiles.model.seats import Seat
from bridgefiles.model.tags import TagItem, tag_item

SEATS = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}
Problem = tuple[str, Severity, str, int, int]
_NOT_DATA = frozenset({"COMMENT", "LINE_COMMENT", "ESCAPE"})


@dataclass
class FileState:
    """What one game passes on to the next: ``##`` defaults and last values."""

    defaults: dict[str, str] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    table_columns: dict[str, tuple[Column, ...]] = field(default_factory=dict)
    export: bool = False  # the file says "% EXPORT": its layout is checked against pbn.md 3


def diagnostics_of(
    problems: list[Problem], path: str | None, board: str | None
) -> list[Diagnostic]:
    """The problems found, as diagnostics of ``board`` in the file ``path``."""
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


class GameBase:
    """A game's state while it is read, and what every part of the reading uses."""

    def __init__(
        self,
        game: RawGame,
        index: int,
        state: FileState,
        path: str | None,
        limits: Limits = DEFAULT_LIMITS,
        headers_only: bool = False,
    ) -> None:
        self.limits = limits
        self.headers_only = headers_only
        # The sections' work (calls, cards, notes, table rows), done after the tags: a
        # board read for its headers only skips it (formats/visitor.py).
        self.deferred: list[Callable[[], None]] = []
        self.tag_count = 0
        self.first_tag_line: int | None = None
        self.game = game
        self.index = index
        self.state = state
        self.path = path
        self.offset = game.first_line - 1
        self.parse_text = game.text  # the text the grammar read (line ends made "\n")
        self.problems: list[Problem] = list(game.problems)
        # what the board's row keeps of each tag (model/tags.TagItem), and its name
        self.tags: list[TagItem] = []
        self.tag_names: list[str] = []
        self._tag_index: tuple[int, dict[str, int]] | None = None  # (EndPart.tag_index)
        self.tag_places: list[int] = []  # line, column of each tag, flat (model/positions.py)
        self.seen: set[str] = set()
        self.comments: list[Comment] = []
        self.escapes: list[EscapeLine] = []
        self.tables: list[Table] = []
        self.auction: SectionReader | None = None
        self.play: SectionReader | None = None
        self.auction_tag: tuple[Seat, int, int, list[Comment]] | None = None
        self.play_tag: tuple[Seat, int, int, list[Comment]] | None = None
        self.auction_notes: list[Note] = []
        self.auction_note_places: list[int] = []  # line, column of each note, flat
        self.auction_indices: set[int] = set()
        self.play_indices: set[int] = set()
        self.play_notes: list[Note] = []
        self.play_note_places: list[int] = []
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

    def pos(self, tok: Token) -> tuple[int, int]:
        return self.offset + (tok.line or 1), tok.column or 1

    def comment(self, tok: Token) -> Comment:
        """A ``{ }`` or ``;`` comment token (the grammar reads only closed ones)."""
        line, col = self.pos(tok)
        text = str(tok)
        if text.startswith(";"):
            return make(
                Comment,
                text=text[1:], kind=CommentKind.LINE, line=line, column=col, follows=None
            )
        return make(
            Comment,
            text=text[1:-1], kind=CommentKind.BRACE, line=line, column=col, follows=None
        )

    def escape(self, tok: Token) -> None:
        line, _ = self.pos(tok)
        self.escapes.append(make(EscapeLine, text=str(tok)[1:], line=line))

    def rejected(self, text: str, line: int, col: int, grammar: str, kind: str | None) -> None:
        """What the grammar did not read (it starts at line:column of the game; the game's
        source keeps it), said as what is wrong with it. ``kind``: the section it is in."""
        line += self.offset
        first = text.split(None, 1)[0][:20] if text.strip() else ""
        code = "syntax"
        if not first:
            message = grammar or "the game ends where the PBN grammar does not let it"
        elif text.startswith("["):
            message = _tag_problem(text.splitlines()[0])
        elif text.startswith("{") and "}" not in text:
            message = "comment '{' is not closed before the end of the game"
        elif kind == "table":
            code = "table"
            if text[0] in "{;":
                message = "a comment may not follow a table element"
            else:
                message = f"{first!r} is not a table element"
        elif kind is None:
            message = f"text before the first tag: {first!r}"
        elif len(first) == 1 or not first[0].isalnum():
            message = f"unexpected character {text[0]!r}"
        else:
            message = grammar or f"{first!r} cannot stand here"
        self.problem(code, message, line, col)

    def passed_over(self, tok: Token, kind: str) -> None:
        """A token the grammar passed over in a section of ``kind`` (``!`` marks it)."""
        self.rejected(str(tok), tok.line or 1, tok.column or 1, "", kind)

    def tag_pair(self, name: str, raw: str, value: str, line: int, col: int) -> TagPair:
        """The tag, kept in its place: a shared one when written plain; where it stood goes
        to the board's tag positions, not on the tag (as for every tag read)."""
        if raw == value:
            pair = shared_tag(name, value)
            self.tags.append(value)  # (kept as its value: the board's row makes the pair)
        else:
            pair = make(TagPair, name=name, value=value, raw=raw)
            self.tags.append(pair)
        self.tag_names.append(name)
        self.tag_places += (line, col)
        return pair

    def other_items(
        self,
        items: list[Token],
        pair: TagPair | None,
        *,
        keep_quiet: bool = False,
        data_error: str | None = None,
    ) -> None:
        """Comments, escapes and section data after an identification tag: the data is
        kept as the runs of elements between them, as written."""
        comments: list[Comment] = []
        data: list[str] = []
        run: list[Token] = []
        for tok in items:
            kind = tok.type
            if kind not in _NOT_DATA and kind[0] != "!":  # (an unread section's: calls, ...)
                run.append(tok)
                continue
            if run:
                data.append(self.run_text(run, keep_quiet, data_error))
                run = []
            if kind == "ESCAPE":
                self.escape(tok)
            elif kind[0] == "!":
                self.passed_over(tok, "tag")
            else:
                comments.append(self.comment(tok))
        if run:
            data.append(self.run_text(run, keep_quiet, data_error))
        if pair is not None and (comments or data):
            at = self.last_place(pair)  # the tag just read: the last one (linear time)
            if not data and pair.plain:  # what a row keeps of a commented tag: no model
                self.tags[at] = (pair.value, tuple(comments))
                return
            # (built anew, not model_copy: that keeps a copy of the pair's fields-set too;
            # and field by field, not from dict(pair): a model's __iter__ costs ~4 us)
            updated = make(
                TagPair,
                name=pair.name,
                value=pair.value,
                raw=pair.raw,
                comments=tuple(comments),
                section=tuple(data),
                line=pair.line,
                column=pair.column,
                implied=pair.implied,
            )
            self.tags[at] = tag_item(updated)

    def last_place(self, pair: TagPair) -> int:
        """Where ``pair`` (a tag this game read, kept as itself or as its value) stands
        among the tags: the last one, in the usual case."""
        tags, names = self.tags, self.tag_names
        kept = tag_item(pair)
        for at in range(len(tags) - 1, -1, -1):
            item = tags[at]
            if item is pair or (names[at] == pair.name and item == kept):
                return at
        raise LookupError(f"tag {pair.name} is not one of the game's")  # (a bug of ours)

    def run_text(self, run: list[Token], keep_quiet: bool, data_error: str | None) -> str:
        """A run of section elements as written (from the first to the last), said to be
        out of place unless ``keep_quiet``."""
        if not keep_quiet or data_error:
            line, col = self.pos(run[0])
            msg = data_error or "text after a tag that has no section data"
            self.problem("syntax", f"{msg}: {str(run[0])[:20]!r}", line, col)
        return self.parse_text[run[0].start_pos : run[-1].end_pos]


def _tag_problem(line: str) -> str:
    """What is wrong with a ``[`` that opens no tag pair the grammar reads."""
    text = line[: line.find("]") + 1] if "]" in line else line
    body = text[1:].rstrip("]").strip()
    if '"' not in body:
        msg = (
            "tag pair has no value"
            if body.replace("_", "a").isalnum() or not body
            else "tag value is not a quoted string"
        )
    elif body.count('"') % 2 == 1 or not text.endswith("]"):
        msg = "tag pair not closed: the string or ']' is missing on this line"
    else:
        msg = 'tag pair is not [Name "value"]'
    return f"{msg}: {text.strip()[:40]!r} skipped"
