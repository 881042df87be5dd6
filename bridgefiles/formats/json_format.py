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

JSON input is untrusted like any other: a board's ``diagnostics`` and ``source``
are never taken from it (findings are ours alone, and only text we read is
written back verbatim), and its tags get the same checks as PBN tags.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import ValidationError

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.pbn.tags import KNOWN, check_deal, check_value
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions, WriteOptions, register
from bridgefiles.model.board import Board
from bridgefiles.model.compact import compacted
from bridgefiles.model.diagnostic import Diagnostic, Severity, error

HEADER = '{"bridgefiles": 1, "boards": ['
_SPECIAL = re.compile(r'[\[\]{}"\\]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_NOT_OURS = ("diagnostics", "source")  # what an input file may not tell us


def nesting(text: str) -> int:
    """How deep objects and lists nest in JSON text, strings left out: one pass, each
    character looked at once (a string of escaped quotes cannot make it quadratic)."""
    depth = deepest = 0
    in_string = False
    skip = -1  # the position of an escaped character, passed over
    for m in _SPECIAL.finditer(text):
        at = m.start()
        if at == skip:
            continue
        c = m.group()
        if in_string:
            if c == "\\":
                skip = at + 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c in "]}":
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
    found: list[Diagnostic] = []
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in _NOT_OURS}
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
    found.extend(tag_findings(board, options.path))
    for d in found:
        if options.strict and d.severity is Severity.ERROR:
            raise StrictModeError(d.format(), d)
    return compacted(board).model_copy(  # (kept as a board read from PBN or LIN)
        update={"index": index, "format": board.format or "json", "diagnostics": tuple(found)}
    )


def tag_findings(board: Board, path: str | None) -> list[Diagnostic]:
    """The checks PBN tags get (pbn.md 4, 5), for a board that came as JSON."""
    out: list[Diagnostic] = []
    label = board.board_number
    seen: set[str] = set()
    for i, t in enumerate(board.tags):
        if t.name in seen or t.implied:
            continue
        seen.add(t.name)
        value = t.value
        if t.name == "Deal" and value not in ("", "?"):
            found = tuple(check_deal(value))
        elif t.name in KNOWN:
            found = check_value(t.name, value)
        else:
            continue
        for code, severity, message in found:
            out.append(
                Diagnostic(
                    code=code,
                    severity=severity,
                    message=f"{t.name}: {message}",
                    line=board.tag_where(i)[0],
                    column=board.tag_where(i)[1],
                    path=path,
                    board=label,
                )
            )
    return out


def _lone_surrogates(data: Any, line: int, options: ReadOptions, info: FileInfo) -> Any:
    """Strings with halves of a surrogate pair (``"\\ud800"``) cannot be written as UTF-8:
    each becomes U+FFFD, with an ``encoding`` error."""
    count = 0

    def fix(value: Any) -> Any:
        nonlocal count
        if isinstance(value, str):
            if _SURROGATE.search(value) is None:
                return value
            count += 1
            return _SURROGATE.sub("\ufffd", value)
        if isinstance(value, list):
            return [fix(v) for v in value]
        if isinstance(value, dict):
            return {fix(k): fix(v) for k, v in value.items()}
        return value

    fixed = fix(data)
    if count:
        diag = error(
            "encoding",
            f"{count} string(s) hold a lone UTF-16 surrogate escape, which is no character; "
            "shown as U+FFFD",
            line=line,
            column=1,
            path=options.path,
        )
        if options.strict:
            raise StrictModeError(diag.format(), diag)
        info.diagnostics.append(diag)
    return fixed


# No value of a board is a number of more digits than this (Python refuses to read one
# of more than 4,300 at all, sys.get_int_max_str_digits).
MAX_DIGITS = 100


class _LongNumber(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(f"a number of {digits:,} digits")
        self.digits = digits


def _integer(text: str) -> int:
    """json's ``parse_int``: a number of more than MAX_DIGITS digits is bad input."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(text)


def _decoded(text: str, line: int | None, options: ReadOptions) -> tuple[Any, Diagnostic | None]:
    """The JSON value of ``text`` (a document, or the board of line ``line``), or the
    ``syntax`` finding that says why it is not one (raised in strict mode)."""
    try:
        return json.loads(text, parse_int=_integer), None
    except json.JSONDecodeError as exc:
        diag = error(
            "syntax",
            f"not JSON: {exc.msg}",
            line=exc.lineno if line is None else line,
            column=exc.colno,
            path=options.path,
        )
    except _LongNumber as exc:
        diag = error(
            "syntax",
            f"not JSON a board is made of: {exc} (no value of a board has more than "
            f"{MAX_DIGITS})",
            line=1 if line is None else line,
            path=options.path,
        )
    if options.strict:
        raise StrictModeError(diag.format(), diag) from None
    return None, diag


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    first = next(lines, None)
    if first is None:
        return
    if first.strip() == HEADER:
        yield from _read_lines(lines, options, info)
        return
    text = first + "".join(lines)
    data = _value(text, None, options, info)
    if data is _NOT_READ:
        return
    items: list[Any]
    if isinstance(data, dict) and isinstance(data.get("boards"), list):
        items = data["boards"]
    elif isinstance(data, list):
        items = data
    else:
        items = [data]
    for index, item in enumerate(items):
        board = _kept(_board(item, index, 1, options), options, info)
        if board is not None:
            yield board


def _kept(result: Board | Diagnostic, options: ReadOptions, info: FileInfo) -> Board | None:
    """The board read, or None with the finding that says why it is not one kept in
    ``info`` (raised in strict mode)."""
    if isinstance(result, Diagnostic):
        if options.strict:
            raise StrictModeError(result.format(), result)
        info.diagnostics.append(result)
        return None
    return result


_NOT_READ = object()  # what _value gives for text it could not take as a JSON value


def _value(text: str, line: int | None, options: ReadOptions, info: FileInfo) -> Any:
    """The JSON value of a whole document (``line`` None) or of one board's line, or
    ``_NOT_READ`` with the finding that says why in ``info``: one path for both layouts,
    so a line is bounded and checked as a document is."""
    deep = _too_deep(text, line or 1, options)
    if deep is not None:
        info.diagnostics.append(deep)
        return _NOT_READ
    data, diag = _decoded(text, line, options)
    if diag is not None:
        info.diagnostics.append(diag)
        return _NOT_READ
    if _ESCAPED_SURROGATE.search(text):
        data = _lone_surrogates(data, line or 1, options, info)
    return data


def _read_lines(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    index = 0
    for lineno, line in enumerate(lines, start=2):
        text = line.strip()
        if not text or text == "]}":
            continue
        text = text.removesuffix(",")
        data = _value(text, lineno, options, info)
        if data is _NOT_READ:
            continue
        board = _kept(_board(data, index, lineno, options), options, info)
        index += 1
        if board is not None:
            yield board


def sniff(head: str) -> int:
    text = head.lstrip()
    if text.startswith(HEADER):
        return 100
    return 60 if text[:1] in "{[" and '"tags"' in text else 0


register(
    Format(
        name="json",
        extensions=(".json", ".jsonl"),
        sniff=sniff,
        read=read,
        write=write,
        line_limit="max_board_size",  # a board a line: a long commentary makes a long line
    )
)
