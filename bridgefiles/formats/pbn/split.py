"""Splits a PBN line stream into games, tracking brace-comment state across lines.

PBN 2.4 and 2.3: a game ends at the first semi-empty line (only spaces and tabs)
outside a ``{`` comment that follows some content of the game (a tag, or stray
text the reader will report). Escape lines (``%`` in column 1) never end a game,
and inside an open ``{`` comment a ``%`` line is comment text (PBN 2.1). Blocks of
commentary with no content are not games: their text runs on into the next game,
whose leading commentary it becomes, as the reference verifier does.

A ``{`` after a table element opens no comment here (PBN 2.7 and 11.1: comments may
not follow table elements, and ``{`` cannot be part of a section token). The reference
verifier reports it ("Bad comment") and reads on as table data, so a stray ``{`` in a
table cannot swallow the games after it; the reader reports it too.

Lines are checked here, once each, for characters PBN forbids (codes 127-159 and
control characters other than tab and vertical tab; PBN 12.1) and for length: a line
of 255 characters or more breaks the 255-character limit, line end included (PBN 2.1
and 12.1), which the verifier rejects as severe; it is an error, and read in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bridgefiles.formats.decode import text_lines
from bridgefiles.formats.lines import line_batches
from bridgefiles.formats.pbn.tags import TABLES, TAG_PAIR
from bridgefiles.model.diagnostic import Severity

# (code, severity, message, line, column)
Problem = tuple[str, Severity, str, int, int]

_BAD_CHAR = re.compile(r"[\x00-\x08\x0c\x0e-\x1f\x7f-\x9f]")
_SPECIAL = re.compile(r'[{;"]')
_STRING_END = re.compile(r'(?:[^"\\]|\\.)*"')
_BLANK = " \t\r\n"
_COMPACT = 1024  # pending lines joined into one string, so a long game is held as text
MAX_PBN_LINE = 255  # including the line end, counted as one character (PBN 2.1)
_TABLE_SPECIAL = re.compile(r'[\[{;"]')
_CHECKED_WIDTH = 200  # a line longer than this is looked at for the length limit


class RawGame:
    """The text of one game (line ends kept), where it starts, what the line checks found."""

    __slots__ = ("first_line", "problems", "text")

    def __init__(self, lines: list[str], first_line: int, problems: list[Problem]) -> None:
        self.text = "".join(lines)
        self.first_line = first_line
        self.problems = problems


@dataclass
class Split:
    """What the splitter yields: games, then (at most once each) preamble and trailer."""

    kind: str  # "preamble", "game" or "trailer"
    game: RawGame


def _scan(line: str, in_brace: bool) -> tuple[bool, bool]:
    """Brace state at the end of ``line`` and whether it holds non-comment content."""
    content = False
    i, n = 0, len(line)
    while i < n:
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return True, content
            in_brace, i = False, j + 1
            continue
        m = _SPECIAL.search(line, i)
        end = m.start() if m else n
        if not content and line[i:end].strip():
            content = True
        if m is None:
            break
        c = m.group()
        if c == ";":
            break
        if c == "{":
            in_brace, i = True, end + 1
            continue
        content = True
        s = _STRING_END.match(line, end + 1)
        if s is None:
            break
        i = s.end()
    return in_brace, content


@dataclass
class _Table:
    """Whether the last tag read is a table tag, and whether elements followed it."""

    open: bool = False
    elements: bool = False


def _tags_line(line: str, table: _Table) -> None:
    """A line of tag pairs: the table state after its last tag (and any data after it)."""
    last = None
    for m in TAG_PAIR.finditer(line):
        last = m
    if last is None:  # a tag pair broken over lines: the old state is the safe guess
        return
    table.open = last.group(1) in TABLES
    table.elements = table.open and bool(line[last.end() :].strip(_BLANK))


def _scan_table(line: str, table: _Table) -> tuple[bool, bool]:
    """Like :func:`_scan` (outside a comment), for a line where a table may be open:
    tags change the table state, and a ``{`` after an element opens no comment."""
    content = False
    i, n = 0, len(line)
    while i < n:
        m = _TABLE_SPECIAL.search(line, i)
        end = m.start() if m else n
        if line[i:end].strip(_BLANK):
            content = True
            table.elements = table.elements or table.open
        if m is None:
            break
        c = m.group()
        if c == ";":
            break
        if c == "{":
            if table.open and table.elements:
                content, i = True, end + 1  # not a comment: the reader reports it
                continue
            j = line.find("}", end + 1)
            if j < 0:
                return True, content
            i = j + 1
            continue
        content = True
        if c == "[":
            tag = TAG_PAIR.match(line, end)
            if tag is None:
                table.open = table.elements = False
                i = end + 1
                continue
            table.open, table.elements = tag.group(1) in TABLES, False
            i = tag.end()
            continue
        table.elements = table.elements or table.open
        s = _STRING_END.match(line, end + 1)
        if s is None:
            break
        i = s.end()
    return False, content


_NOT_LATIN1 = re.compile(r"[^\x00-\xff]")


def _check_latin1(line: str, lineno: int, problems: list[Problem]) -> None:
    """Strict mode: PBN's character set is ISO-8859-1 (pbn.md 2.2); say where text
    leaves it (a UTF-8 file with other characters), once per line."""
    m = _NOT_LATIN1.search(line)
    if m is not None:
        problems.append(
            (
                "encoding",
                Severity.ERROR,
                f"character U+{ord(m.group()):04X} is not ISO-8859-1, PBN's character set "
                "(PBN 2.2)",
                lineno,
                m.start() + 1,
            )
        )


def _check_line(line: str, lineno: int, problems: list[Problem]) -> None:
    body = line.rstrip("\r\n")
    if len(body) + 1 > MAX_PBN_LINE:
        problems.append(
            (
                "syntax",
                Severity.ERROR,
                f"line of {len(body)} characters: PBN allows 255 including the line end, "
                "so at most 254 before it (PBN 2.1)",
                lineno,
                MAX_PBN_LINE,
            )
        )
    if not body.isascii() or _BAD_CHAR.search(body):
        for m in _BAD_CHAR.finditer(body):
            problems.append(
                (
                    "encoding",
                    Severity.ERROR,
                    f"character U+{ord(m.group()):04X} is not allowed in PBN "
                    "(codes 127-159 and control characters)",
                    lineno,
                    m.start() + 1,
                )
            )


def _odd(long_line: bool, text: str, latin1: bool) -> bool:
    """Whether some line of ``text`` may hold what the line checks report (a line over
    ``_CHECKED_WIDTH`` characters, a character PBN forbids, in strict mode one outside
    ISO-8859-1): one look at the whole game."""
    if long_line or _BAD_CHAR.search(text):
        return True
    return latin1 and _NOT_LATIN1.search(text) is not None


def _phase(problem: Problem) -> int:
    """Where a problem stands among a line's problems: the cut of a line over the limit,
    then the line checks, then a comment that goes over the limit (the order they were
    found in when each line was checked as it was read)."""
    code, _, message, _, _ = problem
    if code != "limit":
        return 1
    return 0 if message.startswith("line of") else 2


def _with_checks(
    problems: list[Problem], long_line: bool, text: str, first: int, latin1: bool
) -> list[Problem]:
    """``problems`` with what the line checks find in ``text`` (lines from ``first``;
    ``long_line``: one of them is over ``_CHECKED_WIDTH``), each in its line's place."""
    if not _odd(long_line, text, latin1):
        return problems
    found: list[Problem] = []
    lineno = first
    for line in text_lines(text):
        if len(line) > _CHECKED_WIDTH or not line.isascii() or _BAD_CHAR.search(line):
            _check_line(line, lineno, found)
            if latin1 and not line.isascii():
                _check_latin1(line, lineno, found)
        lineno += 1
    if not found:
        return problems
    return sorted([*problems, *found], key=lambda p: (p[3], _phase(p)))


def split_games(
    lines: Iterable[str],
    max_line_length: int = 1_000_000,
    max_comment_size: int | None = None,
    latin1: bool = False,
) -> Iterator[Split]:
    """Games in file order; the text before the first and after the last game too.

    ``latin1`` (strict mode): characters outside ISO-8859-1 are ``encoding`` errors.

    A ``{`` comment still open after ``max_comment_size`` characters is taken as closed
    there (with a ``limit`` error), so an unterminated comment cannot swallow the file.

    The lines come a batch at a time (decode.line_batches) and are taken a line at a
    time, each by the same rules, so where a batch ends never changes the split.
    """
    comment_size = 0
    pending: list[str] = []
    problems: list[Problem] = []
    start = 1
    lineno = 0
    in_brace = False
    has_content = False
    preamble_done = False
    long_line = False  # a line of the pending text is over _CHECKED_WIDTH
    table = _Table()
    joined = 0  # pending[:joined] is compacted text; the lines after it are loose
    for batch in line_batches(lines):
        for line in batch:
            lineno += 1
            if len(line) > _CHECKED_WIDTH:
                long_line = True
                if len(line) > max_line_length:
                    problems.append(
                        (
                            "limit",
                            Severity.ERROR,
                            f"line of {len(line)} characters is longer than the limit "
                            f"{max_line_length}; the rest of it is not read",
                            lineno,
                            max_line_length,
                        )
                    )
                    line = line[:max_line_length] + ("\n" if line.endswith(("\n", "\r")) else "")
            if in_brace:
                in_brace, _ = _scan(line, True)
                pending.append(line)
                comment_size += len(line)
                if in_brace and max_comment_size is not None and comment_size > max_comment_size:
                    in_brace = False
                    problems.append(
                        (
                            "limit",
                            Severity.ERROR,
                            f"a comment still open after {comment_size:,} characters goes over "
                            f"the limit max_comment_size={max_comment_size:,}; it is taken as "
                            "ending here (raise it with Limits(max_comment_size=...))",
                            lineno,
                            1,
                        )
                    )
                continue
            first = line[:1]
            if first == "%":
                pending.append(line)
                continue
            if first in _BLANK and not line.strip(_BLANK):  # (first is "" for an empty line)
                pending.append(line)
                if has_content:
                    game = RawGame(pending, start, problems)
                    game.problems = _with_checks(problems, long_line, game.text, start, latin1)
                    yield Split("game", game)
                    pending, problems, start, has_content, joined = [], [], lineno + 1, False, 0
                    long_line = False
                    table = _Table()
                continue
            if not preamble_done:
                preamble_done = True
                if pending:
                    game = RawGame(pending, start, [])
                    problems = _with_checks(problems, long_line, game.text, start, latin1)
                    yield Split("preamble", game)
                    pending, start, joined = [], lineno, 0
                    long_line = len(line) > _CHECKED_WIDTH
            if first == "[" and "{" not in line and ";" not in line:
                has_content = True
                if table.open or "Table" in line:
                    _tags_line(line, table)
            else:
                if table.open or ("Table" in line and "[" in line):
                    in_brace, content = _scan_table(line, table)
                elif "{" in line or ";" in line or '"' in line:
                    in_brace, content = _scan(line, False)
                else:  # a line of plain section data (no comment, no string): content
                    in_brace, content = False, True
                has_content = has_content or content
                comment_size = len(line)
            pending.append(line)
        if len(pending) - joined >= _COMPACT:  # a long game: its lines held as text, not lines
            pending[joined:] = ["".join(pending[joined:])]
            joined += 1
    if not pending:
        return
    game = RawGame(pending, start, problems)
    game.problems = _with_checks(problems, long_line, game.text, start, latin1)
    if has_content:
        yield Split("game", game)
    elif not preamble_done:
        yield Split("preamble", game)
    else:
        yield Split("trailer", game)
