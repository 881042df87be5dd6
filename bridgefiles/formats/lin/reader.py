"""LIN commands to boards, one board at a time (lin.md sections 3, 4, 5 and 11).

Board boundaries (lin.md 4): ``qx`` opens a table record; ``md`` with a dealer
digit opens a new board once the current one has a deal; commands that open a
board (``pn``, ``mn``, ``qx`` ...) met after a board's deal are held until the
next command shows whether they belong to the next board. Header commands of a
vugraph file (``vg rs pw mp bn`` and an 8-name ``pn`` before the first board)
are kept in the file preamble and, as extras at position -1 plus PBN tags
(Event, Stage, Scoring, teams, players by room), on every board.

Every command lands somewhere: in a model field, or kept as an :class:`Extra`
(format "lin", position = calls and cards made before it) so nothing is lost;
whatever could not be read is a diagnostic with line and column.

Memory (issue 15): boards stream, so the peak above the base is a few chunks of text and
their tokens plus a multiple of the largest board's input bytes. The worst case is a
board of the shortest commands (``||``, each kept as an extra with a finding), and a
board keeps at most ``max_commands_per_board`` commands: that limit is what bounds one
board's memory. Comment lines before the first board are the file's
(``FileInfo.directives``, at most ``max_commands_per_board`` of them), and so many
commands at the most wait after a deal to show which board they open.
tests/unit/formats/test_lin_speed_memory.py holds these bounds; the README (Performance)
gives what they come to.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, count, repeat
from operator import add
from typing import Generic, TypeVar

from bridgefiles.formats.lin.commands import Command, Run
from bridgefiles.formats.lin.finish import finish
from bridgefiles.formats.lin.parser import chunks
from bridgefiles.formats.lin.records import apply
from bridgefiles.formats.lin.source import PendingText
from bridgefiles.formats.lin.state import (
    BoardState,
    PendingCard,
    Reading,
    VugraphHeader,
    new_card,
)
from bridgefiles.formats.lin.tokens import (
    CARD_TEXT,
    DEALER_DIGITS,
    FORMAT,
    HEADER_POSITION,
    HEADER_TAGS,
    KNOWN_TAGS,
    LINE_OPENERS,
    OPEN_AFTER_BODY,
    OPEN_AFTER_DEAL,
)
from bridgefiles.formats.lin.vugraph import apply_header, header_like, headerless_file
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.formats.visitor import BUILD_BOARDS, BoardVisitor
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import error

T = TypeVar("T")

__all__ = ["FORMAT", "HEADER_POSITION", "KNOWN_TAGS", "Builder", "read", "visit"]


class Builder(Generic[T]):
    """Commands to boards: where each board begins and ends (lin.md 4), and each
    command handed to the part of the reader that knows it."""

    def __init__(self, options: ReadOptions, info: FileInfo, visitor: BoardVisitor[T]) -> None:
        self.visitor = visitor
        self.wanted = True  # the visitor wants the current board
        self.reading = Reading(options, info)
        self.options = options
        self.info = info
        self.header_started = False
        self.cur: BoardState | None = None
        self.pending: list[Command] = []
        self.count = 0
        self.text = PendingText()
        self.preamble_done = False

    # -- text bookkeeping --------------------------------------------------------
    def add_text(self, text: str) -> None:
        """Text read so far and not yet given to a board (or the preamble)."""
        self.text.add(text)

    def cut(self, offset: int) -> str:
        """The text from the last cut up to ``offset``."""
        return self.text.cut(offset)

    def rest(self) -> str:
        return self.text.rest()

    # -- the command stream -------------------------------------------------------
    def feed(self, cmd: Command) -> Iterator[T]:
        cur = self.cur
        if cur is None:
            if self.is_header(cmd):
                apply_header(self.reading, cmd)
                return
            yield from self.start(cmd)
            return
        tag = cmd.tag
        if tag == "qx" and (cur.has_qx or cur.hands is not None or cur.has_body):
            yield from self.start(cmd)
            return
        if (
            cmd.column == 1
            and cur.has_body
            and not cur.has_qx
            and (
                (tag == "pn" and len(cmd.value.split(",")) == 4)
                or (tag in LINE_OPENERS and cur.hands is None)
            )
        ):
            # lin.md 4, rule 3: in a file of one board a line, a line that starts with the
            # players, ``st``, ``md``, ``ah`` or ``rh`` opens the next board even when the
            # current one has no deal to tell it by (a second table's record of a deal).
            yield from self.start(cmd)
            return
        if (
            tag == "md"
            and cur.hands is not None
            and (
                cmd.value.strip()[:1] in DEALER_DIGITS
                or (self.pending and not cmd.value.startswith("0"))
            )
        ):
            yield from self.start(cmd)
            return
        openers = OPEN_AFTER_BODY if cur.has_body else OPEN_AFTER_DEAL
        if (
            cur.hands is not None
            and (
                tag in openers
                or (self.pending and self.pending[0].tag == "vg" and header_like(cmd))
            )
            and not self.options.limits.exceeded("max_commands_per_board", len(self.pending) + 1)
        ):
            # held until it shows which board it opens; no more than a board's commands
            # (memory): past that, they are the current board's
            self.pending.append(cmd)
            return
        if self.pending:
            held, self.pending = self.pending, []
            for c in held:
                apply(self.reading, cur, c)
        apply(self.reading, cur, cmd)

    def feed_run(self, run: Run) -> Iterator[T]:
        """A run of ``pc`` (or ``mb``/``an``) pairs: inside a board, with nothing held,
        none of its pairs can open a board, so each goes straight to :func:`apply`; a
        run of plain cards (the grammar's CARDS) is taken in one go."""
        acc = self.cur
        if acc is None or self.pending:
            for cmd in run.commands():
                yield from self.feed(cmd)
            return
        limits = self.options.limits
        if run.plain and not limits.exceeded(
            "max_commands_per_board", acc.commands + run.text.count("|")
        ):
            take_cards(acc, run)
            return
        reading = self.reading
        for cmd in run.commands():
            apply(reading, acc, cmd)

    def emit(self, acc: BoardState, source: str) -> Iterator[T]:
        """The visitor's result for a finished board, if it wanted the board."""
        if not self.wanted:
            return
        visitor = self.visitor
        if visitor.picks_by_headers and not visitor.headers_only:
            # the headers first; the auction and play only for a board the visitor keeps
            # (what finishing the headers reports is reported again by the whole board)
            reported = len(acc.diagnostics)
            headers = finish(self.reading, acc, source, True)
            del acc.diagnostics[reported:]
            if not visitor.end_headers(headers):
                return
        yield visitor.result(finish(self.reading, acc, source, visitor.headers_only))

    def is_header(self, cmd: Command) -> bool:
        if cmd.tag == "%":
            return True
        if cmd.tag in HEADER_TAGS:
            self.header_started = True
            return True
        if not self.header_started:
            return False
        if cmd.tag in ("pg", "nt", ""):
            return True
        return cmd.tag == "pn" and len(cmd.value.split(",")) != 4

    def start(self, cmd: Command) -> Iterator[T]:
        """Begin a board at ``cmd`` (or at the first held command)."""
        held, self.pending = self.pending, []
        first = held[0] if held else cmd
        if self.cur is not None:
            yield from self.emit(self.cur, self.cut(first.offset))
        elif not self.preamble_done:
            self.preamble_done = True
            text = self.cut(first.offset)
            self.info.preamble = text or None
        if any(c.tag == "vg" for c in held):
            # a new segment's header (files joined together): it heads the boards after it
            self.reading.header = VugraphHeader()
            while held and header_like(held[0]):
                apply_header(self.reading, held.pop(0), file_level=False)
        self.cur = BoardState(
            offset=first.offset, line=first.line, index=self.count, header=self.reading.header
        )
        self.wanted = self.visitor.begin_board(self.count)
        self.count += 1
        for c in held:
            apply(self.reading, self.cur, c)
        apply(self.reading, self.cur, cmd)

    def end(self) -> Iterator[T]:
        cur = self.cur
        if cur is not None:
            for c in self.pending:
                apply(self.reading, cur, c)
            self.pending = []
            if cur.known or self.count > 1:
                yield from self.emit(cur, self.rest())
                return
        rest = self.rest()
        self.info.preamble = (self.info.preamble or "") + rest or None
        if self.header_started:  # a vugraph header, and no board after it
            self.reading.file_report(headerless_file(self.reading.header))
            return
        # no board: text with no LIN command in it (a board needs at least one)
        self.reading.file_report(
            error(
                "syntax",
                "no board: no LIN command (pn|...|, md|...|, mb|...|, pc|...|) in the text; "
                "not a LIN file",
                line=1,
            )
        )


def take_cards(acc: BoardState, run: Run) -> None:
    """A CARDS run (the grammar's run of plain cards ``pc|SA|`` and empty pauses ``pg||``
    on one line, so no check is left to make): its cards taken in one go.
    A card's pair is 6 characters, a pause's 4: the k-th card, in pair i, is at column
    ``column + 4*i + 2*k``."""
    values = run.text.split("|")[1::2]
    shown = list(compress(values, values))  # a card's value; a pause has none
    columns = map(add, compress(count(run.column, 4), values), count(0, 2))
    events = acc.events
    acc.cards.extend(
        map(
            new_card,
            repeat(PendingCard),
            zip(
                map(CARD_TEXT.__getitem__, shown),
                repeat(None),
                shown,
                repeat(run.line),
                columns,
                count(events),
                repeat(len(acc.extras)),
            ),
        )
    )
    acc.events = events + len(shown)
    acc.commands += len(values)
    acc.known = True
    acc.last = "pc" if values[-1] else "pg"


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The boards of a LIN text, one at a time."""
    return visit(lines, options, info, options.visitor or BUILD_BOARDS)


def visit(
    lines: Iterator[str], options: ReadOptions, info: FileInfo, visitor: BoardVisitor[T]
) -> Iterator[T]:
    """What ``visitor`` asks for of each board of a LIN text, in one pass."""
    builder = Builder(options, info, visitor)
    limits = options.limits
    nul_seen = False
    found = chunks(
        _newline_watch(lines, info),
        limits.max_comment_size,
        strict=options.strict,
        path=options.path or None,
    )
    for chunk in found:
        builder.add_text(chunk.text)
        if not nul_seen and "\x00" in chunk.text:
            nul_seen = True  # reported once: a UTF-16 file read as 8-bit text has one in 2
            line = chunk.items[0].line if chunk.items else None
            builder.reading.file_report(
                error(
                    "encoding",
                    "NUL characters in the text: UTF-16 without a byte-order mark? "
                    "LIN is 8-bit text",
                    line=line,
                )
            )
        if chunk.cut:
            builder.reading.over_limit(
                builder.cur.diagnostics if builder.cur else info.diagnostics,
                "max_comment_size",
                len(chunk.text),
                "a value with no closing bar",
                "it is cut there and reading goes on",
                chunk.items[0].line if chunk.items else None,
            )
        for item in chunk.items:
            if isinstance(item, Run):
                yield from builder.feed_run(item)
            else:
                yield from builder.feed(item)
    yield from builder.end()


def _newline_watch(lines: Iterator[str], info: FileInfo) -> Iterator[str]:
    for line in lines:
        if info.newline is None and line.endswith("\n"):
            info.newline = "\r\n" if line.endswith("\r\n") else "\n"
        yield line
