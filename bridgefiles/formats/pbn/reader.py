"""Reads PBN text into Board models, one game at a time (DESIGN: streaming).

The line stream is split into games (split.py), each game's tokens are read by
:class:`~bridgefiles.formats.pbn.game.GameReader` (game.py and its parts: the tokens
come from the grammar's terminals, lexer.py), and what a file says as a whole
(preamble, ``%`` directives, trailer) goes into its FileInfo. Every problem becomes a
diagnostic on its board; the next game is read whatever happened to this one. A
visitor (formats/visitor.py) may ask for the headers only, or for some boards only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.decode import text_lines
from bridgefiles.formats.pbn.dialect import refused
from bridgefiles.formats.pbn.game import GameReader
from bridgefiles.formats.pbn.game_base import FileState, diagnostics_of
from bridgefiles.formats.pbn.split import RawGame, split_games
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.formats.visitor import BUILD_BOARDS, BoardVisitor
from bridgefiles.limits import Limits, limit_diagnostic
from bridgefiles.model.board import Board, EscapeLine
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.fast import make

T = TypeVar("T")

__all__ = ["GameReader", "read_pbn", "visit"]


def _newline(text: str) -> str | None:
    i = text.find("\n")
    j = text.find("\r")
    if j >= 0 and (i < 0 or j < i):
        return "\r\n" if text[j + 1 : j + 2] == "\n" else "\r"
    return "\n" if i >= 0 else None


def read_pbn(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The registry's reader: boards one at a time; file-level facts go into ``info``.
    ``options.visitor`` (if any) says how much of each board to build."""
    return visit(lines, options, info, options.visitor or BUILD_BOARDS)


def visit(
    lines: Iterator[str], options: ReadOptions, info: FileInfo, visitor: BoardVisitor[T]
) -> Iterator[T]:
    """What ``visitor`` asks for of each game of a PBN text, in one pass
    (formats/visitor.py): every board whole, headers only, or some boards."""
    state = FileState()
    headers_only = visitor.headers_only
    by_headers = visitor.picks_by_headers
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
            info.diagnostics.extend(diagnostics_of(part.game.problems, options.path, None))
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
        wanted = visitor.begin_board(index)
        reader = GameReader(part.game, index, state, options.path, limits, headers_only)
        reader.read_headers()  # also for a board skipped: '#' and '##' carry on (PBN 2.9)
        if wanted and by_headers:
            wanted = visitor.end_headers(reader.headers_board())
        if wanted:
            board = reader.headers_board() if headers_only else reader.rest()
            if options.strict:
                for d in map(refused, board.diagnostics):  # a dialect form is an error
                    if d.severity is Severity.ERROR:
                        raise StrictModeError(d.format(), d)
            yield visitor.result(board)
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
