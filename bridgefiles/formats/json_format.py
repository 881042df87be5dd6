"""JSON: the board model as data, one board a line so both ways stream.

Layout written::

    {"bridgefiles": 1, "boards": [
    {...board...},
    {...board...}
    ]}

The reader takes that layout a line at a time; any other JSON (a whole document
with a "boards" list, a list of boards, or one board) is read in one piece.
The text as read in another format (``Board.source``) is not written: JSON
carries the content, and a JSON -> PBN/LIN conversion writes export layout.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import ValidationError

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions, WriteOptions, register
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic, error

HEADER = '{"bridgefiles": 1, "boards": ['
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_BRACKET = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """How deep objects and lists nest in JSON text, strings left out (linear scan)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _too_deep(text: str, line: int, options: ReadOptions) -> Diagnostic | None:
    """Deep nesting would exhaust the parser's recursion: refuse it with a ``limit`` finding."""
    return options.limits.check(
        "max_nesting",
        nesting(text),
        what="JSON nesting",
        strict=options.strict,
        consequence="the value is not read",
        line=line,
        column=1,
        path=options.path,
    )
_EXCLUDE = {"source"}


def board_to_json(board: Board) -> str:
    return board.model_dump_json(exclude=_EXCLUDE, exclude_defaults=True)


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    nl = options.newline or "\n"
    yield HEADER + nl
    first = True
    for board in boards:
        yield ("" if first else "," + nl) + board_to_json(board)
        first = False
    yield ("" if first else nl) + "]}" + nl


def _board(data: Any, index: int, line: int, options: ReadOptions) -> Board | Diagnostic:
    try:
        board = Board.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem.get("loc", ()))
        return error(
            "syntax",
            f"board {index + 1} is not a bridgefiles board: {where}: {problem.get('msg')}",
            line=line,
            column=1,
            path=options.path,
        )
    return board.model_copy(update={"index": index, "format": board.format or "json"})


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    first = next(lines, None)
    if first is None:
        return
    if first.strip() == HEADER:
        yield from _read_lines(lines, options, info)
        return
    text = first + "".join(lines)
    deep = _too_deep(text, 1, options)
    if deep is not None:
        info.diagnostics.append(deep)
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        diag = error(
            "syntax", f"not JSON: {exc.msg}", line=exc.lineno, column=exc.colno, path=options.path
        )
        if options.strict:
            raise StrictModeError(diag.format(), diag) from None
        info.diagnostics.append(diag)
        return
    items: list[Any]
    if isinstance(data, dict) and isinstance(data.get("boards"), list):
        items = data["boards"]
    elif isinstance(data, list):
        items = data
    else:
        items = [data]
    for index, item in enumerate(items):
        result = _board(item, index, 1, options)
        if isinstance(result, Diagnostic):
            if options.strict:
                raise StrictModeError(result.format(), result)
            info.diagnostics.append(result)
            continue
        yield result


def _read_lines(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    index = 0
    for lineno, line in enumerate(lines, start=2):
        text = line.strip()
        if not text or text == "]}":
            continue
        text = text.removesuffix(",")
        deep = _too_deep(text, lineno, options)
        if deep is not None:
            info.diagnostics.append(deep)
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            diag = error(
                "syntax", f"not JSON: {exc.msg}", line=lineno, column=exc.colno, path=options.path
            )
            if options.strict:
                raise StrictModeError(diag.format(), diag) from None
            info.diagnostics.append(diag)
            continue
        result = _board(data, index, lineno, options)
        index += 1
        if isinstance(result, Diagnostic):
            if options.strict:
                raise StrictModeError(result.format(), result)
            info.diagnostics.append(result)
            continue
        yield result


def sniff(head: str) -> int:
    text = head.lstrip()
    if text.startswith(HEADER):
        return 100
    return 60 if text[:1] in "{[" and '"tags"' in text else 0


register(Format(name="json", extensions=(".json", ".jsonl"), sniff=sniff, read=read, write=write))
