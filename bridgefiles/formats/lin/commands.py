"""LIN text to a stream of commands, a chunk of lines at a time (lin.md section 1).

Lines are gathered into chunks of some kilobytes that end where no value is open
(an even count of bars so far, and the line ends with a bar), so a multi-line
``nt`` stays whole and memory holds one chunk. Each chunk is parsed by the grammar
(``grammars/lin.lark``, coarse terminals; formats/lin/parser.py) into :class:`Command`
and :class:`Run` values with their line and column.
Lines that begin with ``%`` outside a value are comment lines (PbnToLin, aaBridge).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bridgefiles.formats.lin.tokens import BLANKS, RUN_TAGS


@dataclass(slots=True)
class Command:
    """One ``tag|value|`` as written.

    ``tag`` is the two-letter name in lower case, or ``""`` for free text and
    ``"%"`` for a comment line (``value`` then holds the text). ``offset`` is where
    the command's text starts in the file, just after the line break before it, so
    that board boundaries fall at line starts.
    """

    tag: str
    value: str
    written: str
    offset: int
    line: int
    column: int
    closed: bool = True
    stray: str = ""


@dataclass(slots=True)
class Run:
    """A whole run of ``pc`` pairs, or of ``mb``/``an`` pairs, as one grammar token.

    The builder takes the usual pairs of a run straight from ``text`` (DESIGN.md,
    Performance: ~10x fewer items than one per command); :meth:`commands` gives the
    same :class:`Command` values one by one, for everything else. ``line`` and
    ``column`` are those of ``text[0]``; ``offset`` is its place in the file.
    """

    text: str
    offset: int
    line: int
    column: int
    plain: bool = False  # a CARD_RUN: plain cards and empty pauses on one line, nothing else
    _seen: int = 0  # text[:_seen] has been counted for line breaks
    _breaks: int = 0  # line breaks in text[:_seen]
    _last_break: int = -1  # the last of them

    def position(self, at: int) -> tuple[int, int]:
        """Line and column of ``text[at]``, counting forward from the last place asked
        (pairs are asked in order: linear time over the run)."""
        text = self.text
        if at < self._seen:
            self._seen, self._breaks, self._last_break = 0, 0, -1
        n = text.count("\n", self._seen, at)
        if n:
            self._breaks += n
            self._last_break = text.rfind("\n", self._seen, at)
        self._seen = at
        if self._last_break < 0:
            return self.line, self.column + at
        return self.line + self._breaks, at - self._last_break

    def pair(self, raw_tag: str, value: str, start: int) -> Command:
        """The command of the pair at ``start`` in ``text`` (``raw_tag`` with its blanks)."""
        return named(raw_tag, value, self.offset, start, self.position, closed=True)

    def commands(self) -> list[Command]:
        """The run's pairs as commands, as :func:`named` makes them: the text split on its
        bars, columns counted as it goes (line breaks counted forward when it has any); a
        name with nothing before it (the usual pair) is made here, in one step."""
        text = self.text
        parts = text.split("|")
        flat = "\n" not in text
        line, column, offset = self.line, self.column, self.offset
        out: list[Command] = []
        at = 0
        for written, value in zip(parts[::2], parts[1::2], strict=False):  # a bar ends it
            start = at
            at += len(written) + len(value) + 2
            if len(written) != 2:  # blanks or line breaks before the name
                out.append(self.pair(written, value, start))
                continue
            tag = RUN_TAGS.get(written) or written.lower()
            where = (line, column + start) if flat else self.position(start)
            out.append(Command(tag, value, written, offset + start, *where))
        return out


@dataclass(slots=True)
class Chunk:
    """A piece of the file text and what was read from it: commands and runs."""

    text: str
    offset: int
    items: list[Command | Run] = field(default_factory=list)
    cut: bool = False  # ended inside a value because the value grew past the limit

    @property
    def commands(self) -> list[Command]:
        """Every command of the chunk, runs taken apart."""
        out: list[Command] = []
        for item in self.items:
            if isinstance(item, Run):
                out.extend(item.commands())
            else:
                out.append(item)
        return out


def named(
    raw_tag: str,
    value: str,
    offset: int,
    start: int,
    where: Callable[[int], tuple[int, int]],
    closed: bool,
) -> Command:
    """The command of ``raw_tag|value`` written at ``start`` in a text that begins at file
    offset ``offset``; ``where`` gives the line and column of a place in that text. Blanks
    before the name are left out; its file offset is the start of its line when a line
    break comes before it; longer names keep their last two letters (the rest is stray
    text)."""
    stripped = raw_tag.strip(BLANKS)
    lead = len(raw_tag) - len(raw_tag.lstrip(BLANKS))
    nl = raw_tag.rfind("\n", 0, lead)
    boundary = offset + start + (nl + 1 if nl >= 0 else 0)
    line, column = where(start + lead)
    stray = ""
    if len(stripped) == 2:
        tag = stripped.lower()
    elif len(stripped) > 2:
        tag = stripped[-2:].lower()
        stray = stripped[:-2].rstrip(BLANKS)
    else:
        tag = stripped
    return Command(tag, value, stripped, boundary, line, column, closed, stray)


CHUNK_CAP_FACTOR = 4
"""A chunk that reaches ``CHUNK_CAP_FACTOR * chunk_size`` characters is cut at the last
bar that ends a value, even inside a line (a line of bars, lines that end in a
letter): the parse of one chunk holds a few hundred bytes per character."""


def safe_cut(line: str, pos: int, target: int, odd: bool) -> int | None:
    """A place in ``line`` after ``pos``, near ``target``, just after a bar that closes
    a value (an even count of bars since the chunk began): cutting there splits no
    command from its value. None when no bar in the rest of the line allows it."""
    inside = odd ^ bool(line.count("|", pos, target) & 1)
    if not inside:
        back = line.rfind("|", pos, target)
        if back >= 0:
            return back + 1
        opening = line.find("|", target)
        if opening < 0:
            return None
        closing = line.find("|", opening + 1)
        return closing + 1 if closing >= 0 else None
    closing = line.find("|", target)
    return closing + 1 if closing >= 0 else None
